package pack

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sign"
)

// fixtures is ../shared/fixtures beside the repository root, or a skip.
func fixtures(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "fixtures")
	if _, err := os.Stat(filepath.Join(dir, "registry")); err != nil {
		t.Skipf("shared fixtures not found at %s (they live beside the repository on developer machines)", dir)
	}
	return dir
}

// gunzip returns the tar stream inside a .tgz.
func gunzip(t *testing.T, tgz []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// untar extracts a registry tarball with archive/tar (independently of the
// tarball package) into dir.
func untar(t *testing.T, tgz []byte, dir string) {
	t.Helper()
	tr := tar.NewReader(bytes.NewReader(gunzip(t, tgz)))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		if h.Typeflag == tar.TypeDir || name == "" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		data, _ := io.ReadAll(tr)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// Requirement 1: repacking every manual-signed fixture with --sign none
// gives the registry's tar stream byte for byte, and the fixture's .sig
// beside it.
func TestRepackFixturesIdentical(t *testing.T) {
	reg := filepath.Join(fixtures(t), "registry", "v1", "packs")
	tgzs, _ := filepath.Glob(filepath.Join(reg, "*", "-", "*.tgz"))
	n := 0
	for _, tgzPath := range tgzs {
		want, _ := os.ReadFile(tgzPath)
		if bytes.Contains(gunzip(t, want)[:100], []byte("./")) {
			continue // legacy tarball made with `tar -czf`: not a registry-builder stream
		}
		n++
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(tgzPath))), func(t *testing.T) {
			dir := t.TempDir()
			untar(t, want, dir)
			out := filepath.Join(t.TempDir(), "out.tgz")
			res, err := Pack(context.Background(), Options{Dir: dir, Output: out, NoValidate: true})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(out)
			if !bytes.Equal(gunzip(t, got), gunzip(t, want)) {
				t.Errorf("tar stream differs from %s", tgzPath)
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
	if n < 6 {
		t.Errorf("only %d manual-signed fixtures found", n)
	}
}

// The version manifest is the source manifest's members in source order plus
// signing and integrity, as the registry's <version>.json files are.
func TestVersionManifestMatchesRegistry(t *testing.T) {
	fx := fixtures(t)
	src, err := os.ReadFile(filepath.Join(fx, "source-packs", "core.openwop.agents.react", "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(fx, "registry", "v1", "packs", "core.openwop.agents.react", "-", "1.0.3.json"))
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
	tgz, _ := os.ReadFile(filepath.Join(fx, "registry", "v1", "packs", "core.openwop.agents.react", "-", "1.0.3.tgz"))
	dir := t.TempDir()
	untar(t, tgz, dir)
	inTar, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if !bytes.Equal(pj, inTar) {
		t.Errorf("canonical pack.json differs:\n%s\nwant\n%s", pj, inTar)
	}
}
