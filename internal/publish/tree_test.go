package publish

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// Issue 44 item 2: the discovery document decides the tree. A checkout
// whose document names only /v1/ endpoints is not written a registry/v2/
// tree: publish, yank and deprecate refuse, registry_tree_unsupported,
// naming the document, what it advertises and what to do; --spec v1
// writes the v1 tree; a document advertising v2 is written, and the plan
// says which tree and why.
func TestTreeFollowsTheDiscoveryDocument(t *testing.T) {
	t.Parallel()
	dir := minimalRegistry(t)
	wk := filepath.Join(dir, "registry", ".well-known", "openwop-registry.json")
	v1only := `{"registryVersion":"1.0.0","endpoints": {"versionTarball":"/v1/packs/{name}/-/{version}.tgz","publicKey":"/keys/{keyId}.pub"},"signingKeys":[]}` + "\n"
	writeFile(t, wk, v1only)
	key := addTestKey(t, dir+"/registry", "active")
	const name = "community.wopkit-test.tree"
	v2 := release(t, key, sign.MethodV2, name, "1.0.0", nil)
	before := treeHashes(t, dir)
	_, err := Stage(t.Context(), Options{Tarball: v2, Registry: dir})
	if werr.CodeOf(err) != CodeTreeUnsupported || werr.ExitCode(err) != 1 {
		t.Fatalf("v2 into a v1-only checkout: %v", err)
	}
	msg := err.Error()
	for _, s := range []string{wk, "only v1 (endpoints.versionTarball)", "not a v2 tree", "--spec v1", "update the checkout"} {
		if !strings.Contains(msg, s) {
			t.Errorf("the refusal lacks %q: %s", s, msg)
		}
	}
	for _, f := range []func(LifecycleOptions) (*Plan, error){Yank, Deprecate} {
		_, err := f(LifecycleOptions{Registry: dir, Name: name, Version: "1.0.0", Reason: "x"})
		if werr.CodeOf(err) != CodeTreeUnsupported {
			t.Errorf("yank/deprecate in a v1-only checkout: %v", err)
		}
	}
	sameTree(t, before, treeHashes(t, dir))
	if _, err := os.Stat(filepath.Join(dir, "registry", "v2")); err == nil {
		t.Error("a v2 tree was made")
	}

	// --spec v1: the frozen tree, and the plan says why.
	v1 := release(t, key, sign.MethodManual, name, "1.0.0", nil)
	p := stage(t, Options{Tarball: v1, Registry: dir, Spec: SpecV1, DryRun: true})
	if p.Tree != SpecV1 || !strings.Contains(p.TreeReason, "advertises a v1 tree") {
		t.Errorf("v1: tree %s, reason %q", p.Tree, p.TreeReason)
	}

	// A document that advertises v2 (endpoints.v2, as the real v2
	// registry's): written, and the dry run says which tree and why.
	writeFile(t, wk, string(advertiseV2(readFileT(t, wk))))
	p = stage(t, Options{Tarball: v2, Registry: dir, DryRun: true})
	var out bytes.Buffer
	p.WriteText(&out, true)
	if p.Tree != SpecV2 || !strings.Contains(out.String(), "tree v2: .well-known/openwop-registry.json advertises a v2 tree (endpoints.v2)") {
		t.Errorf("v2 dry run:\n%s", out.String())
	}
}
