package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/pack"
)

// The README's claims that have a command are checked against the program
// (issue 25, item 14): what it says to run exists, and what it says the
// program does, the program does.

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readmeCommands are the `wopkit …` command lines of the README's code
// blocks, continuation lines joined and comments cut.
func readmeCommands(text string) []string {
	var out []string
	in := false
	var cont string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in, cont = !in, ""
			continue
		}
		if !in {
			continue
		}
		line = cont + strings.TrimSpace(line)
		if strings.HasSuffix(line, `\`) {
			cont = strings.TrimSuffix(line, `\`) + " "
			continue
		}
		cont = ""
		line = cutComment(line)
		// a command may follow `$ `, `&&`, `;` or `|` on its line
		for _, part := range regexp.MustCompile(`&&|;|\|`).Split(line, -1) {
			part = strings.TrimPrefix(strings.TrimSpace(part), "$ ")
			if strings.HasPrefix(part, "wopkit ") {
				out = append(out, part)
			}
		}
	}
	return out
}

// cutComment cuts a shell comment (# after a blank, outside quotes).
func cutComment(line string) string {
	quote := rune(0)
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimSpace(line[:i])
		}
	}
	return line
}

// shellWords splits a command line into words as a shell would (quotes
// removed; no expansions).
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	quote, has := rune(0), false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, has = r, true
		case r == ' ' || r == '\t':
			if w.Len() > 0 || has {
				words = append(words, w.String())
			}
			w.Reset()
			has = false
		default:
			w.WriteRune(r)
		}
	}
	if w.Len() > 0 || has {
		words = append(words, w.String())
	}
	return words
}

// flagOf finds a flag of cmd (its own, persistent or inherited), long or
// short; help is every command's. value says whether it takes a value.
func flagOf(cmd *cobra.Command, word string) (found, value bool) {
	cmd.InitDefaultHelpFlag()
	name, _, _ := strings.Cut(strings.TrimLeft(word, "-"), "=")
	all := cmd.Flags() // a fresh command tree's: adding to it is harmless
	all.AddFlagSet(cmd.PersistentFlags())
	all.AddFlagSet(cmd.InheritedFlags())
	f := all.Lookup(name)
	if !strings.HasPrefix(word, "--") {
		f = all.ShorthandLookup(name[:1])
	}
	if f == nil {
		return false, false
	}
	return true, f.Value.Type() != "bool"
}

// TestReadmeCommandsExist: every `wopkit <verb> [flags]` the README's code
// blocks show names a verb of the command tree and flags that verb has.
func TestReadmeCommandsExist(t *testing.T) {
	cmds := readmeCommands(readme(t))
	if len(cmds) < 20 {
		t.Fatalf("only %d wopkit commands found in the README's code blocks", len(cmds))
	}
	for _, line := range cmds {
		words := shellWords(line)[1:]
		root := newRootCmd()
		cmd, rest, err := root.Find(words)
		if err != nil || cmd == root {
			t.Errorf("README: %q names no wopkit verb (%v)", line, err)
			continue
		}
		for i, w := range rest {
			if w == "--" {
				break
			}
			if !strings.HasPrefix(w, "-") || w == "-" || regexp.MustCompile(`^-\d`).MatchString(w) {
				continue
			}
			if i > 0 && strings.HasPrefix(rest[i-1], "-") && !strings.Contains(rest[i-1], "=") {
				if found, value := flagOf(cmd, rest[i-1]); found && value {
					continue // the value of the flag before it
				}
			}
			if found, _ := flagOf(cmd, w); !found {
				t.Errorf("README: %q: %s has no flag %s", line, cmd.CommandPath(), w)
			}
		}
	}
}

// TestReadmeFirstLines: the README starts with the command that does the
// main job and the command that runs the tests.
func TestReadmeFirstLines(t *testing.T) {
	head := strings.Join(strings.SplitN(readme(t), "\n", 8)[:7], "\n")
	for _, want := range []string{"`go run ./cmd/wopkit new`", "`go test ./...`"} {
		if !strings.Contains(head, want) {
			t.Errorf("the README's first lines do not give %s:\n%s", want, head)
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "cmd", "wopkit", "main.go")); err != nil {
		t.Errorf("./cmd/wopkit is not the command: %v", err)
	}
}

// TestReadmeConnectionPackInWizard: the README says the wizard's first
// page offers a connection pack (quoting its label), and it does, as
// `new --accessible` lists it; no sentence says it is not in the wizard.
func TestReadmeConnectionPackInWizard(t *testing.T) {
	text := readme(t)
	if m := regexp.MustCompile(`(?i)connection[^.]*not in the wizard`).FindString(text); m != "" {
		t.Errorf("the README says the connection pack is not in the wizard: %q", m)
	}
	m := regexp.MustCompile(`"(A connection pack)" on the wizard's first page`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal(`the README no longer says where the wizard offers a connection pack ("A connection pack" on the wizard's first page)`)
	}
	t.Chdir(t.TempDir())
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader("")) // the first page is listed, then the input ends
	root.SetArgs([]string{"new", "--accessible"})
	_ = root.Execute()
	if !regexp.MustCompile(`(?m)^\d+\. connection: ` + regexp.QuoteMeta(m[1])).MatchString(out.String()) {
		t.Errorf("the wizard's first page does not offer %q:\n%s", m[1], out.String())
	}
}

// TestReadmeChainTypeIDsPinned: the README says a v2 chain's step typeIds
// are written pinned (typeId@major.minor.patch) to the version asked; the
// program writes them so.
func TestReadmeChainTypeIDsPinned(t *testing.T) {
	text := readme(t)
	if !regexp.MustCompile("A v2 chain's step typeIds are written \\*\\*pinned\\*\\*, `<typeId>@<major>.<minor>.<patch>`").MatchString(text) ||
		!strings.Contains(text, "a typeId typed with its own `@pin` keeps it") {
		t.Fatal("the README no longer says how a v2 chain's step typeIds are written (pinned, a typed pin kept)")
	}
	if m := regexp.MustCompile(`(?i)v2[^.]*typeIds?[^.]*(written unpinned|pin is refused)`).FindString(text); m != "" {
		t.Errorf("the README says a v2 chain's typeIds are unpinned: %q", m)
	}
	dir := filepath.Join(t.TempDir(), "chains")
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "kind=workflow-chain",
		"--set", "name=vendor.acme.chains", "--set", "chains.0.steps.1.typeId=vendor.acme.tools.digest", "--set", "chains.0.steps.1.version=2.1.0"); code != 0 {
		t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Chains []struct {
			DAG struct {
				Steps []struct {
					TypeID string `json:"typeId"`
				} `json:"nodes"`
			} `json:"dag"`
		} `json:"chains"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Chains) == 0 || len(doc.Chains[0].DAG.Steps) < 2 {
		t.Fatalf("pack.json: %v\n%s", err, b)
	}
	pinned := regexp.MustCompile(`^[^@]+@\d+\.\d+\.\d+$`)
	for _, s := range doc.Chains[0].DAG.Steps {
		if !pinned.MatchString(s.TypeID) {
			t.Errorf("a v2 chain's step typeId is written unpinned: %q", s.TypeID)
		}
	}
	if got := doc.Chains[0].DAG.Steps[1].TypeID; got != "vendor.acme.tools.digest@2.1.0" {
		t.Errorf("the step's version is not its pin: %q", got)
	}
}

