package pack

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
)

// Requirement 1: repacking every manual-signed fixture with --sign none
// gives the registry's tar stream byte for byte, and the fixture's .sig
// beside it.
func TestRepackFixturesIdentical(t *testing.T) {
	t.Parallel()
	// The legacy ed25519 tarball was made with `tar -czf`, not a registry builder.
	tgzs := fixtures.Tarballs(t, "manual")
	for _, tgzPath := range tgzs {
		want, _ := os.ReadFile(tgzPath)
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(tgzPath))), func(t *testing.T) {
			dir := fixtures.Untar(t, tgzPath, t.TempDir())
			out := filepath.Join(t.TempDir(), "out.tgz")
			res, err := Pack(context.Background(), Options{Dir: dir, Output: out, NoValidate: true})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(out)
			if !bytes.Equal(fixtures.Gunzip(t, got), fixtures.Gunzip(t, want)) {
				t.Errorf("tar stream differs from %s", tgzPath)
			}
			// The gzip header (XFL follows the level: the builder's is 9) and
			// trailer (CRC-32, size) are the registry's bytes too; only the
			// deflate stream differs (zlib vs klauspost/compress matches).
			if len(got) < 18 || !bytes.Equal(got[:10], want[:10]) || !bytes.Equal(got[len(got)-8:], want[len(want)-8:]) {
				t.Errorf("gzip header % x / trailer % x, the registry's % x / % x", got[:min(10, len(got))], got[max(0, len(got)-8):], want[:10], want[len(want)-8:])
			}
			wantSig, _ := os.ReadFile(strings.TrimSuffix(tgzPath, ".tgz") + ".sig")
			gotSig, err := os.ReadFile(filepath.Join(filepath.Dir(out), "out.sig"))
			if err != nil || !bytes.Equal(gotSig, wantSig) {
				t.Errorf("detached signature differs (%v)", err)
			}
			if res.Method != sign.MethodManual || res.Integrity != Integrity(got) {
				t.Errorf("result %+v", res)
			}
		})
	}
	if len(tgzs) < 6 {
		t.Errorf("only %d manual-signed fixtures found", len(tgzs))
	}
}

// The version manifest is the source manifest's members in source order plus
// signing and integrity, as the registry's <version>.json files are.
func TestVersionManifestMatchesRegistry(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(fixtures.Path(t, "source-packs", "core.openwop.agents.react", "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(fixtures.Path(t, "registry", "v1", "packs", "core.openwop.agents.react", "-", "1.0.3.json"))
	m, err := ParseManifest(src, "pack.json")
	if err != nil {
		t.Fatal(err)
	}
	block := map[string]any{"method": "manual", "publicKeyRef": "openwop-team-1", "signatureRef": "keys/pack.json.sig"}
	got, err := m.VersionManifest(block, "sha256-QX7oZLRcM8O6s9hN216kkBi2z76M9BkfrThr4R9hNB4=")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
		t.Errorf("version manifest differs from the registry's:\n%s", got)
	}
	// The canonical pack.json signed with the registry's block is the
	// registry's in-tarball pack.json.
	pj, err := m.Canonical(block, false)
	if err != nil {
		t.Fatal(err)
	}
	inTar := fixtures.File(t, fixtures.Tarball(t, "core.openwop.agents.react", "1.0.3"), "pack.json")
	if !bytes.Equal(pj, inTar) {
		t.Errorf("canonical pack.json differs:\n%s\nwant\n%s", pj, inTar)
	}
}
