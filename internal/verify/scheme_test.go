package verify

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

type entry struct {
	name string
	data string
	typ  byte
	link string
}

// makeTGZ writes entries with archive/tar (independently of the tarball
// package), so hostile shapes can be built.
func makeTGZ(t *testing.T, entries []entry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Mode: 0o644, Typeflag: typ, Linkname: e.link, Format: tar.FormatUSTAR}
		if typ == tar.TypeReg {
			h.Size = int64(len(e.data))
		}
		if len(e.name) > 100 {
			h.Format = tar.FormatPAX
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.data))
	}
	tw.Close()
	zw.Close()
	return b.Bytes()
}

func keyPair(t *testing.T) (crypto.Signer, crypto.PublicKey) {
	k, err := sign.GenerateKey(sign.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	return k, k.Public()
}

func signed(t *testing.T, k crypto.Signer, method, pj string) []byte {
	s, _ := sign.NewEd25519Signer(method, k, "k1")
	sig, _ := s.Sign(context.Background(), []byte(pj))
	return sig.Detached
}

// fakeBundles stands in for sign/sigstore.
type fakeBundles struct{ err error }

func (f fakeBundles) VerifyBundle(_ context.Context, bundle, pj []byte) (*sign.SignerIdentity, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &sign.SignerIdentity{Identity: "me@example.com", Issuer: "https://issuer", LogIndex: -1}, nil
}

func TestSchemesAndHostileTarballs(t *testing.T) {
	k, pub := keyPair(t)
	manual := `{"name":"x.y","signing":{"method":"manual","publicKeyRef":"k1","signatureRef":"keys/pack.json.sig"},"version":"1.0.0"}`
	v2 := `{"name":"x.y","signing":{"keyId":"k1","scheme":"ed25519-canonical-json"},"version":"1.0.0"}`
	v2Pretty := "{\"version\":\"1.0.0\",\"name\":\"x.y\",\"signing\":{\"keyId\":\"k1\",\"scheme\":\"ed25519-canonical-json\"}}"
	store := `{"name":"x.y","signing":{"method":"sigstore"},"version":"1.0.0"}`
	unsigned := `{"name":"x.y","version":"1.0.0"}`
	good := func(pj string, method string) []entry {
		return []entry{{name: "keys/pack.json.sig", data: string(signed(t, k, method, pj))}, {name: "pack.json", data: pj}}
	}
	for _, tc := range []struct {
		name    string
		entries []entry
		policy  Policy
		code    string
		method  string
	}{
		{"manual", good(manual, sign.MethodManual), Policy{Key: pub}, "", "manual"},
		{"v2", good(v2, sign.MethodV2), Policy{Key: pub}, "", "v2"},
		{"v2 not canonical", good(v2Pretty, sign.MethodV2), Policy{Key: pub}, "pack_not_canonical", ""},
		{"unsigned", []entry{{name: "pack.json", data: unsigned}}, Policy{Key: pub}, "signature_missing", ""},
		{"manual without signature file", []entry{{name: "pack.json", data: manual}}, Policy{Key: pub}, "signature_missing", ""},
		{"sigstore without options", []entry{{name: "pack.json", data: store}, {name: "pack.json.sigstore", data: "{}"}}, Policy{Key: pub}, "sigstore_options_missing", ""},
		{"sigstore verified", []entry{{name: "pack.json", data: store}, {name: "pack.json.sigstore", data: "{}"}}, Policy{Bundles: fakeBundles{}}, "", "sigstore"},
		{"sigstore refused", []entry{{name: "pack.json", data: store}, {name: "pack.json.sigstore", data: "{}"}},
			Policy{Bundles: fakeBundles{err: werr.New(werr.Invalid, "pack_signature_invalid", "bad bundle")}}, "pack_signature_invalid", ""},
		{"sigstore bundle missing", []entry{{name: "pack.json", data: store}}, Policy{Bundles: fakeBundles{}}, "signature_missing", ""},
		{"unknown method", []entry{{name: "pack.json", data: `{"name":"x.y","version":"1","signing":{"method":"rsa"}}`}}, Policy{Key: pub}, "signing_unsupported", ""},
		{"duplicate name key", []entry{{name: "pack.json", data: `{"name":"x.y","name":"core.z","version":"1"}`}}, Policy{Key: pub}, "pack_manifest_invalid", ""},
		// Hostile archives are refused before anything is trusted.
		{"two pack.json", append(good(manual, sign.MethodManual), entry{name: "./pack.json", data: unsigned}), Policy{Key: pub}, "tarball_duplicate_entry", ""},
		{"path traversal", append(good(manual, sign.MethodManual), entry{name: "../evil", data: "x"}), Policy{Key: pub}, "tarball_path_traversal", ""},
		{"absolute path", append(good(manual, sign.MethodManual), entry{name: "/etc/evil", data: "x"}), Policy{Key: pub}, "tarball_path_traversal", ""},
		{"symlink", append(good(manual, sign.MethodManual), entry{name: "link", typ: tar.TypeSymlink, link: "/etc/passwd"}), Policy{Key: pub}, "tarball_unsafe_entry", ""},
		{"hard link", append(good(manual, sign.MethodManual), entry{name: "hard", typ: tar.TypeLink, link: "pack.json"}), Policy{Key: pub}, "tarball_unsafe_entry", ""},
		{"device", append(good(manual, sign.MethodManual), entry{name: "dev", typ: tar.TypeChar}), Policy{Key: pub}, "tarball_unsafe_entry", ""},
		{"pax long name", append(good(manual, sign.MethodManual), entry{name: string(bytes.Repeat([]byte("a"), 120)), data: "x"}), Policy{Key: pub}, "tarball_unsafe_entry", ""},
		{"no pack.json", []entry{{name: "README.md", data: "x"}}, Policy{Key: pub}, "tarball_manifest_missing", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "p.tgz")
			os.WriteFile(p, makeTGZ(t, tc.entries), 0o644)
			r := File(context.Background(), p, tc.policy)
			got := ""
			if r.Error != nil {
				got = r.Error.Code
			}
			if got != tc.code || r.Verified != (tc.code == "") || (tc.method != "" && r.Method != tc.method) {
				t.Errorf("code %q method %q verified %v, want %q %q (%+v)", got, r.Method, r.Verified, tc.code, tc.method, r.Error)
			}
		})
	}
}

