package report

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/termsafe"
)

// docSyntax is the annotation command syntax of GitHub's "Workflow commands
// for GitHub Actions" page, written independently of commandSyntax:
// ::error file={name},line={line},endLine={endLine},title={title}::{message}
// (and col, endColumn), where a property value may not hold a raw ',', ':',
// CR or LF, the message no raw CR or LF, and '%' appears only in the escapes
// %25, %0D, %0A (and, in properties, %3A, %2C).
var docSyntax = regexp.MustCompile(`^::(error|warning|notice)` +
	`( (file|line|endLine|col|endColumn|title)=([^,:\r\n%]|%(25|0D|0A|3A|2C))+` +
	`(,(file|line|endLine|col|endColumn|title)=([^,:\r\n%]|%(25|0D|0A|3A|2C))+)*)?` +
	`::([^\r\n%]|%(25|0D|0A))*$`)

// hostile are messages and names built to break a workflow command.
var hostile = []string{
	"plain",
	"two\nlines",
	"carriage\rreturn\r\n",
	"::error::forged",
	"a::b::c",
	"comma, colon: both",
	"100% sure, %0A is not a newline, nor %25 nor %0D nor %3A %2C",
	"%",
	"%%0A%250A",
	"\n::warning file=x::injected",
	"trailing\n",
	"",
}

func TestFormatGitHubEscapeRoundTrip(t *testing.T) {
	for _, s := range hostile {
		d := EscapeData(s)
		if strings.ContainsAny(d, "\r\n") {
			t.Errorf("EscapeData(%q) = %q keeps a line break", s, d)
		}
		if got := unescapeData(d); got != s {
			t.Errorf("data %q: escaped %q, read back %q", s, d, got)
		}
		p := EscapeProperty(s)
		if strings.ContainsAny(p, "\r\n,:") {
			t.Errorf("EscapeProperty(%q) = %q keeps a separator", s, p)
		}
		if got := unescapeProperty(p); got != s {
			t.Errorf("property %q: escaped %q, read back %q", s, p, got)
		}
	}
}

func FuzzGitHubEscape(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := unescapeData(EscapeData(s)); got != s {
			t.Fatalf("data %q read back %q", s, got)
		}
		if got := unescapeProperty(EscapeProperty(s)); got != s {
			t.Fatalf("property %q read back %q", s, got)
		}
		line := githubLine(Finding{Rule: s + "R", Level: LevelError, File: s + "f", Line: 3, Column: 4, Message: s}, "")
		if !docSyntax.MatchString(line) {
			t.Fatalf("%q is not a well-formed command", line)
		}
	})
}

func TestFormatGitHubLines(t *testing.T) {
	dir := t.TempDir()
	var fs []Finding
	for i, s := range hostile {
		fs = append(fs, Finding{Rule: "OW00" + s, Level: []Level{LevelError, LevelWarning, LevelNote}[i%3],
			File: "dir, with: odd%name/pack.json", Line: i + 1, Column: 2, Pointer: "/a" + s, Message: s, Hint: "do " + s})
	}
	fs = append(fs,
		Finding{Rule: "schema/required", Level: LevelError, File: filepath.Join(dir, "sub", "pack.json"), Line: 4, Column: 9, Message: "inside"},
		Finding{Rule: "OW005", Level: LevelError, File: "x.tgz!/schemas/a.json", Line: 7, Column: 3, Message: "in a tarball"},
		Finding{Rule: RuleNote, Level: LevelNote, File: "/elsewhere/x.json", Message: "a note"},
	)
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, fs, dir); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(fs) {
		t.Fatalf("%d lines for %d findings:\n%s", len(lines), len(fs), buf.String())
	}
	for i, line := range lines {
		f := fs[i]
		if !docSyntax.MatchString(line) {
			t.Errorf("line %d does not follow the documented syntax: %q", i, line)
			continue
		}
		c, err := ParseGitHub(line)
		if err != nil {
			t.Error(err)
			continue
		}
		wantCmd := map[Level]string{LevelError: "error", LevelWarning: "warning", LevelNote: "notice"}[f.Level]
		if c.Name != wantCmd {
			t.Errorf("line %d: command %q, want %q", i, c.Name, wantCmd)
		}
		if c.Properties["title"] != termsafe.String(f.Rule) {
			t.Errorf("line %d: title %q, want %q", i, c.Properties["title"], f.Rule)
		}
		if want := termsafe.Lines(f.text()); c.Message != want {
			t.Errorf("line %d: message read back as %q, want %q", i, c.Message, want)
		}
		if strings.Count(c.Message, "\n") != strings.Count(f.text(), "\n") {
			t.Errorf("line %d: message lines changed: %q", i, c.Message)
		}
	}
	last := len(hostile)
	for i, want := range []map[string]string{
		{"file": "sub/pack.json", "line": "4", "col": "9"},
		{"file": "x.tgz"},
		{"file": "/elsewhere/x.json"},
	} {
		c, _ := ParseGitHub(lines[last+i])
		for _, k := range []string{"file", "line", "col"} {
			if c.Properties[k] != want[k] {
				t.Errorf("%s: %s = %q, want %q", lines[last+i], k, c.Properties[k], want[k])
			}
		}
	}
	if c, _ := ParseGitHub(lines[0]); c.Properties["file"] != "dir, with: odd%name/pack.json" {
		t.Errorf("file read back as %q", c.Properties["file"])
	}
	if c, _ := ParseGitHub(lines[last+1]); !strings.HasPrefix(c.Message, "schemas/a.json:7:3: in a tarball") {
		t.Errorf("a tarball member's finding reads %q", c.Message)
	}
}

// TestFormatGitHubInert checks that text from a pack cannot reach the log
// raw: escape sequences and bidirectional overrides are made visible.
func TestFormatGitHubInert(t *testing.T) {
	line := githubLine(Finding{Rule: "OW001", Level: LevelError, File: "p\x1b[2J.json", Line: 1, Column: 1,
		Message: "bad \x1b]0;title\x07 \u202e name"}, "")
	if strings.ContainsAny(line, "\x1b\x07\u202e") {
		t.Errorf("control characters reach the log: %q", line)
	}
	if !docSyntax.MatchString(line) {
		t.Errorf("not well-formed: %q", line)
	}
}

func TestFormatGitHubParseRefuses(t *testing.T) {
	for _, bad := range []string{
		"::error file=a:b::m",   // raw ':' in a property
		"::error file=a,b::m",   // a bare word after ','
		"::error::50% off",      // raw '%' in the message
		"::debug::not an issue", // not an annotation
		"error::m",
	} {
		if _, err := ParseGitHub(bad); err == nil {
			t.Errorf("ParseGitHub(%q) accepted it", bad)
		}
	}
}
