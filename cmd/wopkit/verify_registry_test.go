package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/testwait"
)

// hostileRegistry is a registry root written for a test, with nothing from
// ../shared: team's key at keys/<keyID>.pub, a stranger's at
// evil/evil.pub, and acme.x@1.0.0 in the v1 tree.
type hostileRegistry struct {
	root       string
	team, evil crypto.Signer
}

func newHostileRegistry(t *testing.T, keyID, keychain string) *hostileRegistry {
	t.Helper()
	h := &hostileRegistry{root: t.TempDir()}
	for _, k := range []*crypto.Signer{&h.team, &h.evil} {
		s, err := sign.GenerateKey(sign.Ed25519)
		if err != nil {
			t.Fatal(err)
		}
		*k = s
	}
	teamPEM, _ := sign.MarshalPublicKeyPEM(h.team.Public())
	evilPEM, _ := sign.MarshalPublicKeyPEM(h.evil.Public())
	h.write(t, "keys/"+keyID+".pub", teamPEM)
	h.write(t, "evil/evil.pub", evilPEM)
	h.write(t, ".well-known/openwop-registry.json", []byte(`{"signingKeys":[`+keychain+`]}`))
	return h
}

func (h *hostileRegistry) write(t *testing.T, rel string, data []byte) string {
	t.Helper()
	p := filepath.Join(h.root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// publish writes acme.x@1.0.0 signed (manual) by signer, naming keyID,
// with its version manifest and per-pack index (extra members added to
// each), and returns the tarball's path.
func (h *hostileRegistry) publish(t *testing.T, signer crypto.Signer, keyID, manifestExtra, indexExtra string) string {
	t.Helper()
	id, _ := json.Marshal(keyID)
	pj := `{"name":"acme.x","signing":{"method":"manual","publicKeyRef":` + string(id) + `,"signatureRef":"keys/pack.json.sig"},"version":"1.0.0"}`
	s, err := sign.NewEd25519Signer(sign.MethodManual, signer, keyID)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := s.Sign(context.Background(), []byte(pj))
	if err != nil {
		t.Fatal(err)
	}
	b := tgzOf(t, [][2]string{{"keys/pack.json.sig", string(sig.Detached)}, {"pack.json", pj}})
	sum := sha256.Sum256(b)
	integrity := "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
	h.write(t, "v1/packs/acme.x/-/1.0.0.json", []byte(`{"name":"acme.x","version":"1.0.0","integrity":"`+integrity+`","signing":{"method":"manual","publicKeyRef":`+string(id)+`}`+manifestExtra+`}`))
	h.write(t, "v1/packs/acme.x/index.json", []byte(`{"name":"acme.x","versions":[{"version":"1.0.0","integrity":"`+integrity+`"}]`+indexExtra+`}`))
	return h.write(t, "v1/packs/acme.x/-/1.0.0.tgz", b)
}

// tgzOf is a gzipped USTAR stream of the (name, content) entries, written
// with archive/tar so that any content can be packed.
func tgzOf(t *testing.T, entries [][2]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		if err := tw.WriteHeader(&tar.Header{Name: e[0], Mode: 0o644, Size: int64(len(e[1])), Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e[1]))
	}
	tw.Close()
	zw.Close()
	return b.Bytes()
}

const acmeKey = `{"keyId":"openwop-team-1","algorithm":"ed25519","permittedNamespaces":["acme.*"],"status":"active"`

// Issue item 3, end to end: team-1's keychain entry points its
// publicKeyUrl (exact, or hidden as "PublicKeyUrl") at a stranger's key;
// `verify --registry` said "OK ... signature by openwop-team-1" for a
// tarball the stranger signed. The key is keys/<keyId>.pub, as the
// registry's verify-signatures.mjs loads it.
func TestVerifyRegistryKeyFromKeysDir(t *testing.T) {
	t.Parallel()
	for name, member := range map[string]string{
		"publicKeyUrl": `"publicKeyUrl":"/evil/evil.pub"`,
		"PublicKeyUrl": `"PublicKeyUrl":"/evil/evil.pub"`,
	} {
		t.Run(name, func(t *testing.T) {
			h := newHostileRegistry(t, "openwop-team-1", acmeKey+","+member+"}")
			tgz := h.publish(t, h.evil, "openwop-team-1", "", "")
			out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root)
			if code != 1 || strings.Contains(out, "OK ") || !strings.Contains(out, "pack_signature_invalid") {
				t.Errorf("a stranger's signature: exit %d\n%s%s", code, out, errOut)
			}
			tgz = h.publish(t, h.team, "openwop-team-1", "", "")
			if out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root); code != 0 || !strings.Contains(out, "signature by openwop-team-1") {
				t.Errorf("the team's signature: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
	h := newHostileRegistry(t, "openwop-team-1", `{"keyId":"openwop-team-1","status":"revoked","permittedNamespaces":["acme.*"],"Status":"active"}`)
	tgz := h.publish(t, h.team, "openwop-team-1", "", "")
	if out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root); code != 1 || !strings.Contains(errOut, `"status" and "Status" differ only in letter case`) {
		t.Errorf("a revoked key revived by Status: exit %d\n%s%s", code, out, errOut)
	}
}

// Issue item 7: a named pipe or a link to /dev/zero in place of each file
// `verify --registry` reads ends promptly with the file named and a stable
// code, in text and in --json.
func TestVerifyRegistryFIFOsAndDevZero(t *testing.T) {
	t.Parallel()
	files := []string{".well-known/openwop-registry.json", "keys/openwop-team-1.pub", "v1/packs/acme.x/-/1.0.0.json",
		"v1/packs/acme.x/index.json", "v1/packs/acme.x/-/1.0.0.sig"}
	for _, rel := range files {
		for _, kind := range []string{"fifo", "devzero"} {
			t.Run(kind+" "+rel, func(t *testing.T) {
				h := newHostileRegistry(t, "openwop-team-1", acmeKey+"}")
				tgz := h.publish(t, h.team, "openwop-team-1", "", "")
				p := filepath.Join(h.root, filepath.FromSlash(rel))
				os.Remove(p)
				want := "file_not_regular"
				if kind == "fifo" {
					mkfifo(t, p)
				} else {
					os.Symlink("/dev/zero", p)
					want = "path_outside_root"
				}
				out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root, "--json")
				if code != 1 || !strings.Contains(out+errOut, filepath.Base(p)) {
					t.Errorf("exit %d, file not named:\n%s%s", code, out, errOut)
				}
				if rel != ".well-known/openwop-registry.json" { // that one fails before any tarball is read
					var r struct{ Error struct{ Code string } }
					if err := json.Unmarshal([]byte(out), &r); err != nil || r.Error.Code != want {
						t.Errorf("code %q, want %s: %s", r.Error.Code, want, out)
					}
				}
			})
		}
	}
	t.Run("a FIFO tarball and a FIFO --sig", func(t *testing.T) {
		h := newHostileRegistry(t, "openwop-team-1", acmeKey+"}")
		tgz := h.publish(t, h.team, "openwop-team-1", "", "")
		sig := filepath.Join(t.TempDir(), "x.sig")
		mkfifo(t, sig)
		if out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root, "--sig", sig); code != 1 || !strings.Contains(out, "file_not_regular") {
			t.Errorf("--sig FIFO: exit %d\n%s%s", code, out, errOut)
		}
		os.Remove(tgz)
		if err := fixtures.Mkfifo(t, tgz); err != nil {
			t.Skip(err)
		}
		if out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root); code != 1 || !strings.Contains(out, "file_not_regular") {
			t.Errorf("FIFO tarball: exit %d\n%s%s", code, out, errOut)
		}
	})
}

