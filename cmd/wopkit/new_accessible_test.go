package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewAccessibleFromPipe: `new --accessible` reads its answers from
// stdin when stdin is not a terminal (issue 11, bug 6): the pack gets the
// name piped in, not the default, and a short input is an error, not the
// defaults.
func TestNewAccessibleFromPipe(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	lines := []string{
		"2",                 // a pack of nodes
		"", "acme", "piped", // scope, organisation, pack name
		"", "", "", "", // version, description, author, license
		"", "", "", // homepage, repository, keywords
		"",                             // runtime
		"", "", "", "", "", "", "", "", // the node
		"",  // nodes: continue
		"6", // only write the files
	}
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
