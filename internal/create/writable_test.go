package create

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 25, item 11: a folder that cannot be written is a problem of the
// preflight (it passed the review, then writing failed with no hint), said
// on the folder with what to do. The permission check itself is
// atomicfile.Writable's (tested there: a superuser writes anywhere, so it
// is replaced here).
func TestPreflightUnwritableFolder(t *testing.T) {
	old := writable
	t.Cleanup(func() { writable = old })
	dir := filepath.Join(t.TempDir(), "my-pack")
	writable = func(d string) error {
		if d != dir {
			t.Errorf("checked %s, not the pack's folder %s", d, dir)
		}
		return errors.New("cannot create files in " + filepath.Dir(d) + ": permission denied")
	}
	ps := Preflight(Options{Plan: packPlan(t, "community.acme.weather"), Dir: dir, PackLater: true,
		Labels: Labels{OtherFolder: "choose another name"}})
	if len(ps) != 1 || ps[0].Subject != Folder || !strings.Contains(ps[0].Message, "permission denied") ||
		!strings.Contains(ps[0].Hint, "choose another name") {
		t.Fatalf("Preflight: %+v", ps)
	}
}
