package sbom

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/publish/jsjson"
)

// Every SBOM of the fixture registry, and the aggregate, equal what the
// registry's generate-sbom.mjs writes for it.
func TestMatchesGenerateSBOM(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: skipping the comparison with generate-sbom.mjs")
	}
	tools := fixtures.RegistryCheckout(t)
	reg := fixtures.Registry(t)
	dir := t.TempDir()
	fixtures.CopyInto(t, filepath.Join(reg, "v1"), filepath.Join(dir, "registry", "v1"))
	fixtures.CopyInto(t, filepath.Join(tools, "registry", "scripts"), filepath.Join(dir, "registry", "scripts"))
	cmd := exec.Command("node", "registry/scripts/generate-sbom.mjs")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate-sbom: %v\n%s", err, out)
	}
	tgzs, _ := filepath.Glob(filepath.Join(dir, "registry", "v1", "packs", "*", "-", "*.tgz"))
	if len(tgzs) < 5 {
		t.Fatalf("%d tarballs", len(tgzs))
	}
	var refs []Ref
	for _, tgz := range tgzs {
		base := strings.TrimSuffix(tgz, ".tgz")
		name := filepath.Base(filepath.Dir(filepath.Dir(tgz)))
		version := filepath.Base(base)
		manifest, err := jsjson.Parse(read(t, base+".json"), base+".json")
		if err != nil {
			t.Fatal(err)
		}
		got, err := Version(name, version, manifest, read(t, tgz))
		if err != nil {
			t.Fatal(err)
		}
		if want := read(t, base+".sbom.json"); string(got) != string(want) {
			t.Errorf("%s@%s: SBOM differs from generate-sbom.mjs's", name, version)
		}
		sum := sha256.Sum256(got)
		refs = append(refs, Ref{Name: name, Version: version, URL: "/v1/packs/" + name + "/-/" + version + ".sbom.json", SHA256: hex.EncodeToString(sum[:])})
	}
	if got, want := Aggregate(refs), read(t, filepath.Join(dir, "registry", "v1", "sbom.json")); string(got) != string(want) {
		t.Errorf("aggregate SBOM differs from generate-sbom.mjs's")
	}
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
