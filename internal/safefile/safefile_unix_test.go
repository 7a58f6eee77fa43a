//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// CheckDir refuses a named pipe or a socket where a folder is expected,
// and lets a folder, a regular file and a missing path through.
func TestCheckDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink("pipe", link)
	for _, p := range []string{fifo, link} {
		if err := CheckDir(p); werr.CodeOf(err) != CodeNotRegular {
			t.Errorf("CheckDir(%s) = %v", p, err)
		}
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, p := range []string{dir, file, filepath.Join(dir, "missing")} {
		if err := CheckDir(p); err != nil {
			t.Errorf("CheckDir(%s) = %v", p, err)
		}
	}
}
