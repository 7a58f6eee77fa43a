package untrusted

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/werr"
)

func TestDirFSStaysInsideAndNeverBlocks(t *testing.T) {
	base := t.TempDir()
	pack := filepath.Join(base, "pack")
	os.MkdirAll(filepath.Join(pack, "schemas"), 0o755)
	os.WriteFile(filepath.Join(base, "id_ed25519"), []byte("PRIVATE KEY"), 0o600)
	os.WriteFile(filepath.Join(pack, "pack.json"), []byte(`{}`), 0o644)
	os.Symlink("../../id_ed25519", filepath.Join(pack, "schemas", "a.json"))
	os.Symlink("/dev/zero", filepath.Join(pack, "zero.json"))
	fixtures.Mkfifo(t, filepath.Join(pack, "fifo.json"))

	fsys, err := DirFS(pack)
	if err != nil {
		t.Fatal(err)
	}
	for name, code := range map[string]string{
		"schemas/a.json": CodeOutsideRoot,
		"zero.json":      CodeOutsideRoot,
		"fifo.json":      CodeNotRegular,
	} {
		done := make(chan error, 2)
		go func() {
			_, err := fs.ReadFile(fsys, name)
			done <- err
			f, err := fsys.Open(name)
			if err == nil {
				io.ReadAll(f)
				f.Close()
			}
			done <- err
		}()
		for range 2 {
			select {
			case err := <-done:
				if werr.CodeOf(err) != code {
					t.Errorf("%s: %v, want %s", name, err, code)
				}
			case <-time.After(testwait.Ceiling):
				t.Fatalf("%s blocked", name)
			}
		}
	}
	if b, err := fs.ReadFile(fsys, "pack.json"); err != nil || string(b) != "{}" {
		t.Errorf("pack.json: %q %v", b, err)
	}
	if fi, err := fs.Lstat(fsys, "zero.json"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat: %v %v", fi, err)
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil || len(ents) != 4 {
		t.Errorf("ReadDir: %d %v", len(ents), err)
	}
}
