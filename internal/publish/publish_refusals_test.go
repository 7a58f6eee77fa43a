package publish

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// refuse stages o and wants code, with the tree unchanged after Stage and
// (had it been called) Apply.
func refuse(t *testing.T, o Options, code string) {
	t.Helper()
	root, err := FindRoot(o.Registry)
	if err != nil {
		t.Fatal(err)
	}
	before := treeHashes(t, root)
	p, err := Stage(t.Context(), o)
	if err == nil {
		p.Apply()
		t.Fatalf("%s: staged (%d changes), want %s", o.Tarball, len(p.Changes), code)
	}
	if got := werr.CodeOf(err); got != code {
		t.Fatalf("code %q, want %q: %v", got, code, err)
	}
	sameTree(t, before, treeHashes(t, root))
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	dir := minimalRegistry(t)
	root := filepath.Join(dir, "registry")
	key := addTestKey(t, root, "active")
	const name = "community.wopkit-test.hello"
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, name, "1.1.0", nil), Registry: dir})

	t.Run("version already published with other bytes", func(t *testing.T) {
		other := release(t, key, sign.MethodV2, name, "1.1.0", func(m *jsjson.Obj) { m.Set("description", "other bytes") })
		refuse(t, Options{Tarball: other, Registry: dir}, "version_conflict")
	})
	t.Run("version not greater", func(t *testing.T) {
		older := release(t, key, sign.MethodV2, name, "1.0.5", nil)
		refuse(t, Options{Tarball: older, Registry: dir}, "version_not_greater")
		p := stage(t, Options{Tarball: older, Registry: dir, AllowOlder: true})
		if p.NoOp || len(p.Changes) == 0 {
			t.Fatal("--allow-older staged nothing")
		}
		actions := map[string]string{}
		for _, c := range p.Changes {
			actions[c.Path] = c.Action
		}
		if actions["v2/packs/"+name+"/index.json"] != "update" || actions["v2/packs/"+name+"/-/1.0.5.tgz"] != "create" || actions["v2/sbom.json"] != "update" {
			t.Errorf("actions: %v", actions)
		}
		diff := strings.Join(p.IndexDiff, "\n")
		if !strings.Contains(diff, `+       "version": "1.0.5",`) || strings.Contains(diff, `"latest"`) {
			t.Errorf("index diff:\n%s", diff)
		}
	})
	t.Run("advisory", func(t *testing.T) {
		d := minimalRegistry(t)
		r := filepath.Join(d, "registry")
		k := addTestKey(t, r, "active")
		adv := `{"advisories":[{"id":"OPENWOP-2026-0042","affected":[{"packName":"` + name + `","versions":">=1.0.0 <1.2.0 || =2.0.0","fixedIn":"1.2.0"}]}]}`
		writeFile(t, filepath.Join(r, "security", "advisories.json"), adv)
		refuse(t, Options{Tarball: release(t, k, sign.MethodV2, name, "1.1.0", nil), Registry: d}, "version_advisory")
		refuse(t, Options{Tarball: release(t, k, sign.MethodV2, name, "2.0.0", nil), Registry: d}, "version_advisory")
		publishOK(t, Options{Tarball: release(t, k, sign.MethodV2, name, "1.2.0", nil), Registry: d})
	})
	t.Run("key not active", func(t *testing.T) {
		d := minimalRegistry(t)
		r := filepath.Join(d, "registry")
		k := addTestKey(t, r, "active")
		tgz := release(t, k, sign.MethodV2, name, "1.0.0", nil)
		setKeyStatus(t, r, "rotated")
		refuse(t, Options{Tarball: tgz, Registry: d}, "key_not_active")
	})
	t.Run("namespace not permitted", func(t *testing.T) {
		refuse(t, Options{Tarball: release(t, key, sign.MethodV2, "community.someone-else.hello", "1.0.0", nil), Registry: dir}, "pack_namespace_unauthorized")
	})
	t.Run("private and local names", func(t *testing.T) {
		refuse(t, Options{Tarball: release(t, key, sign.MethodV2, "private.acme.hello", "1.0.0", nil), Registry: dir}, "pack_namespace_reserved")
		refuse(t, Options{Tarball: release(t, key, sign.MethodV2, "local.acme.hello", "1.0.0", nil), Registry: dir}, "pack_namespace_reserved")
	})
	t.Run("v1 signature into the v2 tree", func(t *testing.T) {
		refuse(t, Options{Tarball: release(t, key, sign.MethodManual, name, "3.0.0", nil), Registry: dir}, "publish_tree_mismatch")
	})
	t.Run("v2 manifest without kind", func(t *testing.T) {
		tgz := release(t, key, sign.MethodV2, name, "3.0.0", func(m *jsjson.Obj) { m.Delete("kind") })
		refuse(t, Options{Tarball: tgz, Registry: dir}, "pack_kind_missing")
	})
	t.Run("engines range without major 2", func(t *testing.T) {
		tgz := release(t, key, sign.MethodV2, name, "3.0.0", func(m *jsjson.Obj) { m.Set("engines", jsjson.NewObj().Set("openwop", ">=1.0.0 <2.0.0")) })
		refuse(t, Options{Tarball: tgz, Registry: dir}, "pack_engine_unsupported")
	})
	t.Run("detached signature of another release", func(t *testing.T) {
		a := release(t, key, sign.MethodV2, name, "3.0.0", nil)
		b := release(t, key, sign.MethodV2, name, "3.0.0", func(m *jsjson.Obj) { m.Set("description", "b") })
		refuse(t, Options{Tarball: a, SigPath: b[:len(b)-len(".tgz")] + ".sig", Registry: dir}, "signature_conflict")
	})
	t.Run("write failure leaves the tree as it was", func(t *testing.T) {
		p := stage(t, Options{Tarball: release(t, key, sign.MethodV2, name, "3.0.0", nil), Registry: dir})
		before := treeHashes(t, root)
		for _, n := range []int{0, 3, len(p.Changes) - 1} {
			failBeforeRename = n
			err := p.Apply()
			failBeforeRename = -1
			if werr.CodeOf(err) != "write_failed" {
				t.Fatalf("failure before rename %d: %v", n, err)
			}
			sameTree(t, before, treeHashes(t, root))
		}
		if err := p.Apply(); err != nil {
			t.Fatal(err)
		}
	})
}
