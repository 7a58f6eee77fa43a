package registry

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPacks: a tree's index lists its packs with their latest version and
// entry ids; a tree without an index lists none.
func TestPacks(t *testing.T) {
	t.Parallel()
	reg := t.TempDir()
	for name, data := range map[string]string{
		".well-known/openwop-registry.json": `{"signingKeys": []}`,
		"v1/index.json":                     `{"packs": [{"name": "acme.a", "latestVersion": "2.1.0", "typeIds": ["acme.a.x", "acme.a.y"]}]}`,
	} {
		p := filepath.Join(reg, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open(reg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ps, err := r.Packs(TreeV1)
	if err != nil || len(ps) != 1 || ps[0].Name != "acme.a" || ps[0].LatestVersion != "2.1.0" || len(ps[0].TypeIDs) != 2 {
		t.Errorf("v1: %+v, %v", ps, err)
	}
	if ps, err := r.Packs(TreeV2); err != nil || len(ps) != 0 {
		t.Errorf("v2 (no index): %+v, %v", ps, err)
	}
}
