package verify

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
)

// fixtureTarballs returns all seven published fixture tarballs.
func fixtureTarballs(t testing.TB) []string {
	tgzs := fixtures.Tarballs(t, "")
	if len(tgzs) < 7 {
		t.Fatalf("expected 7 fixture tarballs, found %d", len(tgzs))
	}
	return tgzs
}

func openRegistry(t testing.TB, dir string) *registry.Root {
	r, err := registry.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Requirement 4: every fixture verifies against the fixture registry root.
func TestFixturesVerify(t *testing.T) {
	reg := fixtures.Registry(t)
	root := openRegistry(t, reg)
	for _, tgz := range fixtureTarballs(t) {
		legacy := strings.Contains(tgz, "rust-hello")
		if legacy { // the yanked version is refused by default
			if r := File(context.Background(), tgz, Policy{Registry: root}); r.Verified || r.Error.Code != "pack_yanked" {
				t.Errorf("%s: a yanked version verified without AllowYanked: %+v", tgz, r.Error)
			}
		}
		r := File(context.Background(), tgz, Policy{Registry: root, AllowYanked: true})
		if !r.Verified {
			t.Errorf("%s: %+v", tgz, r.Error)
			continue
		}
		if legacy && !strings.Contains(strings.Join(r.Notes, "\n"), "yanked") {
			t.Errorf("%s: accepted yanked version carries no warning: %v", tgz, r.Notes)
		}
		if !r.IntegrityChecked || r.KeyID == "" || r.Name == "" {
			t.Errorf("%s: incomplete result %+v", tgz, r)
		}
		if legacy != (r.Method == sign.MethodLegacy) || legacy != r.Yanked || (legacy && r.CoversOnly != "tarball") {
			t.Errorf("%s: method %s yanked %v covers %s", tgz, r.Method, r.Yanked, r.CoversOnly)
		}
		if !legacy && (r.Method != sign.MethodManual || r.CoversOnly != "pack.json") {
			t.Errorf("%s: method %s covers %s", tgz, r.Method, r.CoversOnly)
		}
	}
}

// With only a key, verification says that only pack.json is covered.
func TestKeyOnly(t *testing.T) {
	reg := fixtures.Registry(t)
	pub, err := sign.LoadPublicKey(filepath.Join(reg, "keys", "openwop-team-1.pub"))
	if err != nil {
		t.Fatal(err)
	}
	tgz := filepath.Join(reg, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz")
	// Alone in a folder: nothing vouches for the other files.
	alone := filepath.Join(t.TempDir(), "1.1.0.tgz")
	data, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := File(context.Background(), alone, Policy{Key: pub}); !r.Verified || r.IntegrityChecked || r.ReleaseChecked || len(r.Notes) == 0 || r.Notes[0] != NoteUncovered {
		t.Errorf("key-only result %+v", r)
	}
	// Beside its version manifest (the registry's 1.1.0.json): checked
	// against it, and said so.
	r := File(context.Background(), tgz, Policy{Key: pub})
	if !r.Verified || r.IntegrityChecked || !r.ReleaseChecked || len(r.Notes) == 0 || r.Notes[0] != noteRelease(r.ReleaseManifest) ||
		!strings.HasPrefix(r.Notes[0], "only pack.json is covered by the signature") {
		t.Errorf("key-only result beside its .json %+v", r)
	}
	other, _ := sign.LoadPublicKey(filepath.Join(reg, "keys", "myndhyve-internal-1.pub"))
	if r := File(context.Background(), tgz, Policy{Key: other}); r.Verified || r.Error.Code != "pack_signature_invalid" {
		t.Errorf("wrong key: %+v", r.Error)
	}
	root, _ := sign.LoadPublicKey(filepath.Join(reg, "keys", "openwop-registry-root.pub"))
	legacy := filepath.Join(reg, "v1", "packs", "vendor.openwop.rust-hello", "-", "1.0.0.tgz")
	if r := File(context.Background(), legacy, Policy{Key: root}); !r.Verified || r.Method != sign.MethodLegacy {
		t.Errorf("legacy with key: %+v %+v", r, r.Error)
	}
}

func regzip(stream []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(stream)
	zw.Close()
	return b.Bytes()
}

// entryData returns the content of name inside a tar stream and its offset.
func entryData(t testing.TB, stream []byte, name string) (int, []byte) {
	tr := tar.NewReader(bytes.NewReader(stream))
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s not found: %v", name, err)
		}
		if strings.TrimPrefix(h.Name, "./") == name {
			data, _ := io.ReadAll(tr)
			off := bytes.Index(stream, data)
			return off, data
		}
	}
}

