package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

func TestReplaceKeepsModeAndOldContentOnFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pack.json")
	os.WriteFile(p, []byte("old"), 0o640)
	if err := Replace(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	// A write that cannot start leaves the old file as it was.
	if err := WriteFile(filepath.Join(dir, "missing", "x"), []byte("y"), 0o644); werr.CodeOf(err) != "write_failed" || werr.ExitCode(err) != 3 {
		t.Errorf("missing dir: %v", err)
	}
	f, _ := Create(p, 0o644)
	f.Write([]byte("half"))
	f.Abort()
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("aborted write changed the file: %q", b)
	}
	assertOnly(t, dir, "pack.json")
}

func TestBatchAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	var b Batch
	for _, n := range []string{"a.tgz", "a.sig", "a.json"} {
		if err := b.Add(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	assertOnly(t, dir, ".a.tgz.tmp-*", ".a.sig.tmp-*", ".a.json.tmp-*")
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, dir, "a.tgz", "a.sig", "a.json")

	var c Batch
	c.Add(filepath.Join(dir, "b.tgz"), []byte("b"), 0o644)
	c.Add(filepath.Join(dir, "b.sig"), []byte("b"), 0o644)
	c.Abort()
	assertOnly(t, dir, "a.tgz", "a.sig", "a.json")
}

// assertOnly checks that dir holds exactly files matching the patterns.
func assertOnly(t *testing.T, dir string, patterns ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(patterns) {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("dir holds %v, want %v", names, patterns)
	}
	for _, p := range patterns {
		if m, _ := filepath.Glob(filepath.Join(dir, p)); len(m) != 1 {
			t.Errorf("no single file matches %s", p)
		}
	}
}

// TestRenameOverDirectoryFails: a directory in the way of the rename makes
// the write fail, leaving the directory, its neighbours and no temporary file.
func TestRenameOverDirectoryFails(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pack.json"), []byte("x"), 0o644)
	blocker := filepath.Join(dir, "sub")
	os.Mkdir(blocker, 0o755)
	os.WriteFile(filepath.Join(blocker, "keep"), []byte("x"), 0o644)
	if err := Replace(blocker, []byte("data"), 0o644); err == nil {
		t.Error("writing over a non-empty directory succeeded")
	}
	assertOnly(t, dir, "pack.json", "sub")
}
