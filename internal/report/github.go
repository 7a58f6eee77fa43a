package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/termsafe"
)

// WriteGitHub writes one GitHub Actions workflow command per finding
// (::error, ::warning or ::notice), so that each appears as an annotation
// on the file and line it names:
//
//	::error file=pack.json,line=12,col=7,title=OW003::agent id ... (at /agents/0/agentId)%0Ahint: ...
//
// File paths are relative to dir (the working directory) when inside it. A
// finding inside a tarball (x.tgz!/pack.json) points at the tarball, with
// no line: the member and its line lead the message. Text from the pack is
// made inert for a terminal (termsafe) before it is escaped, so a hostile
// message can neither start a command of its own nor move the cursor.
func WriteGitHub(w io.Writer, findings []Finding, dir string) error {
	for _, f := range findings {
		if _, err := io.WriteString(w, githubLine(f, dir)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// githubLine is one finding's workflow command, without the newline.
func githubLine(f Finding, dir string) string {
	cmd := "error"
	switch f.Level {
	case LevelWarning:
		cmd = "warning"
	case LevelNote:
		cmd = "notice"
	}
	disk, _ := f.Split()
	file, _ := relPath(dir, disk)
	props := []string{"file=" + EscapeProperty(termsafe.String(file))}
	if line, col := f.position(); line > 0 {
		props = append(props, "line="+strconv.Itoa(line))
		if col > 0 {
			props = append(props, "col="+strconv.Itoa(col))
		}
	}
	if f.Rule != "" {
		props = append(props, "title="+EscapeProperty(termsafe.String(f.Rule)))
	}
	return "::" + cmd + " " + strings.Join(props, ",") + "::" + EscapeData(termsafe.Lines(f.text()))
}

// EscapeData escapes a workflow command's message as @actions/core does:
// % first, then carriage return and line feed.
func EscapeData(s string) string {
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// EscapeProperty escapes a workflow command's property value as
// @actions/core does: EscapeData, then ':' and ','.
func EscapeProperty(s string) string {
	s = EscapeData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}

// unescapeData and unescapeProperty undo the escapes in the order the
// Actions runner does (ActionCommand.UnescapeData, UnescapeProperty).
func unescapeData(s string) string {
	s = strings.ReplaceAll(s, "%0D", "\r")
	s = strings.ReplaceAll(s, "%0A", "\n")
	return strings.ReplaceAll(s, "%25", "%")
}

func unescapeProperty(s string) string {
	s = strings.ReplaceAll(s, "%0D", "\r")
	s = strings.ReplaceAll(s, "%0A", "\n")
	s = strings.ReplaceAll(s, "%3A", ":")
	s = strings.ReplaceAll(s, "%2C", ",")
	return strings.ReplaceAll(s, "%25", "%")
}

// commandSyntax is a well-formed annotation command as GitHub's docs state
// it (::error file={name},line={line},col={col},title={title}::{message}),
// with every property value and the message escaped.
var commandSyntax = lazyre.New(`^::(error|warning|notice)` +
	`(?: (?:file|line|endLine|col|endColumn|title)=(?:[^%,:\r\n]|%25|%0D|%0A|%3A|%2C)+` +
	`(?:,(?:file|line|endLine|col|endColumn|title)=(?:[^%,:\r\n]|%25|%0D|%0A|%3A|%2C)+)*)?` +
	`::(?:[^%\r\n]|%25|%0D|%0A)*$`)

// Command is a workflow command read back.
type Command struct {
	Name       string
	Properties map[string]string
	Message    string
}

// ParseGitHub reads one line of WriteGitHub's output as the Actions runner
// does (ActionCommand.TryParseV2): the command, its properties up to the
// first "::" after the command, and the message, each unescaped. It refuses
// a line that does not follow the documented syntax, so tests (and tools
// reading wopkit's output) can check both.
func ParseGitHub(line string) (Command, error) {
	if !commandSyntax.MatchString(line) {
		return Command{}, fmt.Errorf("not a well-formed annotation command: %q", line)
	}
	end := strings.Index(line[2:], "::") + 2
	info := line[2:end]
	c := Command{Properties: map[string]string{}, Message: unescapeData(line[end+2:])}
	name, props, _ := strings.Cut(info, " ")
	c.Name = name
	for _, p := range strings.Split(props, ",") {
		if k, v, ok := strings.Cut(p, "="); ok && v != "" {
			c.Properties[k] = unescapeProperty(v)
		}
	}
	return c, nil
}
