//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckTree: what leads out of a directory, and what does not.
func TestCheckTree(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o600)
	base := t.TempDir()
	root := filepath.Join(base, "pack")
	os.MkdirAll(filepath.Join(root, "sub", "deep"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "file"), []byte("x"), 0o644)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// Inside: fine.
	must(os.Symlink("file", filepath.Join(root, "sub", "same-dir")))
	must(os.Symlink("../../sub/file", filepath.Join(root, "sub", "deep", "up-and-in")))
	must(os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "abs-in")))
	must(os.Symlink(".", filepath.Join(root, "self")))
	// Out: refused.
	must(os.Symlink("../"+filepath.Base(outside)+"/secret", filepath.Join(root, "rel-out")))
	must(os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "sub", "abs-out")))
	must(os.Symlink("..", filepath.Join(root, "parent")))
	must(os.Symlink("nowhere", filepath.Join(root, "dangling")))
	must(os.Link(filepath.Join(outside, "secret"), filepath.Join(root, "hard")))
	must(syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644))
	// A root that is itself a link is resolved first.
	must(os.Symlink(root, filepath.Join(base, "via-link")))

	got, err := CheckTree(filepath.Join(base, "via-link"), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"rel-out": "symbolic link", "sub/abs-out": "symbolic link", "parent": "symbolic link",
		"dangling": "cannot be resolved", "hard": "2 hard links", "fifo": "FIFO",
	}
	for _, e := range got {
		w, ok := want[e.Path]
		if !ok {
			t.Errorf("%s refused: %s", e.Path, e.Reason)
			continue
		}
		if !strings.Contains(e.Reason, w) {
			t.Errorf("%s: %q, want it to say %q", e.Path, e.Reason, w)
		}
		delete(want, e.Path)
	}
	for p := range want {
		t.Errorf("%s not refused", p)
	}
	if got, _ := CheckTree(root, 2); len(got) != 2 {
		t.Errorf("max 2: got %d", len(got))
	}
	if _, err := CheckTree(filepath.Join(base, "absent"), 0); err == nil {
		t.Error("a missing root is not an error")
	}
}
