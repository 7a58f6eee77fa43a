package semdiff

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 42.8: a folder side is what `pack` would ship (pack.ShippedFiles):
// a note beside the pack, a build folder or a .env file are no part of it,
// so comparing a folder with its published self finds nothing.
func TestFolderSideIsWhatShips(t *testing.T) {
	t.Parallel()
	write := func(files map[string]string) string {
		dir := t.TempDir()
		for rel, data := range files {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	base := packFiles(base(), schemas(), nil)
	clean := write(base)
	extra := map[string]string{"NOTES.txt": "mine\n", "dist/out.js": "x\n", "schemas/.env": "TOKEN=1\n"}
	for k, v := range base {
		extra[k] = v
	}
	messy := write(extra)
	o, err := Load(clean, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := Load(messy, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := Compare(o, n); len(r.Changes) != 0 {
		t.Errorf("files the pack does not ship were compared: %+v", r.Changes)
	}
}
