package tui

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteAtomic replaces a file keeping its mode, leaves no temporary
// file behind, and fails without touching anything when it cannot write.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pack.json")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "new" || fi.Mode().Perm() != 0o640 {
		t.Errorf("content %q mode %v", b, fi.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	// a directory in the way of the rename: the write fails, the directory
	// and its neighbours are untouched, no temporary file remains
	blocker := filepath.Join(dir, "sub")
	os.Mkdir(blocker, 0o755)
	os.WriteFile(filepath.Join(blocker, "keep"), []byte("x"), 0o644)
	if err := writeAtomic(blocker, []byte("data")); err == nil {
		t.Error("writing over a non-empty directory succeeded")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("after the failure: %v", ents)
	}
}
