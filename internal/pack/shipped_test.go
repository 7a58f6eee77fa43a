package pack

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
)

// TestShippedFilesIsWhatPackShips (issue 42.8): for a folder, ShippedFiles
// lists exactly the files `pack` puts into the tarball (a note beside the
// pack, a .git folder and node_modules are not among them), a file pack
// refuses (.env) is listed as refused, and the tarball pack writes reads
// back as the same files.
func TestShippedFilesIsWhatPackShips(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	for rel, data := range map[string]string{"notes.txt": "mine\n", ".git/config": "[core]\n", "node_modules/x/index.js": "x\n", "schemas/.env": "TOKEN=1\n"} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := ShippedFiles(dir, ShipOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rel := range s.Files {
		got = append(got, rel)
	}
	slices.Sort(got)
	if err := os.Remove(filepath.Join(dir, "schemas", ".env")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "p.tgz")
	res, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate})
	if err != nil {
		t.Fatal(err)
	}
	if want := paths(res.Files); !slices.Equal(got, want) {
		t.Errorf("ShippedFiles\n got %v\npack %v", got, want)
	}
	if len(s.Refused) != 1 || s.Refused[0].File != "schemas/.env" || s.Archive {
		t.Errorf("refused %+v, archive %v", s.Refused, s.Archive)
	}
	tgz, err := ShippedFiles(out, ShipOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tgz.Files) != len(s.Files) || !tgz.Archive {
		t.Errorf("the tarball holds %d files, the folder ships %d", len(tgz.Files), len(s.Files))
	}
	for rel, data := range s.Files {
		if rel == ManifestFile { // pack writes it canonical: the same JSON
			a, err1 := jsondoc.Parse(data)
			b, err2 := jsondoc.Parse(tgz.Files[rel])
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a.Root.Value(), b.Root.Value()) {
				t.Errorf("pack.json differs between the folder and its tarball")
			}
			continue
		}
		if string(tgz.Files[rel]) != string(data) {
			t.Errorf("%s differs between the folder and its tarball", rel)
		}
	}
	if _, err := ShippedFiles("acme.x@1.0.0", ShipOptions{}); err == nil {
		t.Error("NAME@VERSION without a registry was read")
	}
}
