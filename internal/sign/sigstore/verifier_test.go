package sigstore

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	sgsign "github.com/sigstore/sigstore-go/pkg/sign"

	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
	"github.com/openwop/wopkit/internal/werr"
)

const signer1 = "dev@acme.test"

// pinned verifies as the right signer.
func pinned(tr string) VerifyOptions {
	return VerifyOptions{TrustedRoot: tr, CertIdentity: signer1, CertOIDCIssuer: sigstoretest.Issuer}
}

// editJSON decodes a bundle, lets f change it, and encodes it again.
func editJSON(t *testing.T, raw []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	must(t, json.Unmarshal(raw, &m))
	f(m)
	out, err := json.Marshal(m)
	must(t, err)
	return out
}

func flipB64(s string) string {
	b, _ := base64.StdEncoding.DecodeString(s)
	b[len(b)/2] ^= 0x01
	return base64.StdEncoding.EncodeToString(b)
}

func path(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

// keylessWithoutLog makes a keyless bundle with no Rekor entry and no
// timestamp, through the same Fulcio client path, as an old or hostile
// signer might.
func keylessWithoutLog(t *testing.T, v *sigstoretest.Virtual) []byte {
	kp, err := sgsign.NewEphemeralKeypair(nil)
	must(t, err)
	tok := v.Token(signer1, time.Hour)
	b, err := sgsign.Bundle(&sgsign.PlainData{Data: testPack}, kp, sgsign.BundleOptions{
		CertificateProvider:        &fulcioProvider{f: sgsign.NewFulcio(&sgsign.FulcioOptions{BaseURL: v.FulcioURL}), url: v.FulcioURL, token: tok},
		CertificateProviderOptions: &sgsign.CertificateProviderOptions{IDToken: tok},
	})
	must(t, err)
	raw, err := marshalBundle(b)
	must(t, err)
	return raw
}

func TestVerifyKeyless(t *testing.T) {
	v := newVirtualSigstore(t)
	tr := v.TrustedRoot()
	good := signWith(t, keyless(v, signer1))
	other := newVirtualSigstore(t)

	v2 := newVirtualSigstore(t)
	v2.CertStart, v2.RekorTime = -40*time.Minute, -35*time.Minute // expired now, logged while valid
	expiredLogged := signWith(t, keyless(v2, signer1))
	v3 := newVirtualSigstore(t)
	v3.CertStart, v3.RekorTime = -40*time.Minute, 0 // logged after the certificate expired
	loggedLate := signWith(t, keyless(v3, signer1))
	v4 := newVirtualSigstore(t)
	v4.CertStart = -40 * time.Minute
	expiredNoLog := keylessWithoutLog(t, v4)

	otherArtifact := func() []byte {
		s, err := NewSigner(keyless(v, signer1))
		must(t, err)
		sig, err := s.Sign(context.Background(), []byte(`{"name":"vendor.acme.other"}`))
		must(t, err)
		return sig.Detached
	}()
	withTSA := func() []byte {
		o := keyless(v, signer1)
		o.TSAURL = v.TSAURL
		return signWith(t, o)
	}()

	tests := []struct {
		name   string
		opts   VerifyOptions
		bundle []byte
		pack   []byte
		code   string // "" = verifies
		says   string
	}{
		{"good, exact identity", pinned(tr), good, testPack, "", ""},
		{"good, regexp identity", VerifyOptions{TrustedRoot: tr, CertIdentityRegexp: `^dev@acme\.test$`,
			CertOIDCIssuerRegexp: `^https://oidc\.wopkit\.test$`}, good, testPack, "", ""},
		{"good, with RFC 3161 timestamp", pinned(tr), withTSA, testPack, "", ""},
		{"expired certificate, logged while valid", pinned(v2.TrustedRoot()), expiredLogged, testPack, "", ""},
		{"wrong identity", VerifyOptions{TrustedRoot: tr, CertIdentity: "mallory@evil.test", CertOIDCIssuer: sigstoretest.Issuer},
			good, testPack, CodeIdentityMismatch, `signed by "dev@acme.test"`},
		{"wrong identity regexp", VerifyOptions{TrustedRoot: tr, CertIdentityRegexp: `^ops@`, CertOIDCIssuer: sigstoretest.Issuer},
			good, testPack, CodeIdentityMismatch, "not the expected signer"},
		{"wrong issuer", VerifyOptions{TrustedRoot: tr, CertIdentity: signer1, CertOIDCIssuer: "https://accounts.google.com"},
			good, testPack, CodeIdentityMismatch, `issuer "https://oidc.wopkit.test"`},
		{"tampered pack.json", pinned(tr), good, bytes.Replace(testPack, []byte("1.0.0"), []byte("1.0.1"), 1),
			CodeArtifactMismatch, "changed after signing"},
		{"bundle for another artifact", pinned(tr), otherArtifact, testPack, CodeArtifactMismatch, "another pack.json"},
		{"tampered bundle: signature", pinned(tr), editJSON(t, good, func(m map[string]any) {
			ms := path(m, "messageSignature")
			ms["signature"] = flipB64(ms["signature"].(string))
		}), testPack, CodeSignatureInvalid, "altered"},
		{"tampered bundle: digest claims this pack.json", pinned(tr), func() []byte {
			return editJSON(t, otherArtifact, func(m map[string]any) {
				goodMD := path(mustMap(t, good), "messageSignature", "messageDigest")
				path(m, "messageSignature", "messageDigest")["digest"] = goodMD["digest"]
			})
		}(), testPack, CodeUntrusted, "transparency-log"},
		{"tampered bundle: certificate swapped", pinned(tr), editJSON(t, good, func(m map[string]any) {
			path(m, "verificationMaterial", "certificate")["rawBytes"] =
				path(mustMap(t, withTSA), "verificationMaterial", "certificate")["rawBytes"]
		}), testPack, CodeSignatureInvalid, "altered"},
		{"tampered bundle: log entry body", pinned(tr), editJSON(t, good, func(m map[string]any) {
			e := m["verificationMaterial"].(map[string]any)["tlogEntries"].([]any)[0].(map[string]any)
			e["logIndex"] = "7"
		}), testPack, CodeUntrusted, "transparency-log"},
		{"not a bundle", pinned(tr), []byte(`{"mediaType":"text/plain"}`), testPack, CodeBundleInvalid, "not a valid Sigstore bundle"},
		{"truncated bundle", pinned(tr), good[:len(good)/2], testPack, CodeBundleInvalid, "not a valid Sigstore bundle"},
		{"expired certificate without timestamp", pinned(v4.TrustedRoot()), expiredNoLog, testPack, CodeCertificateExpired,
			"no transparency-log entry or timestamp"},
		{"expired certificate, logged after expiry", pinned(v3.TrustedRoot()), loggedLate, testPack, CodeUntrusted, "certificate"},
		{"untrusted root", pinned(other.TrustedRoot()), good, testPack, CodeUntrusted, "trusted root"},
		{"no SCT while the root lists CT logs", pinned(v.TrustedRootWithCTLog()), good, testPack, CodeUntrusted, "(SCT)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ver, err := NewVerifier(tc.opts)
			must(t, err)
			id, err := ver.VerifyBundle(context.Background(), tc.bundle, tc.pack)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("refused a good bundle: %v", err)
				}
				if id.Identity != signer1 || id.Issuer != sigstoretest.Issuer || id.LogIndex < sigstoretest.FirstLogIndex || id.KeyHint != "" {
					t.Errorf("identity = %+v", id)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted: %+v", id)
			}
			if werr.CodeOf(err) != tc.code || werr.ExitCode(err) != int(werr.Invalid) {
				t.Errorf("code %q exit %d, want %q exit 1: %v", werr.CodeOf(err), werr.ExitCode(err), tc.code, err)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
		})
	}
}