// flip changes one byte of entry name (at index at) inside a tar stream.
func flip(t testing.TB, stream []byte, name string, at int) []byte {
	off, data := entryData(t, stream, name)
	if at < 0 {
		at = len(data) / 2
	}
	out := bytes.Clone(stream)
	out[off+at] ^= 0x01
	return out
}

// Requirement 4: one changed byte anywhere, or a key not granted the
// namespace, fails with the stable code of docs/CLI.md.
func TestTampering(t *testing.T) {
	reg := fixtures.Registry(t)
	root := openRegistry(t, reg)
	src := filepath.Join(reg, "v1", "packs", "core.openwop.a2a", "-", "1.1.0")
	tgz, _ := os.ReadFile(src + ".tgz")
	sig, _ := os.ReadFile(src + ".sig")
	stream := fixtures.Gunzip(t, tgz)
	_, pj := entryData(t, stream, "pack.json")
	descAt := bytes.Index(pj, []byte(`"description":"`)) + 20
	badSig := bytes.Clone(sig)
	badSig[10] ^= 0x01

	for _, tc := range []struct {
		name   string
		tgz    []byte
		sig    []byte // nil: no detached signature
		policy Policy
		code   string
	}{
		{"pack.json byte, embedded signature", regzip(flip(t, stream, "pack.json", descAt)), nil, Policy{Registry: root}, "pack_signature_invalid"},
		{"pack.json byte, detached signature", regzip(flip(t, stream, "pack.json", descAt)), sig, Policy{Registry: root}, "pack_signature_invalid"},
		{"signature byte in both", regzip(flip(t, stream, "keys/pack.json.sig", 10)), badSig, Policy{Registry: root}, "pack_signature_invalid"},
		{"embedded signature byte", regzip(flip(t, stream, "keys/pack.json.sig", 10)), nil, Policy{Registry: root}, "pack_signature_invalid"},
		{"detached differs from embedded", tgz, badSig, Policy{Registry: root}, "signature_conflict"},
		{"README byte", regzip(flip(t, stream, "README.md", -1)), sig, Policy{Registry: root}, "pack_integrity_mismatch"},
		{"index.mjs byte", regzip(flip(t, stream, "index.mjs", -1)), nil, Policy{Registry: root}, "pack_integrity_mismatch"},
		{"same bytes regzipped", regzip(stream), sig, Policy{Registry: root}, "pack_integrity_mismatch"},
		{"unchanged", tgz, sig, Policy{Registry: root}, ""},
		{"truncated", tgz[:len(tgz)/2], sig, Policy{Registry: root}, "tarball_corrupt"},
		{"not gzip", stream, sig, Policy{Registry: root}, "tarball_corrupt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "1.1.0.tgz")
			os.WriteFile(p, tc.tgz, 0o644)
			if tc.sig != nil {
				os.WriteFile(filepath.Join(dir, "1.1.0.sig"), tc.sig, 0o644)
			}
			r := File(context.Background(), p, tc.policy)
			got := ""
			if r.Error != nil {
				got = r.Error.Code
			}
			if got != tc.code || r.Verified != (tc.code == "") {
				t.Errorf("code %q verified %v, want %q (%+v)", got, r.Verified, tc.code, r.Error)
			}
		})
	}
}

