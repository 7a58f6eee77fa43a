package registry

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProvider: the pack of a tree's index whose entry ids list an id,
// with its latest version; an id no entry lists (a pack's own name, which
// the index holds too) and a tree without an index give none.
func TestProvider(t *testing.T) {
	t.Parallel()
	reg := t.TempDir()
	for name, data := range map[string]string{
		".well-known/openwop-registry.json": `{"signingKeys": []}`,
		"v1/index.json":                     `{"packs": [{"name": "acme.b", "latestVersion": "1.0.0", "formerTypeIds": ["acme.a.y"], "typeIds": []}, {"name": "acme.a", "latestVersion": "2.1.0", "typeIds": ["acme.a.x", "acme.a.y"]}]}`,
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
	got, err := r.Provided(TreeV1)
	if p, ok := got["acme.a.y"]; err != nil || !ok || p.Name != "acme.a" || p.LatestVersion != "2.1.0" {
		t.Errorf("provider of acme.a.y: %+v %v", got, err)
	}
	if _, ok := got["acme.a"]; ok || len(got) != 2 || got["acme.a.x"].Name != "acme.a" {
		t.Errorf("a pack's own name, or an id listed nowhere, has a provider: %+v", got)
	}
	if got, err := r.Provided(TreeV2); err != nil || len(got) != 0 {
		t.Errorf("v2 has no index: %+v %v", got, err)
	}
}