// Every string that comes from the registry or the tarball reaches the
// terminal escaped: a key id, a yank reason, a deprecation reason, the
// superseding version, an advisory, the latest version and a pack-level
// deprecation, on the OK line and its notes; and in an error on stderr.
func TestVerifyRegistryStringsInert(t *testing.T) {
	t.Parallel()
	keyID := "team\x1b[2K\u202e-1"
	id, _ := json.Marshal(keyID)
	hostile, _ := json.Marshal(hostileText)
	h := newHostileRegistry(t, keyID, `{"keyId":`+string(id)+`,"permittedNamespaces":["acme.*"],"status":"active"}`)
	lifecycle := `,"yanked":true,"yankedReason":` + string(hostile) + `,"versionDeprecated":true,"deprecationReason":` + string(hostile) +
		`,"supersededBy":` + string(hostile) + `,"advisoryUrl":` + string(hostile)
	tgz := h.publish(t, h.team, keyID, lifecycle, `,"latest":`+string(hostile)+`,"deprecated":`+string(hostile))
	out, errOut, code := runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root, "--allow-yanked")
	if code != 0 || !strings.Contains(out, "OK ") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "verify --registry", out+errOut)
	if n := strings.Count(out, "\n"); n < 3 {
		t.Errorf("expected the OK line and its notes, got %d lines:\n%s", n, out)
	}
	// Refused: the key's status is not one the registry defines.
	h.write(t, ".well-known/openwop-registry.json", []byte(`{"signingKeys":[{"keyId":`+string(id)+`,"permittedNamespaces":["acme.*"],"status":`+string(hostile)+`}]}`))
	out, errOut, code = runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root, "--allow-yanked")
	if code != 1 || !strings.Contains(out, "key_status_unknown") {
		t.Fatalf("unknown status: exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "verify --registry, unknown status", out+errOut)
	// An environment error printed on stderr: the key file is missing.
	os.Remove(filepath.Join(h.root, "keys", keyID+".pub"))
	h.write(t, ".well-known/openwop-registry.json", []byte(`{"signingKeys":[{"keyId":`+string(id)+`,"permittedNamespaces":["acme.*"]}]}`))
	out, errOut, code = runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root, "--allow-yanked")
	if code != 3 || !strings.Contains(out, "key_unreadable") {
		t.Fatalf("missing key: exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "verify --registry, missing key", out+errOut)
	// --json carries the original strings.
	pem, _ := sign.MarshalPublicKeyPEM(h.team.Public())
	h.write(t, "keys/"+keyID+".pub", pem)
	out, _, _ = runWithin(t, testwait.Ceiling, "verify", tgz, "--registry", h.root, "--allow-yanked", "--json")
	var r struct{ KeyID string }
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.KeyID != keyID {
		t.Errorf("--json: %v, keyId %q", err, r.KeyID)
	}
}
