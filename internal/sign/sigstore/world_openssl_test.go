package sigstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
)

// TestOpenSSLChecksBundle checks wopkit's bundles with an independent
// implementation: OpenSSL verifies the message signature over the exact
// pack.json bytes with the certificate's (or the key's) public key, checks
// the certificate chains to the Fulcio root, and recomputes the digest and
// the key hint.
func TestOpenSSLChecksBundle(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not installed: the independent check of bundles is skipped")
	}
	v := newVirtualSigstore(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, b, 0o600))
		return p
	}
	openssl := func(args ...string) (string, error) {
		out, err := exec.Command("openssl", args...).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	pack := write("pack.json", testPack)
	tampered := write("tampered.json", append([]byte(nil), append(testPack[:len(testPack)-1], ' ', '}')...))
	pubDER, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	keyPub := write("key.pub", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}))

	for _, tc := range []struct {
		name   string
		bundle []byte
	}{
		{"keyless", signWith(t, keyless(v, signer1))},
		{"keyed", signWith(t, SignOptions{Key: key})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustMap(t, tc.bundle)
			ms := path(m, "messageSignature")
			sig, _ := base64.StdEncoding.DecodeString(ms["signature"].(string))
			sigFile := write(tc.name+".sig", sig)
			digest, _ := base64.StdEncoding.DecodeString(path(ms, "messageDigest")["digest"].(string))
			out, err := openssl("dgst", "-sha256", "-r", pack)
			must(t, err)
			if !strings.HasPrefix(out, hex.EncodeToString(digest)) {
				t.Errorf("bundle digest %x, openssl says %s", digest, out)
			}
			pub := keyPub
			vm := path(m, "verificationMaterial")
			if tc.name == "keyless" {
				der, _ := base64.StdEncoding.DecodeString(path(vm, "certificate")["rawBytes"].(string))
				leaf := write("leaf.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
				rootPEM := write("root.pem", []byte(sigstoretest.PEMCert(v.FulcioRoot())))
				inter := write("inter.pem", []byte(sigstoretest.PEMCert(v.FulcioIntermediate())))
				if out, err := openssl("verify", "-CAfile", rootPEM, "-untrusted", inter,
					"-attime", strconv.FormatInt(time.Now().Unix(), 10), leaf); err != nil {
					t.Errorf("openssl verify of the certificate chain: %v: %s", err, out)
				}
				out, err := openssl("x509", "-in", leaf, "-noout", "-ext", "subjectAltName")
				if err != nil || !strings.Contains(out, "email:"+signer1) {
					t.Errorf("certificate SAN: %v: %s", err, out)
				}
				pubOut, err := openssl("x509", "-in", leaf, "-noout", "-pubkey")
				must(t, err)
				pub = write("leaf.pub", []byte(pubOut+"\n"))
			} else {
				hint := path(vm, "publicKey")["hint"].(string)
				sum := sha256.Sum256(opensslDER(t, keyPub))
				if hint != base64.StdEncoding.EncodeToString(sum[:]) {
					t.Errorf("key hint %q is not base64(sha256(SPKI DER))", hint)
				}
			}
			if out, err := openssl("dgst", "-sha256", "-verify", pub, "-signature", sigFile, pack); err != nil || out != "Verified OK" {
				t.Errorf("openssl does not verify the signature over pack.json: %v: %s", err, out)
			}
			if out, err := openssl("dgst", "-sha256", "-verify", pub, "-signature", sigFile, tampered); err == nil {
				t.Errorf("openssl verified the signature over a tampered pack.json: %s", out)
			}
		})
	}
}

// opensslDER has OpenSSL re-encode a PEM public key as DER.
func opensslDER(t *testing.T, pubPEM string) []byte {
	out, err := exec.Command("openssl", "pkey", "-pubin", "-in", pubPEM, "-outform", "DER").Output()
	must(t, err)
	return out
}
