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

// Issue 25, item 12: the next steps name wopkit as it can be run (`go run
// ./cmd/wopkit` from its source tree, where `wopkit` is not on the PATH)
// and the files by their whole paths when they were written elsewhere.
func TestNextNamesCommandsThatWork(t *testing.T) {
	oldC, oldB := Command, Base
	t.Cleanup(func() { Command, Base = oldC, oldB })
	Command, Base = "go run ./cmd/wopkit", "/home/a/openwop-packs"
	r := Result{pack: true, packed: true, Dir: "first", Tarball: "community.acme.first-0.1.0.tgz", Signature: "x.sig", PublicKey: "/home/a/.config/wopkit/keys/acme.pub"}
	next := strings.Join(r.Next(), "\n")
	for _, want := range []string{"go run ./cmd/wopkit verify /home/a/openwop-packs/community.acme.first-0.1.0.tgz --key /home/a/.config/wopkit/keys/acme.pub",
		"go run ./cmd/wopkit validate /home/a/openwop-packs/first"} {
		if !strings.Contains(next, want) {
			t.Errorf("next steps lack %q:\n%s", want, next)
		}
	}
	if strings.Contains("\n"+next, "\nwopkit ") {
		t.Errorf("a next step names wopkit, not on the PATH:\n%s", next)
	}
}

// Issue 25, item 13: a pack packed without signing is told how to sign
// it later.
func TestNextSignLater(t *testing.T) {
	r := Result{pack: true, packed: true, Dir: "first", Tarball: "community.acme.first-0.1.0.tgz"}
	if next := strings.Join(r.Next(), "\n"); !strings.Contains(next, "sign community.acme.first-0.1.0.tgz --key KEY --key-id ID") {
		t.Errorf("no step to sign it later:\n%s", next)
	}
}
