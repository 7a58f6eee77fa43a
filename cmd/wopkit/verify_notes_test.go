package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/testwait"
)

// Issue 18 item 6: a keychain key whose keys/<id>.pub the registry
// checkout lacks is said to be missing from the checkout, without the
// advice about --key (none was given), in text and in --json.
func TestVerifyRegistryKeyFileMissing(t *testing.T) {
	t.Parallel()
	for name, remove := range map[string]string{"key file": "keys/openwop-team-1.pub", "keys folder": "keys"} {
		t.Run(name, func(t *testing.T) {
			h := newHostileRegistry(t, "openwop-team-1", acmeKey+"}")
			tgz := h.publish(t, h.team, "openwop-team-1", "", "")
			// A checkout of a registry repository: the root is its registry/.
			checkout := t.TempDir()
			root := filepath.Join(checkout, "registry")
			if err := os.Rename(h.root, root); err != nil {
				t.Fatal(err)
			}
			tgz = filepath.Join(root, strings.TrimPrefix(tgz, h.root))
			os.RemoveAll(filepath.Join(root, filepath.FromSlash(remove)))
			out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", checkout)
			want := "registry " + root + " lacks keys/openwop-team-1.pub, the public key of keychain entry \"openwop-team-1\""
			if code != 3 || !strings.Contains(out, want) || strings.Contains(out+errOut, "--key") {
				t.Errorf("exit %d, want %q and no --key:\n%s%s", code, want, out, errOut)
			}
			js, _, _ := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", checkout, "--json")
			var r struct {
				Error struct{ Code, Message, Hint string }
			}
			if err := json.Unmarshal([]byte(js), &r); err != nil || r.Error.Code != "key_unreadable" || !strings.Contains(r.Error.Message, want) ||
				strings.Contains(r.Error.Hint, "--key") {
				t.Errorf("--json: %s", js)
			}
		})
	}
}

// Issue 18 item 6: a pack whose tree has no per-pack index.json gets a
// note, as one whose index does not list the version does; the OK line
// names the tree the version was found in, v1 as v2.
func TestVerifyRegistryIndexNotes(t *testing.T) {
	t.Parallel()
	h := newHostileRegistry(t, "openwop-team-1", acmeKey+"}")
	tgz := h.publish(t, h.team, "openwop-team-1", "", "")
	index := filepath.Join(h.root, "v1", "packs", "acme.x", "index.json")
	verify := func() string {
		t.Helper()
		out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root)
		if code != 0 {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
		return out
	}
	out := verify()
	if !strings.Contains(out, "integrity matches the registry (v1 tree)") || strings.Contains(out, "note:") {
		t.Errorf("listed version:\n%s", out)
	}
	os.WriteFile(index, []byte(`{"name":"acme.x","versions":[]}`), 0o644)
	if out := verify(); !strings.Contains(out, "note: the registry's "+index+" does not list 1.0.0 yet") {
		t.Errorf("index without the version:\n%s", out)
	}
	os.Remove(index)
	if out := verify(); !strings.Contains(out, "note: the registry has no "+index+" yet") {
		t.Errorf("no index:\n%s", out)
	}
}