// A gzip bomb is refused in bounded time and memory.
func TestGzipBomb(t *testing.T) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	const size = 128 << 20 // 2.5x the registry's 50 MiB unpacked limit
	tw.WriteHeader(&tar.Header{Name: "pack.json", Mode: 0o644, Size: size, Typeflag: tar.TypeReg})
	zero := make([]byte, 1<<20)
	for i := 0; i < size/len(zero); i++ {
		tw.Write(zero)
	}
	tw.Close()
	zw.Close()
	p := filepath.Join(t.TempDir(), "bomb.tgz")
	os.WriteFile(p, b.Bytes(), 0o644)
	lim := tarball.RegistryLimits
	r := File(context.Background(), p, Policy{Key: ed25519Pub(t), Limits: &lim})
	if r.Verified || r.Error.Code != "tarball_too_large" {
		t.Errorf("bomb of %d compressed bytes: %+v", b.Len(), r.Error)
	}
}

func ed25519Pub(t *testing.T) crypto.PublicKey {
	_, pub := keyPair(t)
	return pub
}

// Every failure carries advice; a wrong kind of key for a Sigstore pack says
// which key is needed.
func TestFailuresCarryHints(t *testing.T) {
	_, pub := keyPair(t)
	store := `{"name":"x.y","signing":{"method":"sigstore"},"version":"1.0.0"}`
	p := filepath.Join(t.TempDir(), "p.tgz")
	os.WriteFile(p, makeTGZ(t, []entry{{name: "pack.json", data: store}, {name: "pack.json.sigstore", data: "{}"}}), 0o644)
	r := File(context.Background(), p, Policy{Key: pub})
	if r.Error == nil || !strings.Contains(r.Error.Message, "ed25519 key") || !strings.Contains(r.Error.Hint, "ECDSA P-256") {
		t.Fatalf("got %+v", r.Error)
	}
	os.WriteFile(p, []byte("not a tarball"), 0o644)
	if r := File(context.Background(), p, Policy{Key: pub}); r.Error == nil || r.Error.Code != "tarball_corrupt" || r.Error.Hint == "" {
		t.Fatalf("corrupt: %+v", r.Error)
	}
}
