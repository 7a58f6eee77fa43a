package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// TestNewStartsNothingInAStrangersCheckout (issue 24, item 2): `new --yes`
// and the accessible wizard with every default, run inside an unpacked
// download that ships a .git/config naming a core.fsmonitor program and
// hooks, never start them (the wizard asked `git check-ignore` where a new
// key goes, and git ran the download's fsmonitor).
func TestNewStartsNothingInAStrangersCheckout(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	marker := fixtures.StrangerCheckout(t, dir)
	t.Chdir(dir)
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "name=community.acme.yes"); code != 0 {
		t.Fatalf("new --yes: exit %d\n%s%s", code, out, errOut)
	}
	lines := append(pipedNodePack(), "", "", "", "", "", "", "", "", "", "") // the release: every default
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	root.SetArgs([]string{"new", "--accessible"})
	err := root.Execute()
	if b, rerr := os.ReadFile(marker); rerr == nil {
		t.Fatalf("a program of the stranger's checkout ran: %s\n(new --accessible: %v)\n%s", b, err, out.String())
	}
	if err != nil {
		t.Logf("new --accessible: %v\n%s", err, out.String())
	}
}
