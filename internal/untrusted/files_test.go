package untrusted

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/werr"
)

func TestDirRefusesWhatIsNotARegularFileInside(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	secret := filepath.Join(base, "secret.txt")
	os.WriteFile(secret, []byte("SECRET"), 0o600)
	os.WriteFile(filepath.Join(root, "ok.json"), []byte(`{"a":1}`), 0o644)
	os.WriteFile(filepath.Join(root, "big"), make([]byte, 2048), 0o644)
	if err := fixtures.Mkfifo(t, filepath.Join(root, "fifo.json")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(secret, filepath.Join(root, "abs-link"))
	os.Symlink("../secret.txt", filepath.Join(root, "rel-link"))
	os.Symlink("../..", filepath.Join(root, "sub", "up"))
	os.Symlink("/dev/zero", filepath.Join(root, "zero"))
	os.Symlink("ok.json", filepath.Join(root, "inside-link"))

	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cases := map[string]string{
		"fifo.json":         CodeNotRegular,
		"sub":               CodeNotRegular,
		"abs-link":          CodeOutsideRoot,
		"rel-link":          CodeOutsideRoot,
		"sub/up/secret.txt": CodeOutsideRoot,
		"../secret.txt":     CodeOutsideRoot,
		"zero":              CodeOutsideRoot,
		"big":               CodeTooLarge,
	}
	for name, code := range cases {
		done := make(chan error, 1)
		go func() { _, err := d.ReadFile(name, 1024); done <- err }()
		select {
		case err := <-done:
			if werr.CodeOf(err) != code {
				t.Errorf("%s: %v (code %q), want %s", name, err, werr.CodeOf(err), code)
			}
		case <-time.After(testwait.Ceiling):
			t.Fatalf("%s: reading blocked", name)
		}
	}
	if _, err := d.ReadFile("missing", 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	for _, name := range []string{"ok.json", "inside-link"} {
		if b, err := d.ReadFile(name, 1024); err != nil || string(b) != `{"a":1}` {
			t.Errorf("%s: %q %v", name, b, err)
		}
	}
	var v struct {
		A int `json:"a"`
	}
	if err := d.ReadJSON("ok.json", 1024, &v); err != nil || v.A != 1 {
		t.Errorf("ReadJSON: %v %v", v, err)
	}
	if b, err := ReadFile(filepath.Join(root, "ok.json"), 1024); err != nil || len(b) != 7 {
		t.Errorf("ReadFile: %v", err)
	}
	if _, err := ReadFile(filepath.Join(root, "abs-link"), 1024); werr.CodeOf(err) != CodeOutsideRoot {
		t.Errorf("ReadFile of a link out: %v", err)
	}
}
