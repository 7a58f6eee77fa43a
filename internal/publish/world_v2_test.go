package publish

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
)

// The per-pack index.json and registry index entries the live registry
// wrote for v2 packs (../shared/spec-v2/registry) are reproduced from their
// version manifests.
func TestV2IndexesMatchTheRegistry(t *testing.T) {
	t.Parallel()
	sv := fixtures.SpecV2(t)
	src := filepath.Join(sv, "registry")
	root := t.TempDir()
	fixtures.CopyInto(t, filepath.Join(src, ".well-known"), filepath.Join(root, ".well-known"))
	for _, pv := range [][2]string{{"community.openwop-team.demo", "0.1.2"}, {"vendor.openwop.prompt-sample", "1.0.1"}} {
		rel := filepath.Join("v2", "packs", pv[0], "-", pv[1]+".json")
		writeFile(t, filepath.Join(root, rel), string(readFileT(t, filepath.Join(src, rel))))
	}
	tr, err := OpenTree(root, SpecV2)
	if err != nil {
		t.Fatal(err)
	}
	regV, err := jsjson.Parse(readFileT(t, filepath.Join(src, "v2", "index.json")), "v2/index.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"community.openwop-team.demo", "vendor.openwop.prompt-sample"} {
		doc, err := tr.packDoc(name)
		if err != nil {
			t.Fatal(err)
		}
		want := readFileT(t, filepath.Join(src, "v2", "packs", name, "index.json"))
		if got := jsjson.Stringify(doc); string(got) != string(want) {
			t.Errorf("%s index.json:\n%s", name, strings.Join(lineDiff(name, want, got), "\n"))
		}
	}
	if err := tr.planIndexes(nil, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	ours, _ := jsjson.Parse(tr.overlay[tr.RegistryIndex()], "planned index")
	entry := func(doc any, name string) string {
		for _, e := range jsjson.Array(jsjson.Field(doc, "packs")) {
			if n, _ := jsjson.Str(jsjson.Field(e, "name")); n == name {
				return string(jsjson.Stringify(e))
			}
		}
		return ""
	}
	for _, name := range []string{"community.openwop-team.demo", "vendor.openwop.prompt-sample"} {
		if w, g := entry(regV, name), entry(ours, name); w == "" || w != g {
			t.Errorf("registry index entry of %s:\n%s", name, strings.Join(lineDiff(name, []byte(w), []byte(g)), "\n"))
		}
	}
	if g, _ := jsjson.Str(jsjson.Field(ours, "generatedAt")); g != "1970-01-01T00:00:00.000Z" {
		t.Errorf("generatedAt %q", g)
	}
}

// v2tools rewrites the registry's v1 SBOM script for the v2 tree (its
// paths are the only thing that differs; the v2 SBOMs in spec-v2 have the
// same shape), so it can check what wopkit stages into registry/v2.
func v2tools(t *testing.T, dir string) {
	t.Helper()
	p := filepath.Join(dir, "registry", "scripts", "generate-sbom.mjs")
	s := string(readFileT(t, p))
	s = regexp.MustCompile(`'v1'`).ReplaceAllString(s, "'v2'")
	s = strings.ReplaceAll(s, "/v1/packs/", "/v2/packs/")
	s = strings.ReplaceAll(s, "`/v1/", "`/v2/")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A v2 release wopkit scaffolds, packs and signs lands in the v2 tree with
// the v2 row shape, SBOMs the registry's generator agrees with, and the
// clock recorded once, from SOURCE_DATE_EPOCH.
func TestV2PublishScaffolded(t *testing.T) {
	needNode(t)
	dir := emptyRegistry(t)
	root := filepath.Join(dir, "registry")
	os.RemoveAll(filepath.Join(root, ".well-known")) // the v2 registry's own document replaces the fixture's
	fixtures.CopyInto(t, filepath.Join(fixtures.SpecV2(t), "registry", ".well-known"), filepath.Join(root, ".well-known"))
	key := addTestKey(t, root, "active")
	t.Setenv("SOURCE_DATE_EPOCH", "1790000000")
	const name = "community.wopkit-test.hello"
	for _, v := range []string{"1.0.0", "1.1.0"} {
		publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, name, v, nil), Registry: dir})
	}
	v2tools(t, dir)
	if out, err := node(t, dir, "registry/scripts/generate-sbom.mjs", "--check"); err != nil {
		t.Fatalf("generate-sbom --check (v2 paths): %v\n%s", err, out)
	}
	idx, err := jsjson.Parse(readFileT(t, filepath.Join(root, "v2", "packs", name, "index.json")), "index")
	if err != nil {
		t.Fatal(err)
	}
	rows := jsjson.Array(jsjson.Field(idx, "versions"))
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	keys := strings.Join(rows[1].(*jsjson.Obj).Keys(), ",")
	if keys != "version,manifestUrl,tarballUrl,signatureUrl,sbomUrl,signingScheme,signingKeyId,integrity,versionDeprecated,yanked" {
		t.Errorf("v2 row keys: %s", keys)
	}
	if u, _ := jsjson.Str(jsjson.Field(rows[1], "sbomUrl")); u != "/v2/packs/"+name+"/-/1.1.0.sbom.json" {
		t.Errorf("sbomUrl %q", u)
	}
	reg, _ := jsjson.Parse(readFileT(t, filepath.Join(root, "v2", "index.json")), "index")
	if g, _ := jsjson.Str(jsjson.Field(reg, "generatedAt")); g != "2026-09-21T14:13:20.000Z" {
		t.Errorf("generatedAt %q, want SOURCE_DATE_EPOCH's", g)
	}
	vm := readFileT(t, filepath.Join(root, "v2", "packs", name, "-", "1.1.0.json"))
	if strings.Contains(string(vm), "publishedAt") || !strings.Contains(string(vm), `"integrity": "sha256-`) {
		t.Errorf("v2 version manifest: %s", vm)
	}

	// Yank the latest: latest moves to the highest unyanked version; the
	// tarball, signature and SBOM do not change.
	before := treeHashes(t, root)
	p, err := Yank(LifecycleOptions{Registry: dir, Name: name, Version: "1.1.0", Reason: "broken"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	after := treeHashes(t, root)
	for _, ext := range []string{".tgz", ".sig", ".sbom.json"} {
		rel := filepath.Join("v2", "packs", name, "-", "1.1.0"+ext)
		if before[rel] != after[rel] {
			t.Errorf("yank changed %s", rel)
		}
	}
	idx, _ = jsjson.Parse(readFileT(t, filepath.Join(root, "v2", "packs", name, "index.json")), "index")
	if l, _ := jsjson.Str(jsjson.Field(idx, "latest")); l != "1.0.0" {
		t.Errorf("latest %q after yanking 1.1.0", l)
	}
	if out, err := node(t, dir, "registry/scripts/generate-sbom.mjs", "--check"); err != nil {
		t.Fatalf("generate-sbom --check after yank: %v\n%s", err, out)
	}

	// Deprecate with a superseding version: must be published and not yanked.
	if _, err := Deprecate(LifecycleOptions{Registry: dir, Name: name, Version: "1.0.0", Reason: "old", SupersededBy: "1.1.0"}); err == nil {
		t.Error("superseded by a yanked version accepted")
	}
	p, err = Deprecate(LifecycleOptions{Registry: dir, Name: name, Version: "1.1.0", Reason: "old", SupersededBy: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	m, _ := jsjson.Parse(readFileT(t, filepath.Join(root, "v2", "packs", name, "-", "1.1.0.json")), "vm")
	tail := m.(*jsjson.Obj).Keys()
	if got := strings.Join(tail[len(tail)-6:], ","); got != "integrity,yanked,yankedReason,versionDeprecated,deprecationReason,supersededBy" {
		t.Errorf("lifecycle members: %s", got)
	}
}
