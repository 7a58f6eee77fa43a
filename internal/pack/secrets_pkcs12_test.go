package pack

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/asn1"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/werr"
)

// PKCS#12 key stores as openssl exports them: refused unless every key is
// encrypted under a password the MAC shows is not empty; a store of
// certificates alone is no secret.
func TestScanPKCS12(t *testing.T) {
	t.Parallel()
	ossl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not installed: the hand-built key store of TestScanPKCS12PlainKeyBag still runs")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(ossl, args...).CombinedOutput(); err != nil {
			t.Fatalf("openssl %v: %v\n%s", args, err, out)
		}
	}
	run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", dir+"/k.pem", "-out", dir+"/c.pem", "-days", "1", "-subj", "/CN=wopkit test")
	export := func(name string, args ...string) string {
		p := filepath.Join(dir, name)
		run(append([]string{"pkcs12", "-export", "-inkey", dir + "/k.pem", "-in", dir + "/c.pem", "-out", p}, args...)...)
		return p
	}
	for _, tc := range []struct {
		name string
		args []string
		want string // substring of what the scan reports; "" for clean
	}{
		{"password.p12", []string{"-passout", "pass:correct horse"}, ""},
		{"legacy-password.pfx", []string{"-legacy", "-passout", "pass:correct horse"}, ""},
		{"certificates-only.p12", []string{"-nokeys", "-certpbe", "NONE", "-passout", "pass:"}, ""},
		{"encrypted-certificates-only.p12", []string{"-nokeys", "-passout", "pass:correct horse"}, ""},
		// Encrypted content is not decrypted: under the empty password it may be a key.
		{"encrypted-certificates-empty-password.p12", []string{"-nokeys", "-passout", "pass:"}, "empty password"},
		{"plain.p12", []string{"-keypbe", "NONE", "-certpbe", "NONE", "-nomac", "-passout", "pass:"}, "unencrypted private key"},
		{"plain-key-with-mac.p12", []string{"-keypbe", "NONE", "-passout", "pass:correct horse"}, "unencrypted private key"},
		{"empty-password.p12", []string{"-passout", "pass:"}, "empty password"},
		{"legacy-empty-password.pfx", []string{"-legacy", "-passout", "pass:"}, "empty password"},
		{"no-mac.p12", []string{"-nomac", "-passout", "pass:correct horse"}, "without a password MAC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.Open(export(tc.name, tc.args...))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			what, err := scanPrivateKey(f)
			if err != nil || !strings.Contains(what, tc.want) || (tc.want == "") != (what == "") {
				t.Errorf("scan: %q (%v), want %q", what, err, tc.want)
			}
		})
	}
	// End to end: pack refuses the key store by content, whatever its name.
	pack := fixtures.CopyDir(t, "testdata/basic")
	data, _ := os.ReadFile(export("plain.p12", "-keypbe", "NONE", "-certpbe", "NONE", "-nomac", "-passout", "pass:"))
	os.WriteFile(filepath.Join(pack, "keys", "signer.bin"), data, 0o644)
	_, err = Pack(context.Background(), Options{Dir: pack, Output: filepath.Join(t.TempDir(), "o.tgz"), Validate: noValidate})
	if werr.CodeOf(err) != "pack_private_key" || !strings.Contains(err.Error(), "keys/signer.bin") || !strings.Contains(err.Error(), "PKCS#12") {
		t.Errorf("got %v, want pack_private_key naming keys/signer.bin and PKCS#12", err)
	}
}

// A key store built here (no openssl needed): a PKCS#8 key in a plain key
// bag inside unencrypted data is refused; the same store with only a
// certificate bag is not.
func TestScanPKCS12PlainKeyBag(t *testing.T) {
	t.Parallel()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(key)
	bagID := func(last int) asn1.ObjectIdentifier {
		return asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, last}
	}
	explicit0 := func(der []byte) asn1.RawValue {
		return asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: der}
	}
	octets := func(b []byte) []byte { der, _ := asn1.Marshal(b); return der }
	build := func(bagType int, value []byte) []byte {
		type bag struct {
			ID    asn1.ObjectIdentifier
			Value asn1.RawValue
		}
		type ci struct {
			Type    asn1.ObjectIdentifier
			Content asn1.RawValue
		}
		safe, err := asn1.Marshal([]bag{{bagID(bagType), explicit0(value)}})
		if err != nil {
			t.Fatal(err)
		}
		authSafe, err := asn1.Marshal([]ci{{oidData, explicit0(octets(safe))}})
		if err != nil {
			t.Fatal(err)
		}
		pfx, err := asn1.Marshal(struct {
			Version  int
			AuthSafe ci
		}{3, ci{oidData, explicit0(octets(authSafe))}})
		if err != nil {
			t.Fatal(err)
		}
		return pfx
	}
	if what := pfxSecret(build(1, pkcs8)); !strings.Contains(what, "unencrypted private key") {
		t.Errorf("plain key bag: %q", what)
	}
	cert, _ := asn1.Marshal(struct {
		ID   asn1.ObjectIdentifier
		Cert asn1.RawValue `asn1:"tag:0,explicit"`
	}{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 22, 1}, asn1.RawValue{Tag: asn1.TagOctetString, Bytes: []byte{0x30, 0}}})
	if what := pfxSecret(build(3, cert)); what != "" {
		t.Errorf("certificate bag: %q", what)
	}
}