// TestReadmeIgnoreSyntax: the README, the generated .openwopignore's
// comment and internal/pack's reader name the same syntax, and the reader
// follows it where gitignore differs from a plain glob list (! re-includes,
// a leading or inner / anchors, a trailing / is a folder).
func TestReadmeIgnoreSyntax(t *testing.T) {
	syntax := regexp.MustCompile(`\(([a-z-]+) syntax\)`)
	m := syntax.FindStringSubmatch(regexp.MustCompile("`\\.openwopignore` \\([a-z-]+ syntax\\)").FindString(readme(t)))
	if m == nil {
		t.Fatal("the README no longer names the syntax of .openwopignore (\"`.openwopignore` (… syntax)\")")
	}
	said := m[1]
	dir := filepath.Join(t.TempDir(), "p")
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.ig"); code != 0 {
		t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, pack.IgnoreFile))
	if err != nil {
		t.Fatal(err)
	}
	if g := syntax.FindStringSubmatch(string(b)); g == nil || g[1] != said {
		t.Errorf("the README says .openwopignore is %s syntax; the generated file says:\n%s", said, b)
	}
	if said != "gitignore" {
		t.Fatalf("the README says %s syntax; internal/pack reads gitignore syntax", said)
	}
	ig := pack.ParseIgnore([]byte("*.log\n!keep.log\n/build\ndocs/tmp\ncache/\n"))
	for path, want := range map[string]bool{
		"x.log": true, "a/b/x.log": true, "keep.log": false, "a/keep.log": false,
		"build/out.js": true, "src/build/out.js": false, "docs/tmp/x": true, "src/docs/tmp/x": false,
		"cache/x": true, "a/cache/x": true,
	} {
		if got := ig.Ignored(path); got != want {
			t.Errorf("gitignore syntax: %s ignored = %v, want %v", path, got, want)
		}
	}
}
