package pack

import (
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// A manifest whose name is given twice (in another letter case, or
// exactly) is refused: JSON.parse, ajv and wopkit must not read two
// different packs from one file.
func TestParseManifestRefusesAmbiguousMembers(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`{"name":"vendor.acme.a","version":"1.0.0","Name":"vendor.other.b"}`,
		`{"name":"vendor.acme.a","version":"1.0.0","name":"vendor.other.b"}`,
		`{"name":"vendor.acme.a","version":"1.0.0","VERSION":"9.9.9"}`,
	} {
		if _, err := ParseManifest([]byte(src), "pack.json"); werr.CodeOf(err) != "pack_manifest_invalid" {
			t.Errorf("%s: %v", src, err)
		}
	}
	if m, err := ParseManifest([]byte(`{"name":"vendor.acme.a","version":"1.0.0"}`), "pack.json"); err != nil || m.Name != "vendor.acme.a" {
		t.Fatalf("plain manifest: %v", err)
	}
}
