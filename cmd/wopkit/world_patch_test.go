package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDryRunDiffsApplyWithPatch: the diff `bump --dry-run` and `validate
// --fix --dry-run` print, applied with GNU patch -p0 from the folder they
// ran in, gives the bytes the real run writes, a created file included.
func TestDryRunDiffsApplyWithPatch(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("patch is not installed: the dry-run diffs are not applied")
	}
	t.Chdir(t.TempDir())
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "name=vendor.acme.hello", "--dir", "hello"); code != 0 {
		t.Fatalf("new: %d %s%s", code, out, errOut)
	}
	setIn(t, filepath.Join("hello", "pack.json"), "/nodes/0/inputSchemaRef", "schemas/missing.input.json")
	for _, verb := range [][]string{{"bump", "minor"}, {"validate", "--fix"}} {
		dry, real := verb[0]+"-dry", verb[0]+"-real"
		for _, d := range []string{dry, real} {
			if err := os.CopyFS(d, os.DirFS("hello")); err != nil {
				t.Fatal(err)
			}
		}
		args := func(dir string) []string {
			a := append(append([]string{}, verb...), dir)
			if verb[0] == "bump" {
				a = append(a, "--no-validate") // the missing schema is an error
			}
			return a
		}
		diff, errOut, _ := runCmd(t, append(args(dry), "--dry-run")...)
		if diff == "" {
			t.Fatalf("%v --dry-run printed no diff: %s", verb, errOut)
		}
		cmd := exec.Command("patch", "-s", "-p0")
		cmd.Stdin = strings.NewReader(diff)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: patch: %v\n%s\n%s", verb, err, b, diff)
		}
		runCmd(t, args(real)...)
		want, got := snapshotDir(t, real), snapshotDir(t, dry)
		if len(got) != len(want) {
			t.Errorf("%v: %d files after patch, %d after the real run", verb, len(got), len(want))
		}
		for rel, data := range want {
			if got[rel] != data {
				t.Errorf("%v: %s differs between the patched dry run and the real run", verb, rel)
			}
		}
	}
}

// snapshotDir is every regular file below dir, by slash path.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
