package jcs

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// fixtures is the shared registry slice, beside the repository (never copied in).
const fixtures = "../../../shared/fixtures"

func needFixtures(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(fixtures, "registry")); err != nil {
		t.Skipf("registry fixtures not found at %s (they live beside the repository on developer machines): %v", fixtures, err)
	}
}

// tarFile returns one file of a .tgz, read with the standard library (an
// independent reader, not wopkit's).
func tarFile(t *testing.T, tgz, name string) []byte {
	t.Helper()
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			t.Fatalf("%s: no %s", tgz, name)
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == name {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
}

// manualTarballs lists the registry tarballs signed with method "manual".
func manualTarballs(t *testing.T) []string {
	t.Helper()
	metas, err := filepath.Glob(filepath.Join(fixtures, "registry/v1/packs/*/-/*.json"))
	if err != nil || len(metas) == 0 {
		t.Fatalf("no version manifests under %s: %v", fixtures, err)
	}
	var out []string
	for _, m := range metas {
		var meta struct {
			Signing struct{ Method string } `json:"signing"`
		}
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &meta); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if meta.Signing.Method == "manual" {
			out = append(out, m[:len(m)-len(".json")]+".tgz")
		}
	}
	return out
}

// TestRegistryPackJSONIsCanonical: every manual-signed pack.json the registry
// publishes is already JCS (the signature covers exactly those bytes).
func TestRegistryPackJSONIsCanonical(t *testing.T) {
	needFixtures(t)
	tgzs := manualTarballs(t)
	if len(tgzs) < 6 {
		t.Fatalf("expected at least 6 manual-signed tarballs, found %d", len(tgzs))
	}
	for _, tgz := range tgzs {
		b := tarFile(t, tgz, "pack.json")
		if !IsCanonical(b) {
			c, err := Canonicalize(b, Options{})
			t.Errorf("%s: pack.json is not its own JCS form (err %v)\n got %.200s\nwant %.200s", tgz, err, c, b)
		}
		if _, err := Canonicalize(b, Options{Strict: true}); err != nil {
			t.Errorf("%s: strict canonicalisation refused: %v", tgz, err)
		}
		// Through Marshal of the decoded value as well.
		var v any
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		m, err := Marshal(v, Options{Strict: true})
		if err != nil || !bytes.Equal(m, b) {
			t.Errorf("%s: Marshal of decoded pack.json differs (err %v)", tgz, err)
		}
	}
}

// TestSourcePackToTarball: the author's pretty-printed pack.json plus the
// signing block canonicalises to exactly the published in-tarball bytes.
func TestSourcePackToTarball(t *testing.T) {
	needFixtures(t)
	src, err := os.ReadFile(filepath.Join(fixtures, "source-packs/core.openwop.agents.react/pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := tarFile(t, filepath.Join(fixtures, "registry/v1/packs/core.openwop.agents.react/-/1.0.3.tgz"), "pack.json")
	metaBytes, err := os.ReadFile(filepath.Join(fixtures, "registry/v1/packs/core.openwop.agents.react/-/1.0.3.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Signing json.RawMessage `json:"signing"`
	}
	if err := json.Unmarshal(metaBytes, &meta); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(src, want) {
		t.Fatal("source and tarball pack.json are identical: the test would prove nothing")
	}

	// Text path: splice the signing member into the source text.
	end := bytes.LastIndexByte(src, '}')
	text := append(append(append([]byte{}, src[:end]...), `,"signing":`...), meta.Signing...)
	text = append(text, '}')
	got, err := Canonicalize(text, Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Canonicalize(source + signing) differs from the tarball's pack.json\n got %s\nwant %s", got, want)
	}

	// Value path: decode, add the block, Marshal.
	var v map[string]any
	d := json.NewDecoder(bytes.NewReader(src))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var block map[string]any
	if err := json.Unmarshal(meta.Signing, &block); err != nil {
		t.Fatal(err)
	}
	v["signing"] = block
	got, err = Marshal(v, Options{Strict: true})
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Marshal(source + signing) differs from the tarball's pack.json (err %v)", err)
	}
}