func mustMap(t *testing.T, raw []byte) map[string]any {
	var m map[string]any
	must(t, json.Unmarshal(raw, &m))
	return m
}

func TestVerifierNeedsIdentity(t *testing.T) {
	v := newVirtualSigstore(t)
	tr := v.TrustedRoot()
	for _, o := range []VerifyOptions{
		{TrustedRoot: tr},
		{TrustedRoot: tr, CertIdentity: signer1},
		{TrustedRoot: tr, CertOIDCIssuerRegexp: ".*"},
		{TrustedRoot: tr, CertIdentityRegexp: "(", CertOIDCIssuer: sigstoretest.Issuer},
	} {
		_, err := NewVerifier(o)
		if werr.CodeOf(err) != CodeIdentityRequired || werr.ExitCode(err) != int(werr.Usage) {
			t.Errorf("%+v: err = %v, want %s (usage)", o, err, CodeIdentityRequired)
		}
	}
	_, err := NewVerifier(VerifyOptions{TrustedRoot: "/nonexistent/trusted_root.json", CertIdentity: "a", CertOIDCIssuer: "b"})
	if werr.CodeOf(err) != CodeTrustedRootInvalid || werr.ExitCode(err) != int(werr.Env) {
		t.Errorf("missing trusted root: %v", err)
	}
}

