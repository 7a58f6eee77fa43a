package validate

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/tarball"
)

// A .json file of a pack that JSON.parse refuses is an error in a pack
// folder (pack's refusal, pack_json_invalid) and in a tarball, referenced
// or not; one validate reads itself (a schema a node references) is
// reported once, by the rule that read it (OW005).
func TestUnparsedJSONIsRefused(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"pack.json": `{"name": "vendor.acme.j", "version": "1.0.0", "engines": {"openwop": ">=1.0.0 <2.0.0"},
  "runtime": {"language": "remote", "entry": "https://acme.example/x"},
  "nodes": [{"typeId": "vendor.acme.j.a", "version": "1.0.0", "category": "utility", "role": "pure", "inputSchemaRef": "schemas/in.json"}]}`,
		"schemas/in.json":    `{"type": "object",`,
		"schemas/extra.json": `{"not": "closed"`,
		"examples/dup.json":  `{"a": 1, "a": 2}`,
		"schemas/fine.json":  `{}`,
	}
	dir := t.TempDir()
	var entries []tarball.Entry
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
		entries = append(entries, tarball.Entry{Name: name, Size: int64(len(data)), Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(data)), nil }})
	}
	var buf bytes.Buffer
	if err := tarball.Write(&buf, entries, tarball.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	tgz := filepath.Join(t.TempDir(), "j.tgz")
	os.WriteFile(tgz, buf.Bytes(), 0o644)
	v, err := New(Options{ForRegistry: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, tgz} {
		rep, err := v.Paths([]string{path})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range rep.Files {
			for _, p := range f.Errors {
				if p.Rule == "pack_json_invalid" || strings.HasPrefix(p.Rule, "json/") || p.Rule == "OW005" {
					got = append(got, filepath.Base(f.Path)+" "+p.Rule)
				}
			}
		}
		slices.Sort(got)
		if want := []string{"extra.json pack_json_invalid", "in.json OW005"}; !slices.Equal(got, want) || rep.Valid {
			t.Errorf("%s: %q (valid %v), want %q", path, got, rep.Valid, want)
		}
	}
}
