package publish

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/publish/jsjson"
)

// oracleRegistry is a checkout holding the whole fixture registry slice with
// the indexes, SBOMs and schema mirror the registry's own scripts write.
// Every caller decides for itself whether to skip (no node, no ../shared),
// before the build shared by the test binary: a skip inside the sync.Once
// would be the first caller's alone, and every later caller would fail on
// the checkout it never built.
func oracleRegistry(t *testing.T) string {
	t.Helper()
	needNode(t)
	checkout, data, fx := fixtures.RegistryCheckout(t), fixtures.Shared(t, "registry-data"), fixtures.Registry(t)
	oracleOnce.Do(func() {
		dir := emptyRegistryOf(t, checkout, data, fx)
		fixtures.CopyInto(t, filepath.Join(fx, "v1"), filepath.Join(dir, "registry", "v1"))
		for _, s := range []string{"registry/scripts/build-index.mjs", "registry/scripts/generate-sbom.mjs"} {
			if out, err := node(t, dir, s); err != nil {
				t.Fatalf("%s on the fixture registry: %v\n%s", s, err, out)
			}
		}
		fixtures.CopyInto(t, dir, oracleHome)
		oracleBuilt = true
	})
	if !oracleBuilt {
		t.Fatal("the registry's scripts could not index the fixture registry (see the first test that asked for it)")
	}
	dir := t.TempDir()
	fixtures.CopyInto(t, oracleHome, dir)
	return dir
}

// The fixture registry as the registry's scripts index it, built once for
// the test binary (into oracleHome, made and removed by TestMain).
var (
	oracleOnce  sync.Once
	oracleHome  string
	oracleBuilt bool
)

