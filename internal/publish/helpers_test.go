package publish

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/validate"
)

// v2Endpoints is the v2 tree of the real registry's discovery document at
// spec v2 (../shared/spec-v2/registry/.well-known/openwop-registry.json).
const v2Endpoints = `"v2": {"registryIndex": "/v2/index.json", "packMetadata": "/v2/packs/{name}/index.json", "versionManifest": "/v2/packs/{name}/-/{version}.json", "versionTarball": "/v2/packs/{name}/-/{version}.tgz", "versionSignature": "/v2/packs/{name}/-/{version}.sig"}`

// advertiseV2 adds the v2 tree to a discovery document's endpoints, as the
// registry's own does once it serves v2: the test checkouts copied from
// the v1 fixture registry are written into as v2 registries (publish
// refuses a v2 tree a document does not advertise; tree_test.go checks
// that on a v1-only copy).
func advertiseV2(doc []byte) []byte {
	if bytes.Contains(doc, []byte(`"v2"`)) {
		return doc
	}
	if i := bytes.Index(doc, []byte(`"endpoints": {`)); i >= 0 {
		i += len(`"endpoints": {`)
		return slices.Concat(doc[:i], []byte("\n    "+v2Endpoints+","), doc[i:])
	}
	if i := bytes.IndexByte(doc, '{'); i >= 0 {
		return slices.Concat(doc[:i+1], []byte(`"endpoints": {`+v2Endpoints+`},`), doc[i+1:])
	}
	return doc
}

// emptyRegistry makes a checkout laid out like the registry repository, with
// the registry's scripts (from the work tree WOPKIT_REGISTRY_CHECKOUT
// names), its data (../shared/registry-data: package.json, the version
// manifest schema, the real advisories file), the fixture registry's
// discovery document and keys, and no pack. It returns the checkout; it
// skips without a registry checkout or ../shared.
func emptyRegistry(t testing.TB) string {
	t.Helper()
	return emptyRegistryOf(t, fixtures.RegistryCheckout(t), fixtures.Shared(t, "registry-data"), fixtures.Registry(t))
}

// emptyRegistryOf is emptyRegistry from the registry's work tree (its
// scripts), its data and the
// fixture registry found by the caller: it never skips (a checkout built
// once for the test binary must not: see oracleRegistry).
func emptyRegistryOf(t testing.TB, checkout, data, fx string) string {
	t.Helper()
	dir := t.TempDir()
	fixtures.CopyInto(t, filepath.Join(checkout, "registry", "scripts"), filepath.Join(dir, "registry", "scripts"))
	fixtures.CopyInto(t, filepath.Join(checkout, "scripts"), filepath.Join(dir, "scripts"))
	fixtures.CopyInto(t, filepath.Join(fx, ".well-known"), filepath.Join(dir, "registry", ".well-known"))
	wk := filepath.Join(dir, "registry", ".well-known", "openwop-registry.json")
	writeFile(t, wk, string(advertiseV2(readFileT(t, wk))))
	fixtures.CopyInto(t, filepath.Join(fx, "keys"), filepath.Join(dir, "registry", "keys"))
	for src, dst := range map[string]string{
		"package.json":                          "package.json",
		"registry-version-manifest.schema.json": "schemas/registry-version-manifest.schema.json",
		"advisories.example.json":               "registry/security/advisories.json",
	} {
		b, err := os.ReadFile(filepath.Join(data, src))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func needNode(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: skipping the checks with the registry's own scripts")
	}
}

// node runs a registry script in the checkout and returns its output.
func node(t testing.TB, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Env = append(nodeEnv(), "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// nodeEnv is the environment without NODE_EXTRA_CA_CERTS: node reads and
// parses that whole certificate bundle as it starts (100 ms of CPU for
// the system bundle, twice what the rest of its start costs), and the
// registry's scripts open no connection.
func nodeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NODE_EXTRA_CA_CERTS=") {
			env = append(env, kv)
		}
	}
	return env
}

// treeHashes maps every file under dir to its SHA-256 (a link to its
// target, a special file to its type: neither is followed or opened).
func treeHashes(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			out[rel+"/"] = "dir"
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "link to " + target
			return err
		case !d.Type().IsRegular():
			out[rel] = d.Type().String() // a FIFO: never opened
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(s[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t testing.TB, before, after map[string]string) {
	t.Helper()
	var diff []string
	for k, v := range before {
		if after[k] != v {
			diff = append(diff, "changed or removed: "+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			diff = append(diff, "added: "+k)
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		t.Fatalf("the tree changed:\n%s", strings.Join(diff, "\n"))
	}
}

// fixtureReleases returns the fixture registry's tarballs signed over
// pack.json (method manual), ordered by name and version. The one legacy
// release (whole-tarball ed25519 signature, no signing block in its
// pack.json, yanked) cannot be staged: its version manifest was written by
// hand, and publish refuses a pack.json without a signing block. Two
// releases the registry holds do not validate against the spec's v1 schemas
// (core.openwop.flow: category "flow"; core.openwop.agents.classifier:
// agents[].role): publish refuses them (pack_invalid) unless the test
// calls stageInvalidFixtures.
func fixtureReleases(t testing.TB) []string {
	t.Helper()
	tgzs := fixtures.Tarballs(t, "manual")
	sort.Strings(tgzs)
	return tgzs
}

// stageInvalidFixtures lets the test stage the fixture releases that do not
// validate (see fixtureReleases), to check what publish computes for them
// against the registry's scripts.
func stageInvalidFixtures(t testing.TB) {
	validatePack = func(*tarball.Archive, []byte, string, string, validate.TypeCatalog) error { return nil }
	t.Cleanup(func() { validatePack = validateManifest })
}

func stage(t testing.TB, o Options) *Plan {
	t.Helper()
	p, err := Stage(context.Background(), o)
	if err != nil {
		t.Fatalf("stage %s: %v", o.Tarball, err)
	}
	return p
}

func publishOK(t testing.TB, o Options) *Plan {
	t.Helper()
	p := stage(t, o)
	if err := p.Apply(); err != nil {
		t.Fatalf("apply %s: %v", o.Tarball, err)
	}
	return p
}

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// minimalRegistry makes a checkout whose registry root holds only a
// discovery document with an empty keychain, for tests that need nothing
// from ../shared.
func minimalRegistry(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "registry", ".well-known", "openwop-registry.json"), string(advertiseV2([]byte(`{"registryVersion":"1.0.0","signingKeys":[]}`+"\n"))))
	if err := os.MkdirAll(filepath.Join(dir, "registry", "keys"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
