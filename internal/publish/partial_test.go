package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
)

// partialV2Checkout copies ../shared/spec-v2/registry: 10 of the 156 packs
// its v2/index.json lists, as a sparse checkout of the registry would hold.
// It returns the registry root, with a test key registered.
func partialV2Checkout(t *testing.T) (string, func(name, version string) string) {
	t.Helper()
	root := t.TempDir()
	fixtures.CopyInto(t, filepath.Join(fixtures.SpecV2(t), "registry"), root)
	if err := os.MkdirAll(filepath.Join(root, "keys"), 0o755); err != nil {
		t.Fatal(err)
	}
	key := addTestKey(t, root, "active")
	return root, func(name, version string) string { return release(t, key, sign.MethodV2, name, version, nil) }
}

// Publishing into a partial checkout would rebuild the registry index from
// the 10 packs it holds and drop the other 146: it is refused, naming the
// first missing packs and their count, and nothing changes.
func TestPartialCheckoutRefused(t *testing.T) {
	t.Parallel()
	root, rel := partialV2Checkout(t)
	tgz := rel("community.wopkit-test.hello", "1.0.0")
	before := treeHashes(t, root)
	_, err := Stage(t.Context(), Options{Tarball: tgz, Registry: root})
	refuse(t, Options{Tarball: tgz, Registry: root}, "registry_partial")
	for _, w := range []string{"lists 146 pack(s) whose folders are not in", "… and 141 more", "the checkout is partial", "--rebuild-index"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("refusal lacks %q: %v", w, err)
		}
	}
	// yank and deprecate rebuild the index too: refused the same way.
	if _, err := Yank(LifecycleOptions{Registry: root, Name: "vendor.openwop.prompt-sample", Version: "1.0.1", Reason: "x"}); err == nil || !strings.Contains(err.Error(), "partial") {
		t.Errorf("yank on a partial checkout: %v", err)
	}
	sameTree(t, before, treeHashes(t, root))

	// Asked to rebuild, the plan says which entries are removed, and never
	// calls a removal a change.
	p := stage(t, Options{Tarball: tgz, Registry: root, RebuildIndex: true})
	if len(p.Removed) != 146 {
		t.Fatalf("removed %d entries, want 146", len(p.Removed))
	}
	diff := strings.Join(p.IndexDiff, "\n")
	if !strings.Contains(diff, "removed from v2/index.json: the packs[] entries of 146 pack(s) whose folders are not in the tree") {
		t.Errorf("diff does not say removed:\n%s", lastLines(diff, 3))
	}
	for _, n := range p.Notes {
		if strings.Contains(n, "change") && strings.Contains(n, p.Removed[0]) {
			t.Errorf("a removal is called a change: %s", n)
		}
	}
}

// A stale registry index (entries that differ from the packs' folders) is
// rewritten, and the plan says which other entries change; an entry whose
// folder is gone is refused, then removed with RebuildIndex and said so.
func TestStaleRegistryIndexNoted(t *testing.T) {
	t.Parallel()
	dir := minimalRegistry(t)
	root := filepath.Join(dir, "registry")
	key := addTestKey(t, root, "active")
	const name, other = "community.wopkit-test.hello", "community.wopkit-test.other"
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, other, "1.0.0", nil), Registry: dir})
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, name, "1.0.0", nil), Registry: dir})
	idx := filepath.Join(root, "v2", "index.json")
	v, err := jsjson.Parse(readFileT(t, idx), idx)
	if err != nil {
		t.Fatal(err)
	}
	packs := jsjson.Array(jsjson.Field(v, "packs"))
	for _, e := range packs {
		if n, _ := jsjson.Str(jsjson.Field(e, "name")); n == other {
			e.(*jsjson.Obj).Set("description", "stale")
		}
	}
	writeFile(t, idx, string(jsjson.Stringify(v)))
	next := release(t, key, sign.MethodV2, name, "1.1.0", nil)
	p := stage(t, Options{Tarball: next, Registry: dir})
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "the entries of 1 other pack(s) change ("+other+")") || len(p.Removed) != 0 {
		t.Errorf("notes: %q, removed %q", p.Notes, p.Removed)
	}

	v.(*jsjson.Obj).Set("packs", append(packs, jsjson.NewObj().Set("name", "community.gone.pack")))
	writeFile(t, idx, string(jsjson.Stringify(v)))
	refuse(t, Options{Tarball: next, Registry: dir}, "registry_partial")
	p = stage(t, Options{Tarball: next, Registry: dir, RebuildIndex: true})
	if strings.Join(p.Removed, ",") != "community.gone.pack" || !strings.Contains(strings.Join(p.IndexDiff, "\n"), "removed from v2/index.json: the packs[] entries of 1 pack(s) whose folders are not in the tree (community.gone.pack)") {
		t.Errorf("removed %q, diff:\n%s", p.Removed, strings.Join(p.IndexDiff, "\n"))
	}
	for _, n := range p.Notes {
		if strings.Contains(n, "community.gone.pack") && strings.Contains(n, "change") {
			t.Errorf("a removal is called a change: %s", n)
		}
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}
