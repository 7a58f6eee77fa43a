package publish

import (
	"path/filepath"
	"strings"
	"testing"
)

// checkWithScripts runs the registry's own index, SBOM, signature,
// advisory and consistency checks over the checkout and fails on any
// failure or drift. build-index.mjs also renders the landing page
// registry/index.html, which wopkit does not stage: its drift alone is
// expected and reported by the script; every other line must be clean.
func checkWithScripts(t *testing.T, dir string) {
	t.Helper()
	out, err := node(t, dir, "registry/scripts/build-index.mjs", "--check")
	if err != nil {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "[build-index --check]") && !strings.HasSuffix(l, "index.html would change") && !strings.HasSuffix(l, "robots.txt would change") {
				t.Errorf("build-index --check: %s", l)
			}
		}
	}
	for _, script := range [][]string{
		{"registry/scripts/generate-sbom.mjs", "--check"},
		{"registry/scripts/verify-signatures.mjs"},
		{"registry/scripts/check-advisories.mjs"},
		{"scripts/check-pack-tarball-signatures.mjs"},
		{"scripts/check-registry-signer-consistency.mjs"},
	} {
		if out, err := node(t, dir, script...); err != nil {
			t.Errorf("%s failed on the staged tree: %v\n%s", strings.Join(script, " "), err, out)
		}
	}
}

func TestFixtureReleasesPassTheRegistryScripts(t *testing.T) {
	needNode(t)
	dir := emptyRegistry(t)
	for _, tgz := range fixtureReleases(t) {
		p := publishOK(t, Options{Tarball: tgz, Registry: dir, Spec: SpecV1})
		if p.NoOp || len(p.Changes) == 0 {
			t.Fatalf("%s: nothing staged", tgz)
		}
	}
	checkWithScripts(t, dir)

	// A second run of every release changes no byte.
	before := treeHashes(t, filepath.Join(dir, "registry"))
	for _, tgz := range fixtureReleases(t) {
		if p := publishOK(t, Options{Tarball: tgz, Registry: dir, Spec: SpecV1}); !p.NoOp {
			t.Errorf("%s: second run planned %d change(s)", tgz, len(p.Changes))
		}
	}
	sameTree(t, before, treeHashes(t, filepath.Join(dir, "registry")))
}
