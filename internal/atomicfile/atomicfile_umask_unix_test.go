//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileModeIgnoresUmask: a file gets the mode it is written with
// whatever the umask (key files must be 0600, public ones 0644).
func TestWriteFileModeIgnoresUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	p := filepath.Join(dir, "k.key")
	if err := WriteFile(p, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	syscall.Umask(0)
	q := filepath.Join(dir, "pub")
	if err := WriteFile(q, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{p: 0o600, q: 0o644} {
		fi, _ := os.Stat(path)
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
	assertOnly(t, dir, "k.key", "pub")
}
