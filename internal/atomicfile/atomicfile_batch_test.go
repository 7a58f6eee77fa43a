package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// TestKillBetweenRenames: a batch that adds files and replaces the file that
// references them is stopped after each possible rename (as a kill would);
// at every point the referencing file names only files that exist.
func TestKillBetweenRenames(t *testing.T) {
	for stopAfter := 0; stopAfter < 3; stopAfter++ {
		dir := t.TempDir()
		pj := filepath.Join(dir, "pack.json")
		old := []byte(`{"refs":[]}`)
		os.WriteFile(pj, old, 0o644)
		os.Mkdir(filepath.Join(dir, "schemas"), 0o755)
		var b Batch
		// Added in the order a careless plan has them: the referencing file first.
		if err := b.Replace(pj, []byte(`{"refs":["schemas/a.json","schemas/b.json"]}`), old, 0o644); err != nil {
			t.Fatal(err)
		}
		b.Add(filepath.Join(dir, "schemas", "a.json"), []byte("{}"), 0o644)
		b.Add(filepath.Join(dir, "schemas", "b.json"), []byte("{}"), 0o644)
		n := 0
		beforeRename = func(string) error {
			if n == stopAfter {
				return errors.New("killed")
			}
			n++
			return nil
		}
		err := b.Commit()
		beforeRename = nil
		if err == nil {
			t.Fatal("commit was not stopped")
		}
		got, _ := os.ReadFile(pj)
		if strings.Contains(string(got), "schemas/") {
			for _, f := range []string{"a.json", "b.json"} {
				if _, err := os.Stat(filepath.Join(dir, "schemas", f)); err != nil {
					t.Fatalf("stopped after %d renames: pack.json names schemas/%s, which is missing", stopAfter, f)
				}
			}
		}
	}
}

// TestReplaceRefusesChangedFile: a replacement planned from old content is
// refused with a stable code when the file changed meanwhile, and nothing
// of the batch is written.
func TestReplaceRefusesChangedFile(t *testing.T) {
	dir := t.TempDir()
	pj := filepath.Join(dir, "pack.json")
	os.WriteFile(pj, []byte("v1"), 0o644)
	var b Batch
	b.Add(filepath.Join(dir, "new.json"), []byte("{}"), 0o644)
	b.Replace(pj, []byte("v1+mine"), []byte("v1"), 0o644)
	os.WriteFile(pj, []byte("v1+theirs"), 0o644)
	err := b.Commit()
	if werr.CodeOf(err) != CodeChanged {
		t.Fatalf("err %v, want code %s", err, CodeChanged)
	}
	if got, _ := os.ReadFile(pj); string(got) != "v1+theirs" {
		t.Errorf("pack.json = %q: the other writer's content was replaced", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.json")); err == nil {
		t.Error("a file of the refused batch was written")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestReplaceKeepsLinkAndMode: Replace writes through a symbolic link and
// keeps a 0600 mode.
func TestReplaceKeepsLinkAndMode(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte("a"), 0o600)
	os.Chmod(real, 0o600)
	link := filepath.Join(dir, "pack.json")
	os.Symlink("real.json", link)
	if err := Replace(link, []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	if lst, _ := os.Lstat(link); lst.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if got, _ := os.ReadFile(real); string(got) != "b" {
		t.Errorf("target holds %q", got)
	}
}

func TestIsTemp(t *testing.T) {
	f, err := Create(filepath.Join(t.TempDir(), "pack.json"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if !IsTemp(filepath.Base(f.Name())) || IsTemp("pack.json") || IsTemp("a.tmp-1.json") {
		t.Errorf("IsTemp wrong for %s", f.Name())
	}
}

// TestReplaceIf: the editor's save refuses when the file changed on disk.
func TestReplaceIf(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pack.json")
	os.WriteFile(p, []byte("a"), 0o644)
	if err := ReplaceIf(p, []byte("b"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceIf(p, []byte("c"), []byte("a"), 0o644); werr.CodeOf(err) != CodeChanged {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "b" {
		t.Errorf("file holds %q", got)
	}
}
