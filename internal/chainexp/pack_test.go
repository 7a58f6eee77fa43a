package chainexp

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

const v2ChainPack = `{"$schema": "https://openwop.dev/spec/v2/workflow-chain-pack-manifest.schema.json",
 "name": "vendor.acme.chains", "version": "1.0.0", "kind": "workflow-chain", "engines": {"openwop": ">=2.0.0 <3.0.0"},
 "chains": [{"chainId": "vendor.acme.c", "version": "1.0.0", "label": "c", "description": "c", "parameters": {"type": "object"},
   "dag": {"nodes": [
     {"id": "a", "typeId": "core.ai.callPrompt@1.0.0"},
     {"id": "b", "typeId": "vendor.acme.nodes.send"},
     {"id": "c", "typeId": "vendor.acme.nodes.send@^1.0.0"}]}}]}`

// TestLoadPack reads the same manifest from a folder, the pack.json itself
// and a tarball, and refuses a folder without one.
func TestLoadPack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(v2ChainPack), 0o644); err != nil {
		t.Fatal(err)
	}
	var tgz bytes.Buffer
	err := tarball.Write(&tgz, []tarball.Entry{{Name: "pack.json", Size: int64(len(v2ChainPack)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(v2ChainPack)), nil }}}, tarball.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tgzPath := filepath.Join(t.TempDir(), "chains-1.0.0.tgz")
	if err := os.WriteFile(tgzPath, tgz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, filepath.Join(dir, "pack.json"), tgzPath} {
		p, err := LoadPack(path, tarball.DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if p.Name != "vendor.acme.chains" || p.Spec != "v2" || strings.Join(p.ChainIDs(), ",") != "vendor.acme.c" {
			t.Errorf("%s: %+v", path, p)
		}
	}
	if _, err := LoadPack(t.TempDir(), tarball.DefaultLimits); werr.CodeOf(err) != "pack_manifest_missing" {
		t.Errorf("a folder without pack.json: %v", err)
	}
}

// TestResolverAndPins: core.* and --packs' typeIds resolve (with or
// without a pin); with a host list, exactly its strings and --packs'; a
// v2 chain's unpinned and ranged references are warned about.
func TestResolverAndPins(t *testing.T) {
	t.Parallel()
	self, err := ParsePack([]byte(v2ChainPack), "pack.json")
	if err != nil {
		t.Fatal(err)
	}
	nodes, _ := ParsePack([]byte(`{"name": "vendor.acme.nodes", "version": "1.0.0", "nodes": [{"typeId": "vendor.acme.nodes.send"}]}`), "n")
	r := NewResolver(self, nil, nil)
	for typeID, want := range map[string]bool{"core.ai.callPrompt@1.0.0": true, "core.x": true, "vendor.acme.nodes.send": false} {
		if r.Resolvable(typeID) != want {
			t.Errorf("no packs: %s resolvable = %v", typeID, !want)
		}
	}
	r = NewResolver(self, []*Pack{nodes}, nil)
	if !r.Resolvable("vendor.acme.nodes.send@1.2.3") || !r.Resolvable("vendor.acme.nodes.send") {
		t.Error("a --packs typeId does not resolve")
	}
	r = NewResolver(self, []*Pack{nodes}, []string{"feature.x.y"})
	for typeID, want := range map[string]bool{"feature.x.y": true, "feature.x.y@1.0.0": false, "core.ai.callPrompt": false, "vendor.acme.nodes.send": true} {
		if r.Resolvable(typeID) != want {
			t.Errorf("host list: %s resolvable = %v", typeID, !want)
		}
	}
	ch, err := self.Chain("vendor.acme.c")
	if err != nil {
		t.Fatal(err)
	}
	w := PinWarnings(self, ch)
	if len(w) != 2 || !strings.Contains(w[0], `"vendor.acme.nodes.send" is not pinned`) || !strings.Contains(w[1], `pins "^1.0.0"`) {
		t.Errorf("warnings %q", w)
	}
}

// TestPreview: every chain expanded with its defaults, a required
// parameter without one said, not refused.
func TestPreview(t *testing.T) {
	t.Parallel()
	got := Preview([]byte(`{"name": "vendor.acme.chains", "version": "1.0.0", "kind": "workflow-chain", "chains": [
	  {"chainId": "vendor.acme.a", "parameters": {"type": "object", "required": ["topic"], "properties": {"topic": {"type": "string"}, "n": {"type": "integer", "default": 3}}},
	   "dag": {"nodes": [{"id": "x", "typeId": "vendor.unknown.t", "config": {"q": "{{params.topic}} x{{params.n}}"}}]}},
	  {"chainId": "vendor.acme.b", "dag": {"nodes": [{"id": "y", "typeId": "core.noop"}]}}]}`), "")
	for _, want := range []string{"required parameter missing", "vendor.acme.a expanded as preview: 1 node", `{"q":" x3"}`, "vendor.acme.b expanded as preview"} {
		if !strings.Contains(got, want) {
			t.Errorf("the preview lacks %q:\n%s", want, got)
		}
	}
}
