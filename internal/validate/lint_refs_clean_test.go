package validate

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"github.com/openwop/wopkit/internal/kinds"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// uncleanPack references types/in.json as "types/../types/in.json" (issue
// 10: validate DIR passed, pack left the file out, validate x.tgz failed).
func uncleanPack(ref string) (string, fstest.MapFS) {
	doc := packWith(`"typeId": "vendor.acme.tools.a",`, `"typeId": "vendor.acme.tools.a", "inputSchemaRef": "`+ref+`",`)
	return doc, fstest.MapFS{
		"pack.json":     {Data: []byte(doc)},
		"types/in.json": {Data: []byte(`{"type": "object"}`)},
		"index.mjs":     {Data: []byte("export const nodes = {};\n")},
	}
}

func TestOW016(t *testing.T) {
	t.Parallel()
	clean, cleanFS := uncleanPack("types/in.json")
	dirty, dirtyFS := uncleanPack("types/../types/in.json")
	runLint(t, "OW016", []lintCase{
		{name: "clean", kind: kinds.NodePack, doc: clean, files: cleanFS},
		{name: "dot-slash prefix is clean", kind: kinds.NodePack, doc: strings.Replace(clean, `"types/in.json"`, `"./types/in.json"`, 1)},
		{name: "unclean, with files", kind: kinds.NodePack, doc: dirty, files: dirtyFS,
			want: []hit{{ptr: "/nodes/0/inputSchemaRef", at: `"types/../types/in.json"`, hint: `"types/in.json"`}}},
		{name: "unclean, bytes alone", kind: kinds.NodePack, doc: dirty,
			want: []hit{{ptr: "/nodes/0/inputSchemaRef", at: `"types/../types/in.json"`, hint: `"types/in.json"`}}},
		{name: "unclean entry", kind: kinds.NodePack, doc: strings.Replace(clean, `"entry": "./index.mjs"`, `"entry": "lib//index.mjs"`, 1),
			want: []hit{{ptr: "/runtime/entry", at: `"lib//index.mjs"`, hint: `"lib/index.mjs"`}}},
	})
	// OW005 stays silent on it: one problem, one rule.
	runLint(t, "OW005", []lintCase{{name: "unclean is OW016's", kind: kinds.NodePack, doc: dirty, files: dirtyFS}})
}

// The same pack, validated as a directory and as a tarball, gets the same
// rule at the same place.
func TestOW016DirAndTarball(t *testing.T) {
	t.Parallel()
	_, files := uncleanPack("types/../types/in.json")
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, f := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(f.Data)), Typeflag: tar.TypeReg})
		tw.Write(f.Data)
	}
	tw.Close()
	zw.Close()
	tgz := filepath.Join(t.TempDir(), "x.tgz")
	os.WriteFile(tgz, buf.Bytes(), 0o644)
	v := newV(t)
	for _, p := range []string{dir, tgz} {
		rep, err := v.Path(p)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, pr := range rep.Problems() {
			if pr.Rule == "OW016" && pr.Pointer == "/nodes/0/inputSchemaRef" {
				found++
			}
		}
		if rep.Valid || found != 1 {
			t.Errorf("%s: valid=%v, %d OW016 problems\n%s", p, rep.Valid, found, render(rep.Problems()))
		}
	}
}
