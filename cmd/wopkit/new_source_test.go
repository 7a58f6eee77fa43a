package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// Issue 25, item 12: the README's first command, `go run ./cmd/wopkit new`
// in a fresh clone, leaves the clone clean (the files, the release and the
// key go to ~/openwop-packs, as it says). The clone is a copy of this module's go.mod in a git work tree; `git status`
// is the independent check that nothing was left in it.
func TestNewInOwnSourceTreeLeavesItClean(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the clone's status cannot be checked")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on the PATH: `go run` cannot be tried")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	// the clone: the files of this working tree (changes not committed
	// too), committed in a fresh git repository; not the tests and their
	// data, which go run does not read (half the files: copying and adding
	// them cost a second of CPU)
	clone := filepath.Join(t.TempDir(), "wopkit")
	files, err := exec.Command("git", "-C", root, "ls-files", "-z", "-co", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("cannot list the files for the clone: %v", err)
	}
	var list []string
	for f := range strings.SplitSeq(strings.TrimSuffix(string(files), "\x00"), "\x00") {
		if !strings.HasSuffix(f, "_test.go") && !strings.Contains("/"+f, "/testdata/") {
			list = append(list, f)
		}
	}
	copyTree := "tar -C " + root + " --null -T - -cf - | tar -xf - -C " + clone
	for _, c := range [][]string{{"mkdir", "-p", clone}, {"bash", "-c", copyTree}, {"git", "-C", clone, "init", "-q"}, {"git", "-C", clone, "add", "-A"},
		{"git", "-C", clone, "-c", "user.email=t@example.org", "-c", "user.name=t", "commit", "-qm", "clone"}} {
		cmd := exec.Command(c[0], c[1:]...)
		if c[0] == "bash" {
			cmd.Stdin = strings.NewReader(strings.Join(list, "\x00") + "\x00")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("cannot make the clone for the test (%v): %s", err, out)
		}
	}
	// What `go run ./cmd/wopkit` runs: wopkit built into a go-build folder
	// (leaveSourceTree tells `go run` by it), run in the clone. It is built
	// by fixtures.BuildWopkit from the build cache the tests' own build
	// filled (a link, shared with the other tests that run the binary),
	// not by a go run in the clone: that compiled every dependency again
	// under the clone's flags, minutes on a busy machine.
	bin := filepath.Join(t.TempDir(), "go-build1", "b001", "exe", "wopkit")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := fixtures.BuildWopkit(root, bin); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	cmd := exec.Command(bin, "new", "--yes", "--set", "name=community.acme.first")
	cmd.Dir = clone
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("wopkit new in the clone: %v\n%s", err, out)
	}
	st, _ := exec.Command("git", "-C", clone, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
	if s := strings.TrimSpace(string(st)); s != "" {
		t.Errorf("the clone is not clean after the first command:\n%s", s)
	}
	base := filepath.Join(home, packsFolder)
	if _, err := os.Stat(filepath.Join(base, "first", "pack.json")); err != nil {
		t.Errorf("the pack is not in %s: %v\n%s", base, err, out)
	}
	if !strings.Contains(string(out), "the new files go to "+base) {
		t.Errorf("where the files went is not said:\n%s", out)
	}
	// issue 35, item 3: the next step runs as printed from the clone, where
	// the author stands (node --test there, or in ~/openwop-packs, runs no test)
	step := "cd " + filepath.ToSlash(filepath.Join(base, "first")) + " && node --test"
	if !strings.Contains(string(out), "next: run the scaffolded tests with: "+step) {
		t.Errorf("the test step does not name the pack's folder (%s):\n%s", step, out)
	}
	if _, err := exec.LookPath("node"); err == nil {
		sh := exec.Command("sh", "-c", step)
		sh.Dir = clone
		if ran, err := sh.CombinedOutput(); err != nil || !strings.Contains(string(ran), "# pass ") || strings.Contains(string(ran), "# pass 0") {
			t.Errorf("%s from the clone: %v\n%s", step, err, ran)
		}
	}
}
