//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/werr"
)

// within fails the test, instead of hanging the suite, when f has not
// returned after 10 s.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	return testwait.Within(t, what, testwait.Ceiling, f)
}

// A FIFO put where a replaced file was, or where the directory to lock was,
// is refused at once: the check of the replaced file reads it through the
// untrusted layer, and the lock opens the directory with O_DIRECTORY.
func TestFIFOsNeverBlock(t *testing.T) {
	dir := t.TempDir()
	pj := filepath.Join(dir, "pack.json")
	os.WriteFile(pj, []byte("v1"), 0o644)
	var b Batch
	if err := b.Replace(pj, []byte("v2"), []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(pj)
	if err := syscall.Mkfifo(pj, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	err := within(t, "commit", b.Commit)
	if werr.CodeOf(err) != "file_not_regular" {
		t.Errorf("commit over a FIFO: %v", err)
	}

	fifo := filepath.Join(dir, "registry")
	syscall.Mkfifo(fifo, 0o644)
	err = within(t, "lock", func() error {
		unlock, err := LockDir(fifo)
		if err == nil {
			unlock()
		}
		return err
	})
	if werr.CodeOf(err) != "lock_failed" {
		t.Errorf("lock of a FIFO: %v", err)
	}
}

// A replaced file that grew past what was read has changed.
func TestReplaceRefusesGrownFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pack.json")
	os.WriteFile(p, []byte("a"), 0o644)
	if err := ReplaceIf(p, []byte("b"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte("bb"), 0o644)
	if err := ReplaceIf(p, []byte("c"), []byte("b"), 0o644); werr.CodeOf(err) != CodeChanged {
		t.Fatalf("err %v, want %s", err, CodeChanged)
	}
}
