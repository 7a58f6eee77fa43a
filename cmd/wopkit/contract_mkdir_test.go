package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 10 item 16: pack -o DIR/x.tgz and keygen --out DIR/prefix create
// DIR when it is missing.
func TestOutputDirectoriesCreated(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	out := filepath.Join(t.TempDir(), "dist", "nested", "x.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "-o", out, "--no-validate"); code != 0 {
		t.Fatalf("pack -o into a missing directory: exit %d, %s", code, errOut)
	}
	for _, p := range []string{out, filepath.Join(filepath.Dir(out), "x.json")} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	prefix := filepath.Join(t.TempDir(), "keys", "ci", "acme")
	if _, errOut, code := runCmd(t, "keygen", "--out", prefix); code != 0 {
		t.Fatalf("keygen --out into a missing directory: exit %d, %s", code, errOut)
	}
	fi, err := os.Stat(prefix + ".key")
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key: %v %v", fi, err)
	}
	if di, err := os.Stat(filepath.Dir(prefix)); err != nil || di.Mode().Perm()&0o077 != 0 {
		t.Errorf("the key's new directory is %v (%v), want no group or other access", di.Mode(), err)
	}
}
