//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Issue 24 item 5 (edit DIR, migrate, new agent --pack): a replacement of a
// file that is a link leading out of its folder was written through to the
// link's target. It is refused (path_outside_root) and the target keeps its
// content; a link to a file inside the folder is still written through.
func TestReplaceNeverWritesThroughALinkOut(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "pack.json")
	old := []byte("old\n")
	if err := os.WriteFile(target, old, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "pack.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join(dir, "rel.json")
	if err := os.Symlink(filepath.Join("..", filepath.Base(outside), "pack.json"), rel); err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func() error{
		"ReplaceIf":     func() error { return ReplaceIf(link, []byte("new\n"), old, 0o644) },
		"Replace":       func() error { return Replace(link, []byte("new\n"), 0o644) },
		"relative link": func() error { return Replace(rel, []byte("new\n"), 0o644) },
	} {
		if err := write(); werr.CodeOf(err) != untrusted.CodeOutsideRoot {
			t.Errorf("%s: err %v, want %s", name, err, untrusted.CodeOutsideRoot)
		}
		if b, _ := os.ReadFile(target); string(b) != string(old) {
			t.Fatalf("%s: the file outside was rewritten: %q", name, b)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporaries were left behind: %v", entries)
	}
}

// A batch with a Place writes only inside it: a file whose folder is a link
// that leads out is refused, and nothing of the batch is written.
func TestBatchPlaceRefusesALinkedFolder(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "prompts")); err != nil {
		t.Fatal(err)
	}
	b := Batch{Place: dir}
	defer b.Abort()
	if err := b.Add(filepath.Join(dir, "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(filepath.Join(dir, "prompts", "x.md"), []byte("x"), 0o644); werr.CodeOf(err) != untrusted.CodeOutsideRoot {
		t.Fatalf("err %v, want %s", err, untrusted.CodeOutsideRoot)
	}
	if err := b.Add(filepath.Join(outside, "y.md"), []byte("y"), 0o644); werr.CodeOf(err) != untrusted.CodeOutsideRoot {
		t.Fatalf("a path outside the place: err %v, want %s", err, untrusted.CodeOutsideRoot)
	}
	b.Abort()
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside: %v", entries)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the place holds %v, want only the link", entries)
	}
}
