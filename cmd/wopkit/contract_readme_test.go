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

// The claims of the README and of the manual in docs/ (GUIDE.md for
// authors, CLI.md the contract, CONTRIBUTING.md) that have a command are
// checked against the program (issue 25, item 14; issue 40, item 6): what
// they say to run exists, and what they say the program does, the program
// does.

// manual are the documents checked, relative to the module root.
var manual = []string{"README.md", "docs/GUIDE.md", "docs/CLI.md", "docs/CONTRIBUTING.md"}

// docText is one document of manual.
func docText(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// manualText is every document of manual, one after the other.
func manualText(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, rel := range manual {
		b.WriteString(docText(t, rel))
		b.WriteString("\n")
	}
	return b.String()
}

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

// TestReadmeCommandsExist: every `wopkit <verb> [flags]` the code blocks of
// the README and the manual show names a verb of the command tree and flags
// that verb has.
func TestReadmeCommandsExist(t *testing.T) {
	n := 0
	for _, rel := range manual {
		cmds := readmeCommands(docText(t, rel))
		n += len(cmds)
		checkCommands(t, rel, cmds)
	}
	if n < 40 {
		t.Fatalf("only %d wopkit commands found in the code blocks of %s", n, strings.Join(manual, ", "))
	}
}

// checkCommands checks the command lines cmds of the document rel.
func checkCommands(t *testing.T, rel string, cmds []string) {
	t.Helper()
	for _, line := range cmds {
		words := shellWords(line)[1:]
		root := newRootCmd()
		cmd, rest, err := root.Find(words)
		if err != nil || cmd == root {
			t.Errorf("%s: %q names no wopkit verb (%v)", rel, line, err)
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
				t.Errorf("%s: %q: %s has no flag %s", rel, line, cmd.CommandPath(), w)
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

// TestReadmeConnectionPackInWizard: the manual says the wizard's first
// page offers a connection pack (quoting its label), and it does, as
// `new --accessible` lists it; no sentence says it is not in the wizard.
func TestReadmeConnectionPackInWizard(t *testing.T) {
	text := manualText(t)
	if m := regexp.MustCompile(`(?i)connection[^.]*not in the wizard`).FindString(text); m != "" {
		t.Errorf("the manual says the connection pack is not in the wizard: %q", m)
	}
	m := regexp.MustCompile(`"(A connection pack)" on the wizard's first page`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal(`the manual no longer says where the wizard offers a connection pack ("A connection pack" on the wizard's first page)`)
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

// TestReadmeChainTypeIDsPinned: the manual says a v2 chain's step typeIds
// are written pinned (typeId@major.minor.patch) to the version asked; the
// program writes them so.
func TestReadmeChainTypeIDsPinned(t *testing.T) {
	text := manualText(t)
	if !regexp.MustCompile("A v2 chain's step typeIds are written \\*\\*pinned\\*\\*, `<typeId>@<major>.<minor>.<patch>`").MatchString(text) ||
		!strings.Contains(text, "a typeId typed with its own `@pin` keeps it") {
		t.Fatal("the manual no longer says how a v2 chain's step typeIds are written (pinned, a typed pin kept)")
	}
	if m := regexp.MustCompile(`(?i)v2[^.]*typeIds?[^.]*(written unpinned|pin is refused)`).FindString(text); m != "" {
		t.Errorf("the manual says a v2 chain's typeIds are unpinned: %q", m)
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

// TestReadmeIgnoreSyntax: the manual, the generated .openwopignore's
// comment and internal/pack's reader name the same syntax, and the reader
// follows it where gitignore differs from a plain glob list (! re-includes,
// a leading or inner / anchors, a trailing / is a folder).
func TestReadmeIgnoreSyntax(t *testing.T) {
	syntax := regexp.MustCompile(`\(([a-z-]+) syntax\)`)
	m := syntax.FindStringSubmatch(regexp.MustCompile("`\\.openwopignore` \\([a-z-]+ syntax\\)").FindString(manualText(t)))
	if m == nil {
		t.Fatal("the manual no longer names the syntax of .openwopignore (\"`.openwopignore` (… syntax)\")")
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
		t.Errorf("the manual says .openwopignore is %s syntax; the generated file says:\n%s", said, b)
	}
	if said != "gitignore" {
		t.Fatalf("the manual says %s syntax; internal/pack reads gitignore syntax", said)
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

// TestReadmeIsShort: the README is what a newcomer reads first (issue 40,
// item 6): at most 200 lines, its Go version the one go.mod asks for, and
// a link to each part of the manual.
func TestReadmeIsShort(t *testing.T) {
	text := readme(t)
	if n := strings.Count(text, "\n"); n > 200 {
		t.Errorf("README.md has %d lines; at most 200 (the rest belongs in docs/)", n)
	}
	mod := docText(t, "go.mod")
	want := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(mod)
	if want == nil {
		t.Fatal("go.mod has no go line")
	}
	if got := regexp.MustCompile(`Go (\d+\.\d+) or later`).FindStringSubmatch(text); got == nil || got[1] != want[1] {
		t.Errorf("the README says %v; go.mod asks for Go %s", got, want[1])
	}
	for _, rel := range manual[1:] {
		if !strings.Contains(text, "]("+rel+")") {
			t.Errorf("the README does not link %s", rel)
		}
	}
}

// TestReadmeLinksResolve: every relative link of the README and of docs/
// names a file of the repository (a section after # is not checked here).
func TestReadmeLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) < 4 {
		t.Fatalf("docs/*.md: %v %v", docs, err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, doc := range append(docs, filepath.Join(root, "README.md")) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(doc), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s links %s, which is not in the repository", doc, m[1])
			}
		}
	}
}

// citedDoc is a document named in prose or code: an upper-case Markdown
// file name (CLI.md, GUIDE.md) or the name of a notes file without its
// extension. A name is held when a file of the repository has it.
var citedDoc = regexp.MustCompile(`(?:[\w./-]*/)?\b[A-Z][A-Z0-9_-]*\.md\b|\bSPEC-NOTES\b|\bRUN-CONTRACT\b`)

// TestReadmeCitesNoFileOutsideTheRepository: the program (its Go sources,
// --help texts included), the README and docs/ cite no document the
// repository does not hold: every upper-case *.md they name is a file of
// the module root, docs/ or templates/ (issue 40, item 6: --help cited
// CLI.md and the code SPEC-NOTES, neither of them in the repository).
func TestReadmeCitesNoFileOutsideTheRepository(t *testing.T) {
	root := filepath.Join("..", "..")
	held := map[string]bool{} // the base names of the repository's files
	if err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			held[d.Name()] = true
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	exists := func(name string) bool {
		if strings.Contains(name, "/") {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(name, "./")))); err == nil {
				return true
			}
			name = name[strings.LastIndex(name, "/")+1:]
		}
		return held[name]
	}
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "third_party" || d.Name() == "node_modules" || rel == "templates") {
				return filepath.SkipDir
			}
			return nil
		}
		isDoc := strings.HasSuffix(rel, ".md") && (rel == "README.md" || strings.HasPrefix(rel, "docs/"))
		isCode := strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go")
		if !isDoc && !isCode {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, at := range citedDoc.FindAllIndex(b, -1) {
			m := string(b[at[0]:at[1]])
			if strings.HasPrefix(string(b[at[1]:]), ".tmpl") {
				continue // a template's name (KIND-README.md.tmpl), not a document
			}
			if _, ok := awaitedDocs[m]; ok {
				continue
			}
			if m == "SPEC-NOTES" || m == "RUN-CONTRACT" || !exists(m) {
				t.Errorf("%s cites %s, which is not in the repository", rel, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked", checked)
	}
	for name, why := range awaitedDocs {
		if exists(name) {
			t.Errorf("%s is in the repository now: remove it from awaitedDocs (%s)", name, why)
		}
	}
}

// awaitedDocs are documents the code already cites that work under way
// writes; each fails the test above once it exists, to be removed from
// here.
var awaitedDocs = map[string]string{}

// TestCLIContractNamesEveryVerb: docs/CLI.md, the contract --help cites,
// names every verb of the command tree (`wopkit keychain add`, …), so that
// a new verb cannot land without its row.
func TestCLIContractNamesEveryVerb(t *testing.T) {
	contract := docText(t, "docs/CLI.md")
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" && c.HasParent() {
				continue
			}
			path := sub.CommandPath()
			n++
			if !strings.Contains(contract, "`"+path) {
				t.Errorf("docs/CLI.md does not name %s", path)
			}
			if sub.Name() != "completion" {
				walk(sub)
			}
		}
	}
	walk(newRootCmd())
	if n < 20 {
		t.Fatalf("only %d verbs in the command tree", n)
	}
}
