package jcs

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// TestRegistryPackJSONIsCanonical: every manual-signed pack.json the registry
// publishes is already JCS (the signature covers exactly those bytes).
func TestRegistryPackJSONIsCanonical(t *testing.T) {
	tgzs := fixtures.Tarballs(t, "manual")
	if len(tgzs) < 6 {
		t.Fatalf("expected at least 6 manual-signed tarballs, found %d", len(tgzs))
	}
	for _, tgz := range tgzs {
		b := fixtures.File(t, tgz, "pack.json")
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
	src, err := os.ReadFile(fixtures.Path(t, "source-packs", "core.openwop.agents.react", "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := fixtures.File(t, fixtures.Tarball(t, "core.openwop.agents.react", "1.0.3"), "pack.json")
	metaBytes, err := os.ReadFile(fixtures.Path(t, "registry", "v1", "packs", "core.openwop.agents.react", "-", "1.0.3.json"))
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
