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

// UseFile hands use the bytes ReadFile reads and returns use's error; a
// file ReadFile refuses is refused with the same error, use not called;
// through a Folders as through a Dir. The buffer is reused from one file
// to the next, so a caller keeps nothing of it.
func TestUseFileReadsAsReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"a.json": `{"a":1}`, "b.json": `{"b":"a longer document than a's"}`, "big": "0123456789"}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var fo Folders
	defer fo.Close()
	readers := map[string]func(name string, max int64, use func([]byte) error) error{
		"Dir": d.UseFile,
		"Folders": func(name string, max int64, use func([]byte) error) error {
			return fo.UseFile(filepath.Join(dir, name), max, use)
		},
		"nil Folders": func(name string, max int64, use func([]byte) error) error {
			return (*Folders)(nil).UseFile(filepath.Join(dir, name), max, use)
		},
	}
	for what, useFile := range readers {
		for _, name := range []string{"a.json", "b.json", "a.json", "missing", "big"} {
			max := int64(1 << 20)
			if name == "big" {
				max = 5 // too large
			}
			want, werr0 := d.ReadFile(name, max)
			called := false
			var got string
			err := useFile(name, max, func(data []byte) error { called, got = true, string(data); return nil })
			if (err == nil) != (werr0 == nil) || err != nil && (err.Error() != werr0.Error() || werr.CodeOf(err) != werr.CodeOf(werr0)) {
				t.Errorf("%s %s: error %v, ReadFile's %v", what, name, err, werr0)
			}
			if called != (werr0 == nil) || called && got != string(want) {
				t.Errorf("%s %s: use called %v with %q, ReadFile read %q (%v)", what, name, called, got, want, werr0)
			}
		}
		sentinel := errors.New("use failed")
		if err := useFile("a.json", 1<<20, func([]byte) error { return sentinel }); err != sentinel {
			t.Errorf("%s: use's error: got %v", what, err)
		}
	}
}
