package tarball

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestExtract(t *testing.T) {
	t.Parallel()
	a := &Archive{Files: []File{
		{Header: Header{Name: "pack.json", Size: 2, Mode: 0o644}, Data: []byte("{}")},
		{Header: Header{Name: "dist/run.sh", Size: 3, Mode: 0o755}, Data: []byte("#!/")},
		{Header: Header{Name: "schemas/a/b.json", Size: 1, Mode: 0o644}, Data: []byte("1")},
	}}
	dir := filepath.Join(t.TempDir(), "out")
	if err := Extract(a, dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Files {
		got, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s: %q, %v", f.Name, got, err)
		}
	}
	if st, _ := os.Stat(filepath.Join(dir, "dist/run.sh")); st == nil || st.Mode().Perm() != 0o755 {
		t.Errorf("executable bit not kept: %v", st)
	}
	if st, _ := os.Stat(filepath.Join(dir, "pack.json")); st == nil || st.Mode().Perm()&0o022 != 0 && st.Mode().Perm() != 0o644 {
		t.Errorf("pack.json mode: %v", st)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*wopkit-tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestExtractStaysInside: a hostile name or a symlink already in the target
// directory cannot make Extract write outside it.
func TestExtractStaysInside(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	dir := filepath.Join(base, "dir")
	os.Mkdir(outside, 0o755)
	os.Mkdir(dir, 0o755)
	if err := os.Symlink(outside, filepath.Join(dir, "schemas")); err != nil {
		t.Skipf("cannot create symlinks here: %v", err)
	}
	for _, name := range []string{"schemas/x.json", "../outside/y.json", "/tmp/z"} {
		a := &Archive{Files: []File{{Header: Header{Name: name, Size: 1}, Data: []byte("x")}}}
		if err := Extract(a, dir); err == nil {
			t.Errorf("%s: extracted without error", name)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("files landed outside the target: %v", ents)
	}
}
