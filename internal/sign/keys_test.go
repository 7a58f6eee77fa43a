package sign

import (
	"bytes"
	"context"
	"crypto"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

func needOpenSSL(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not found on PATH: interoperability test skipped")
	}
}

func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func fixedPass(s string) PassphraseFunc { return func() ([]byte, error) { return []byte(s), nil } }

func TestKeyPairRoundTrip(t *testing.T) {
	old := KDFIterations
	KDFIterations = 10_000 // the real count is exercised by TestOpenSSLReadsEncryptedKey
	t.Cleanup(func() { KDFIterations = old })
	for _, tc := range []struct {
		alg  Algorithm
		pass string
	}{{Ed25519, ""}, {Ed25519, "correct horse"}, {ECDSAP256, ""}, {ECDSAP256, "pw"}} {
		t.Run(string(tc.alg)+"/"+tc.pass, func(t *testing.T) {
			dir := t.TempDir()
			key, err := GenerateKey(tc.alg)
			if err != nil {
				t.Fatal(err)
			}
			kp, pp, err := WriteKeyPair(filepath.Join(dir, "k"), key, []byte(tc.pass), false)
			if err != nil {
				t.Fatal(err)
			}
			st, _ := os.Stat(kp)
			if st.Mode().Perm() != 0o600 {
				t.Errorf("key mode %v, want 0600", st.Mode().Perm())
			}
			got, err := LoadPrivateKey(kp, fixedPass(tc.pass))
			if err != nil {
				t.Fatal(err)
			}
			if AlgorithmOf(got) != tc.alg {
				t.Errorf("algorithm %s, want %s", AlgorithmOf(got), tc.alg)
			}
			pub, err := LoadPublicKey(pp)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Public().(interface{ Equal(crypto.PublicKey) bool }).Equal(pub) {
				t.Error("public key does not match the private key")
			}
			if tc.pass != "" {
				_, err := LoadPrivateKey(kp, fixedPass(tc.pass+"x"))
				if c := werr.CodeOf(err); c != "key_passphrase_wrong" {
					t.Errorf("wrong passphrase: code %q (%v)", c, err)
				}
			}
			if _, _, err := WriteKeyPair(filepath.Join(dir, "k"), key, nil, false); werr.CodeOf(err) != "key_exists" {
				t.Errorf("overwrite without force: %v", err)
			}
			if _, _, err := WriteKeyPair(filepath.Join(dir, "k"), key, nil, true); err != nil {
				t.Errorf("overwrite with force: %v", err)
			}
		})
	}
}

func TestParseRefusals(t *testing.T) {
	pubPEM := []byte("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAORLpnWQX+LXPEMbzfru6TnEolAq5bkg+mIcuoggEe/w=\n-----END PUBLIC KEY-----\n")
	for _, tc := range []struct {
		name string
		data []byte
		code string
	}{
		{"empty", nil, "key_invalid"},
		{"public as private", pubPEM, "key_invalid"},
		{"openssh", []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"), "key_invalid"},
		{"garbage pkcs8", []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"), "key_invalid"},
		{"encrypted garbage", []byte("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"), "key_invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePrivateKeyPEM(tc.data, "k.key", fixedPass("x"))
			if c := werr.CodeOf(err); c != tc.code {
				t.Errorf("code %q, want %q (%v)", c, tc.code, err)
			}
		})
	}
	if _, err := ParsePublicKeyPEM(pubPEM, "k.pub"); err != nil {
		t.Errorf("registry public key: %v", err)
	}
}

// An openssl-made key (plain and encrypted) signs with wopkit, and openssl
// verifies what wopkit signed.
func TestOpenSSLInterop(t *testing.T) {
	needOpenSSL(t)
	dir := t.TempDir()
	msg := []byte(`{"name":"x.y","version":"1.0.0"}`)
	for _, tc := range []struct {
		name string
		args []string
		pass string
	}{
		{"plain", nil, ""},
		{"aes-256-cbc", []string{"-aes-256-cbc", "-pass", "pass:s3cret"}, "s3cret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := filepath.Join(dir, tc.name+".key")
			run(t, "openssl", append([]string{"genpkey", "-algorithm", "ed25519", "-out", key}, tc.args...)...)
			pub := filepath.Join(dir, tc.name+".pub")
			pargs := []string{"pkey", "-in", key, "-pubout", "-out", pub}
			if tc.pass != "" {
				pargs = append(pargs, "-passin", "pass:"+tc.pass)
			}
			run(t, "openssl", pargs...)
			k, err := LoadPrivateKey(key, fixedPass(tc.pass))
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewEd25519Signer(MethodManual, k, "me-1")
			if err != nil {
				t.Fatal(err)
			}
			sig, err := s.Sign(context.Background(), msg)
			if err != nil {
				t.Fatal(err)
			}
			msgPath, sigPath := filepath.Join(dir, tc.name+".json"), filepath.Join(dir, tc.name+".sig")
			os.WriteFile(msgPath, msg, 0o644)
			os.WriteFile(sigPath, sig.Files[SignatureFile], 0o644)
			out := run(t, "openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", msgPath, "-sigfile", sigPath)
			if !bytes.Contains(out, []byte("Signature Verified Successfully")) {
				t.Errorf("openssl: %s", out)
			}
			wpub, err := LoadPublicKey(pub)
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyEd25519(wpub, msg, sig.Detached, "x"); err != nil {
				t.Error(err)
			}
		})
	}
}

