package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/words"
)

// TestNewYesGoesThroughCreate: `new --yes` over a pack folder written
// before is refused by the create workflow's preflight (exit 1), its
// problem printed once with the files already there in words and what to
// do on the command line; --dry-run says the same; --force replaces them.
func TestNewYesGoesThroughCreate(t *testing.T) {
	t.Chdir(t.TempDir())
	args := []string{"new", "pack", "--yes", "--set", "name=community.acme.hello"}
	out, errOut, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errOut)
	}
	var files []string // as the first run listed them, in its order
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if f, ok := strings.CutPrefix(l, "created "+filepath.Join("hello", "")+string(filepath.Separator)); ok {
			files = append(files, filepath.ToSlash(f))
		}
	}
	if len(files) < 2 {
		t.Fatalf("first run wrote: %s", out)
	}
	before, _ := os.ReadFile(filepath.Join("hello", "pack.json"))
	os.WriteFile(filepath.Join("hello", "pack.json"), append(before, ' '), 0o644)

	want := "hello already holds " + words.And(files)
	hint := "move the existing files away, or start again with another --dir, or pass --force to replace them"
	for _, extra := range [][]string{nil, {"--dry-run"}} {
		out, errOut, code = runCmd(t, append(args, extra...)...)
		if code != 1 || out != "" || strings.Count(errOut, want) != 1 || !strings.Contains(errOut, hint) || strings.Contains(errOut, "[") {
			t.Errorf("%v over the pack written before: exit %d, out %q, err %q; want the problem %q once", extra, code, out, errOut, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join("hello", "pack.json")); string(b) != string(before)+" " {
		t.Error("a refused run changed pack.json")
	}
	if out, errOut, code = runCmd(t, append(args, "--force")...); code != 0 || !strings.Contains(out, "created "+filepath.Join("hello", "pack.json")) {
		t.Errorf("--force: exit %d %s %s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join("hello", "pack.json")); string(b) != string(before) {
		t.Error("--force did not replace pack.json")
	}
}