// A key that is in the keychain but not granted the pack's namespace is
// refused even though its signature is valid.
func TestNamespaceUnauthorized(t *testing.T) {
	reg := fixtures.Registry(t)
	tmp := t.TempDir()
	wk, _ := os.ReadFile(filepath.Join(reg, registry.WellKnown))
	// openwop-team-1 loses core.openwop.*.
	var meta map[string]any
	if err := json.Unmarshal(wk, &meta); err != nil {
		t.Fatal(err)
	}
	for _, k := range meta["signingKeys"].([]any) {
		if k := k.(map[string]any); k["keyId"] == "openwop-team-1" {
			k["permittedNamespaces"] = []any{"vendor.openwop.*"}
		}
	}
	wk, _ = json.Marshal(meta)
	os.MkdirAll(filepath.Join(tmp, ".well-known"), 0o755)
	os.WriteFile(filepath.Join(tmp, registry.WellKnown), wk, 0o644)
	os.CopyFS(filepath.Join(tmp, "keys"), os.DirFS(filepath.Join(reg, "keys")))
	os.CopyFS(filepath.Join(tmp, "v1"), os.DirFS(filepath.Join(reg, "v1")))
	root := openRegistry(t, tmp)
	k, err := root.Key("openwop-team-1")
	if err != nil || k.Permits("core.openwop.a2a") {
		t.Fatalf("edited keychain not effective: %v %v", err, k)
	}
	r := File(context.Background(), filepath.Join(tmp, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz"), Policy{Registry: root})
	if r.Verified || r.Error.Code != "pack_namespace_unauthorized" {
		t.Errorf("got %+v", r.Error)
	}
	// A revoked key is refused even inside its namespaces.
	for _, k := range meta["signingKeys"].([]any) {
		if k := k.(map[string]any); k["keyId"] == "openwop-team-1" {
			k["permittedNamespaces"] = []any{"core.openwop.*"}
			k["status"] = "revoked"
		}
	}
	wk, _ = json.Marshal(meta)
	os.WriteFile(filepath.Join(tmp, registry.WellKnown), wk, 0o644)
	r = File(context.Background(), filepath.Join(tmp, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz"), Policy{Registry: openRegistry(t, tmp)})
	if r.Verified || r.Error.Code != "key_revoked" {
		t.Errorf("revoked key: %+v", r.Error)
	}
	// vendor.myndhyve.* packs signed with another key of the keychain.
	r = File(context.Background(), filepath.Join(tmp, "v1", "packs", "vendor.myndhyve.ads-copy-generate", "-", "1.0.0.tgz"), Policy{Registry: root})
	if !r.Verified {
		t.Errorf("myndhyve: %+v", r.Error)
	}
}

func TestNoTrust(t *testing.T) {
	reg := fixtures.Registry(t)
	r := File(context.Background(), fixtureTarballs(t)[0], Policy{})
	if r.Verified || r.Error.Code != "verify_no_trust" {
		t.Errorf("got %+v", r.Error)
	}
	r = File(context.Background(), filepath.Join(t.TempDir(), "missing.tgz"), Policy{Registry: openRegistry(t, reg)})
	if r.Verified || r.Error.Code != "file_unreadable" {
		t.Errorf("got %+v", r.Error)
	}
}

// BenchmarkVerify verifies each registry fixture against the registry root
// (opened once, as `wopkit verify a.tgz b.tgz ...` does).
func BenchmarkVerify(b *testing.B) {
	reg := fixtures.Registry(b)
	root := openRegistry(b, reg)
	for _, tgz := range fixtureTarballs(b) {
		name := filepath.Base(filepath.Dir(filepath.Dir(tgz)))
		b.Run(name, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				if r := File(context.Background(), tgz, Policy{Registry: root, AllowYanked: true}); !r.Verified {
					b.Fatal(r.Error)
				}
			}
			// CPU time per verification: wall time is meaningless on a
			// machine shared with other jobs.
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkVerifyRegistry verifies the whole fixture registry per iteration
// through Files (all CPUs), as `wopkit verify registry/v1/packs/*/-/*.tgz`
// does; per-tarball figures are reported.
func BenchmarkVerifyRegistry(b *testing.B) {
	benchFiles(b, fixtureTarballs(b))
}

// benchFiles verifies tgzs against the fixture registry per iteration
// through Files (all CPUs) and reports wall and CPU time per tarball (CPU
// time: on a machine shared with other jobs wall time says little), and
// what a tarball allocates: the same per tarball for 7 tarballs
// (BenchmarkVerifyRegistry) and for 281 (BenchmarkVerifyMany), since
// nothing is kept from one tarball to the next but its Result.
func benchFiles(b *testing.B, tgzs []string) {
	root := openRegistry(b, fixtures.Registry(b))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := cpuTime()
	for b.Loop() {
		for _, r := range Files(context.Background(), tgzs, Policy{Registry: root, AllowYanked: true}) {
			if !r.Verified {
				b.Fatal(r.Error)
			}
		}
	}
	n := float64(b.N * len(tgzs))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "wall-ns/tarball")
	b.ReportMetric(float64(cpuTime()-start)/n, "cpu-ns/tarball")
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/tarball")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/tarball")
}