// A key wopkit encrypted is read by openssl with the passphrase, and an
// openssl signature verifies with wopkit.
func TestOpenSSLReadsEncryptedKey(t *testing.T) {
	needOpenSSL(t)
	dir := t.TempDir()
	key, _ := GenerateKey(Ed25519)
	kp, pp, err := WriteKeyPair(filepath.Join(dir, "w"), key, []byte("pa55"), false)
	if err != nil {
		t.Fatal(err)
	}
	out := run(t, "openssl", "pkey", "-in", kp, "-passin", "pass:pa55", "-pubout")
	want, _ := os.ReadFile(pp)
	if !bytes.Equal(out, want) {
		t.Errorf("openssl derived public key\n%s\nwant\n%s", out, want)
	}
	if o, err := exec.Command("openssl", "pkey", "-in", kp, "-passin", "pass:wrong", "-noout").CombinedOutput(); err == nil {
		t.Errorf("openssl accepted a wrong passphrase: %s", o)
	}
	msg := filepath.Join(dir, "m")
	os.WriteFile(msg, []byte("hello <&>"), 0o644)
	sigPath := filepath.Join(dir, "m.sig")
	run(t, "openssl", "pkeyutl", "-sign", "-inkey", kp, "-passin", "pass:pa55", "-rawin", "-in", msg, "-out", sigPath)
	sig, _ := os.ReadFile(sigPath)
	if err := VerifyEd25519(key.Public(), []byte("hello <&>"), sig, "m"); err != nil {
		t.Error(err)
	}
}

func TestSignerBlocks(t *testing.T) {
	key, _ := GenerateKey(Ed25519)
	ec, _ := GenerateKey(ECDSAP256)
	for _, tc := range []struct {
		method string
		key    crypto.Signer
		id     string
		code   string
		block  string
	}{
		{MethodManual, key, "k1", "", "map[method:manual publicKeyRef:k1 signatureRef:keys/pack.json.sig]"},
		{MethodV2, key, "k1", "", "map[keyId:k1 scheme:ed25519-canonical-json]"},
		{MethodManual, ec, "k1", "key_algorithm_unsupported", ""},
		{MethodManual, key, "", "key_id_missing", ""},
		{"sigstore", key, "k1", "sign_method_unknown", ""},
	} {
		s, err := NewEd25519Signer(tc.method, tc.key, tc.id)
		if c := werr.CodeOf(err); c != tc.code {
			t.Errorf("%s/%s: code %q, want %q", tc.method, tc.id, c, tc.code)
			continue
		}
		if err != nil {
			continue
		}
		if got := fmt.Sprint(s.Block()); got != tc.block {
			t.Errorf("%s: block %s, want %s", tc.method, got, tc.block)
		}
		msg := []byte(`{"name":"x.y","version":"1.0.0"}`)
		sig, err := s.Sign(context.Background(), msg)
		if err != nil {
			t.Fatalf("%s: %v", tc.method, err)
		}
		if err := VerifyEd25519(key.Public(), msg, sig.Detached, "x"); err != nil {
			t.Error(err)
		}
		if err := VerifyEd25519(key.Public(), []byte("y"), sig.Detached, "x"); werr.CodeOf(err) != "pack_signature_invalid" {
			t.Errorf("changed message verified: %v", err)
		}
	}
}

// TestSignRefusals: v2 signs only I-JSON (RFC 0212 §B: no integer beyond
// ±(2^53-1), however written, 1e21 and 21-digit literals included);
// manual refuses a v2 pack, whose manual block would make it v1.
func TestSignRefusals(t *testing.T) {
	key, _ := GenerateKey(Ed25519)
	v2, _ := NewEd25519Signer(MethodV2, key, "k1")
	manual, _ := NewEd25519Signer(MethodManual, key, "k1")
	v2Block := `"signing":{"keyId":"k1","scheme":"ed25519-canonical-json"}`
	manualBlock := `"signing":{"method":"manual","publicKeyRef":"k1","signatureRef":"keys/pack.json.sig"}`
	for _, tc := range []struct {
		name   string
		s      *Ed25519Signer
		pj     string
		code   string
		substr string
	}{
		{"v2", v2, `{"n":9007199254740991,"name":"x.y",` + v2Block + `}`, "", ""},
		{"v2 2^53+1", v2, `{"n":9007199254740993,"name":"x.y",` + v2Block + `}`, "pack_manifest_invalid", "9007199254740993"},
		{"v2 1e21", v2, `{"n":1e21,"name":"x.y",` + v2Block + `}`, "pack_manifest_invalid", "1e21"},
		{"v2 22 digits", v2, `{"n":1000000000000000000000,"name":"x.y",` + v2Block + `}`, "pack_manifest_invalid", "1000000000000000000000"},
		{"v2 duplicate", v2, `{"name":"x.y","name":"x.z",` + v2Block + `}`, "pack_manifest_invalid", "duplicate"},
		{"manual v1", manual, `{"engines":{"openwop":">=1.0.0 <2.0.0"},"name":"x.y",` + manualBlock + `}`, "", ""},
		{"manual v2 by engines", manual, `{"engines":{"openwop":">=1.0.0 <3.0.0"},"kind":"node","name":"x.y",` + manualBlock + `}`, "sign_spec_mismatch", "engines"},
		{"manual v2 by $schema", manual, `{"$schema":"https://openwop.dev/spec/v2/node-pack-manifest.schema.json","name":"x.y",` + manualBlock + `}`, "sign_spec_mismatch", "$schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sig, err := tc.s.Sign(context.Background(), []byte(tc.pj))
			if werr.CodeOf(err) != tc.code || tc.code != "" && !strings.Contains(err.Error(), tc.substr) {
				t.Fatalf("Sign: %v, want code %q naming %q", err, tc.code, tc.substr)
			}
			if tc.code == "" && len(sig.Detached) != 64 {
				t.Errorf("signature of %d bytes", len(sig.Detached))
			}
		})
	}
}
