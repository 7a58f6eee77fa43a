package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/validate"
)

// pipedNodePack answers the accessible wizard up to its last question: a
// pack of nodes community.acme.piped, every other answer the default.
func pipedNodePack() []string {
	return []string{
		"2",                 // a pack of nodes
		"", "acme", "piped", // scope, organisation, pack name
		"", "", "", "", // version, description, author, license
		"", "", "", // homepage, repository, keywords
		"",                             // runtime
		"", "", "", "", "", "", "", "", // the node
		"", // nodes: continue
	}
}

// TestNewAccessibleFromPipe: `new --accessible` reads its answers from
// stdin when stdin is not a terminal (issue 11, bug 6): the pack gets the
// name piped in, not the default, and a short input is an error, not the
// defaults.
func TestNewAccessibleFromPipe(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	lines := append(pipedNodePack(), "6") // only write the files
	run := func(in string) (string, int) {
		root := newRootCmd()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetIn(strings.NewReader(in))
		root.SetArgs([]string{"new", "--accessible"})
		err := root.Execute()
		if err != nil {
			out.WriteString(err.Error())
		}
		return out.String(), exitCode(err)
	}
	out, code := run(strings.Join(lines, "\n") + "\n")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "piped", "pack.json"))
	if err != nil || !strings.Contains(string(b), `"name": "community.acme.piped"`) {
		t.Fatalf("pack.json: %v\n%s\n%s", err, b, out)
	}
	out, code = run("2\n\nacme\n")
	if code == 0 || !strings.Contains(out, "the answers ended") {
		t.Errorf("short input: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "my-pack")); err == nil {
		t.Error("the defaults were written")
	}
}

// TestNewAccessibleDeclarativeKind: `new pack --set kind=card` opens the
// wizard on a card pack, prefilled from --set (the name is kept by empty
// lines), its questions answered from a pipe; the pack.json validates
// strictly.
func TestNewAccessibleDeclarativeKind(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	lines := []string{
		"", "", "", "", "", "", "", "", "", "", // identity: the name given, the rest the suggestions
		"", "", "", "", "", // the card
		"", "", "", "", "", "", // its first input
		"", "", "How long", "", "", "", // its second input, relabelled
		"",  // inputs: continue
		"",  // cards: continue
		"6", // only write the files
	}
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	root.SetArgs([]string{"new", "pack", "--accessible", "--set", "kind=card", "--set", "name=community.acme.piped-cards"})
	if err := root.Execute(); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	path := filepath.Join(dir, "piped-cards", "pack.json")
	b, err := os.ReadFile(path)
	for _, want := range []string{`"kind": "card"`, `"name": "community.acme.piped-cards"`, `"label": "How long"`, `"cardTypeId": "community.acme.piped-cards.summarize"`} {
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("pack.json lacks %s: %v\n%s\n%s", want, err, b, out.String())
		}
	}
	v, _ := validate.New(validate.Options{Strict: true})
	rep, err := v.Path(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range rep.Problems() {
		t.Error(pr.String())
	}
}

// TestNewAccessibleDryRun (issue 24, item 3): `new --accessible --dry-run`
// with every default (pack and sign with a new key) writes nothing: no
// files, no key pair, no tarball, no draft; it says what it would write.
func TestNewAccessibleDryRun(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, extra := range [][]string{{"", "", "", "", "", "", "", "", "", ""}, {"2"}} { // every default; then a short input (a draft would be kept)
		root := newRootCmd()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetIn(strings.NewReader(strings.Join(append(pipedNodePack(), extra...), "\n") + "\n"))
		root.SetArgs([]string{"new", "--accessible", "--dry-run"})
		err := root.Execute()
		if extra[0] == "" && (err != nil || !strings.Contains(out.String(), "nothing was written") || !strings.Contains(out.String(), "10 files will be written in ")) {
			t.Errorf("every default: %v\n%s", err, out.String())
		}
		for _, d := range []string{dir, config} {
			filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
				if err == nil && p != d {
					t.Errorf("--dry-run wrote %s", p)
				}
				return nil
			})
		}
	}
}