func TestVerifyKeyed(t *testing.T) {
	v := newVirtualSigstore(t)
	tr := v.TrustedRoot()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	otherKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	offline := signWith(t, SignOptions{Key: key})
	logged := signWith(t, SignOptions{Key: key, RekorURL: v.RekorURL, TrustedRoot: tr})
	keyless := signWith(t, keyless(v, signer1))
	hint, _ := KeyHint(&key.PublicKey)

	tests := []struct {
		name     string
		opts     VerifyOptions
		bundle   []byte
		code     string
		logIndex bool
	}{
		{"offline key bundle", VerifyOptions{Key: &key.PublicKey}, offline, "", false},
		{"logged key bundle with trusted root", VerifyOptions{Key: &key.PublicKey, TrustedRoot: tr}, logged, "", true},
		{"logged key bundle, key only", VerifyOptions{Key: &key.PublicKey}, logged, "", false},
		{"wrong key", VerifyOptions{Key: &otherKey.PublicKey}, offline, CodeSignatureInvalid, false},
		{"keyed bundle without --key", pinned(tr), offline, CodeUntrusted, false},
		{"keyless bundle with --key", VerifyOptions{Key: &key.PublicKey}, keyless, CodeUntrusted, false},
	}
	if v.RekorCalls.Load() != 2 {
		t.Errorf("rekor calls = %d, want 2 (keyed signing logs only when --rekor-url is given)", v.RekorCalls.Load())
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ver, err := NewVerifier(tc.opts)
			must(t, err)
			id, err := ver.VerifyBundle(context.Background(), tc.bundle, testPack)
			if tc.code != "" {
				if werr.CodeOf(err) != tc.code {
					t.Fatalf("err = %v, want %s", err, tc.code)
				}
				return
			}
			must(t, err)
			if id.KeyHint != hint || id.Identity != "" || (id.LogIndex >= 0) != tc.logIndex {
				t.Errorf("identity = %+v (hint %s)", id, hint)
			}
		})
	}
}

func TestSignSelfCheck(t *testing.T) {
	v := newVirtualSigstore(t)
	o := keyless(v, signer1)
	o.TrustedRoot = v.TrustedRoot()
	signWith(t, o) // the right root: accepted
	o.TrustedRoot = newVirtualSigstore(t).TrustedRoot()
	s, err := NewSigner(o)
	must(t, err)
	sig, err := s.Sign(context.Background(), testPack)
	if sig != nil || werr.CodeOf(err) != CodeSignFailed {
		t.Fatalf("sig %v, err %v; want no output and %s", sig, err, CodeSignFailed)
	}
}

func TestSummarize(t *testing.T) {
	v := newVirtualSigstore(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	hint, _ := KeyHint(&key.PublicKey)
	id, err := Summarize(signWith(t, keyless(v, signer1)))
	must(t, err)
	if id.Identity != signer1 || id.Issuer != sigstoretest.Issuer || id.LogIndex != sigstoretest.FirstLogIndex {
		t.Errorf("keyless summary = %+v", id)
	}
	id, err = Summarize(signWith(t, SignOptions{Key: key}))
	must(t, err)
	if id.KeyHint != hint || id.LogIndex != -1 || id.Identity != "" {
		t.Errorf("keyed summary = %+v", id)
	}
	for _, bad := range []string{"", "{}", "null", `{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json"}`, strings.Repeat(" ", maxBundle+1)} {
		if _, err := Summarize([]byte(bad)); werr.CodeOf(err) != CodeBundleInvalid {
			t.Errorf("Summarize(%.40q) err = %v", bad, err)
		}
	}
}

// TestPublicGoodDefault: without --trusted-root the verifier is built without
// any network call; a keyed bundle is refused without one; a keyless bundle
// triggers the TUF fetch of the public-good root, which either fails with a
// clear environment error (offline) or succeeds and then does not trust the
// virtual Fulcio (online). Either way the bundle is not accepted.
func TestPublicGoodDefault(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // the TUF cache goes under $HOME/.sigstore
	v := newVirtualSigstore(t)
	ver, err := NewVerifier(VerifyOptions{CertIdentity: signer1, CertOIDCIssuer: sigstoretest.Issuer})
	must(t, err)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if _, err := ver.VerifyBundle(context.Background(), signWith(t, SignOptions{Key: key}), testPack); werr.CodeOf(err) != CodeUntrusted ||
		!strings.Contains(err.Error(), "--key") {
		t.Errorf("keyed bundle without --key: %v", err)
	}
	// The keyless half fetches the public-good root through TUF from the
	// internet; tests stay offline unless asked.
	if os.Getenv("WOPKIT_NETWORK_TESTS") == "" {
		t.Log("skipping the TUF fetch of the public-good root: set WOPKIT_NETWORK_TESTS=1 to run it")
		return
	}
	_, err = ver.VerifyBundle(context.Background(), signWith(t, keyless(v, signer1)), testPack)
	switch werr.CodeOf(err) {
	case CodeTrustedRootInvalid:
		if werr.ExitCode(err) != int(werr.Env) || !strings.Contains(err.Error(), "--trusted-root") {
			t.Errorf("offline TUF failure: %v", err)
		}
	case CodeUntrusted:
	default:
		t.Errorf("keyless bundle against the public-good root: %v", err)
	}
}