// withoutClock drops the clock fields of a per-pack index (publishedAt of
// each version row).
func withoutClock(t *testing.T, b []byte, where string) string {
	t.Helper()
	v, err := jsjson.Parse(b, where)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range jsjson.Array(jsjson.Field(v, "versions")) {
		row.(*jsjson.Obj).Delete("publishedAt")
	}
	return string(jsjson.Stringify(v))
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Re-staging every fixture release into an empty tree reproduces the index
// entries the registry's scripts compute for the fixture registry.
func TestRestageReproducesFixtureIndexEntries(t *testing.T) {
	// Serial: stageInvalidFixtures swaps a package variable.
	stageInvalidFixtures(t)
	oracle := oracleRegistry(t)
	dir := emptyRegistry(t)
	staged := map[string]bool{}
	for _, tgz := range fixtureReleases(t) {
		fixture := readFile(t, strings.TrimSuffix(tgz, ".tgz")+".json")
		fm, err := jsjson.Parse(fixture, tgz)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Unix(1778457600, 0)
		published, hasClock := jsjson.Str(jsjson.Field(fm, "publishedAt"))
		if hasClock {
			if now, err = time.Parse(time.RFC3339, published); err != nil {
				t.Fatal(err)
			}
		}
		p := publishOK(t, Options{Tarball: tgz, Registry: dir, Spec: SpecV1, Now: now})
		staged[p.Name] = true
		if len(p.Notes) != 0 {
			t.Errorf("%s: %v", tgz, p.Notes)
		}
		// The version manifest: the registry's, field for field and in its
		// order; the hand-staged release (publishedAt and URLs recorded)
		// byte for byte apart from the lifecycle flags wopkit leaves to yank
		// and deprecate.
		ours, err := jsjson.Parse(readFile(t, filepath.Join(dir, "registry", "v1", "packs", p.Name, "-", p.Version+".json")), "staged")
		if err != nil {
			t.Fatal(err)
		}
		strip := []string{"deprecated", "yanked", "yankedReason"}
		if !hasClock {
			strip = append(strip, "publishedAt", "tarballUrl", "signatureUrl")
		}
		for _, k := range strip {
			fm.(*jsjson.Obj).Delete(k)
			ours.(*jsjson.Obj).Delete(k)
		}
		if a, b := jsjson.Stringify(fm), jsjson.Stringify(ours); string(a) != string(b) {
			t.Errorf("%s version manifest:\n%s", tgz, strings.Join(lineDiff("manifest", a, b), "\n"))
		}
	}
	if len(staged) < 5 {
		t.Fatalf("only %d packs staged", len(staged))
	}
	for name := range staged {
		rel := filepath.Join("registry", "v1", "packs", name, "index.json")
		want := withoutClock(t, readFile(t, filepath.Join(oracle, rel)), "oracle "+rel)
		got := withoutClock(t, readFile(t, filepath.Join(dir, rel)), rel)
		if got != want {
			t.Errorf("%s differs from the registry's:\n%s", rel, strings.Join(lineDiff(rel, []byte(want), []byte(got)), "\n"))
		}
	}
	entries := func(root string) map[string]string {
		v, err := jsjson.Parse(readFile(t, filepath.Join(root, "registry", "v1", "index.json")), "index")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, e := range jsjson.Array(jsjson.Field(v, "packs")) {
			n, _ := jsjson.Str(jsjson.Field(e, "name"))
			out[n] = string(jsjson.Stringify(e))
		}
		return out
	}
	want, got := entries(oracle), entries(dir)
	for name := range staged {
		if got[name] != want[name] {
			t.Errorf("registry index entry of %s:\n%s", name, strings.Join(lineDiff(name, []byte(want[name]), []byte(got[name])), "\n"))
		}
	}
}

// Publishing a release the tree already holds, byte for byte, is a no-op.
func TestRepublishIdenticalIsNoOp(t *testing.T) {
	// Serial: stageInvalidFixtures swaps a package variable.
	stageInvalidFixtures(t)
	oracle := oracleRegistry(t)
	before := treeHashes(t, oracle)
	for _, tgz := range fixtureReleases(t) {
		p := stage(t, Options{Tarball: tgz, Registry: oracle, Spec: SpecV1})
		if !p.NoOp || len(p.Changes) != 0 {
			t.Errorf("%s: planned %d change(s) for a published release", tgz, len(p.Changes))
		}
		if err := p.Apply(); err != nil {
			t.Fatal(err)
		}
	}
	sameTree(t, before, treeHashes(t, oracle))
}

// nodeEdit sets members of a version manifest the way a maintainer following
// the registry's runbook does (JSON.parse, assign, JSON.stringify(m, null, 2)),
// then rebuilds the indexes with build-index.mjs.
func nodeEdit(t *testing.T, dir, manifest, assignments string) {
	t.Helper()
	script := "const fs=require('fs');const p=process.argv[1];const m=JSON.parse(fs.readFileSync(p,'utf8'));" +
		assignments + ";fs.writeFileSync(p,JSON.stringify(m,null,2)+'\\n')"
	if out, err := node(t, dir, "-e", script, manifest); err != nil {
		t.Fatalf("node edit: %v\n%s", err, out)
	}
	if out, err := node(t, dir, "registry/scripts/build-index.mjs"); err != nil {
		t.Fatalf("build-index: %v\n%s", err, out)
	}
}

// Yank and deprecate in the v1 tree leave the same bytes as the registry's
// runbook edit followed by build-index.mjs.
func TestYankAndDeprecateMatchTheRegistryEdit(t *testing.T) {
	cases := []struct {
		name       string
		run        func(reg string) (*Plan, error)
		assignment string
	}{
		{"yank", func(reg string) (*Plan, error) {
			return Yank(LifecycleOptions{Registry: reg, Spec: SpecV1, Name: "core.openwop.flow", Version: "1.1.0", Reason: "OPENWOP-2026-0099: broken"})
		}, "m.yanked=true;m.yankedReason='OPENWOP-2026-0099: broken'"},
		{"deprecate", func(reg string) (*Plan, error) {
			return Deprecate(LifecycleOptions{Registry: reg, Spec: SpecV1, Name: "core.openwop.flow", Version: "1.1.0", Reason: "use 2.x", SupersededBy: "core.openwop.a2a@1.1.0"})
		}, "m.deprecated=true;m.deprecationReason='use 2.x';m.supersededBy='core.openwop.a2a@1.1.0'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			oracle := oracleRegistry(t)
			ours := t.TempDir()
			fixtures.CopyInto(t, oracle, ours)
			nodeEdit(t, oracle, "registry/v1/packs/core.openwop.flow/-/1.1.0.json", c.assignment)

			p, err := c.run(ours)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Changes) == 0 || len(p.IndexDiff) == 0 {
				t.Fatalf("nothing planned: %+v", p)
			}
			if err := p.Apply(); err != nil {
				t.Fatal(err)
			}
			// The landing pages differ only in their time stamps.
			a, b := filepath.Join(oracle, "registry", landingPath), filepath.Join(ours, "registry", landingPath)
			if stripStamp(string(readFile(t, a))) != stripStamp(string(readFile(t, b))) {
				t.Errorf("the landing pages differ: diff %s %s", a, b)
			}
			os.WriteFile(b, readFile(t, a), 0o644)
			sameTree(t, treeHashes(t, filepath.Join(oracle, "registry")), treeHashes(t, filepath.Join(ours, "registry")))
			checkWithScripts(t, ours)
			// Again: nothing left to do.
			if p, err := c.run(ours); err != nil || !p.NoOp {
				t.Errorf("second run: %v, %+v", err, p)
			}
		})
	}
}
