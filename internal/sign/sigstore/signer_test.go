package sigstore

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
	"github.com/openwop/wopkit/internal/werr"
)

var testPack = []byte(`{"description":"a > b","name":"vendor.acme.hello","version":"1.0.0"}`)

// signWith signs testPack and returns the bundle bytes.
func signWith(t testing.TB, opts SignOptions) []byte {
	t.Helper()
	s, err := NewSigner(opts)
	must(t, err)
	sig, err := s.Sign(context.Background(), testPack)
	must(t, err)
	return sig.Files[BundleFile]
}

func TestSignerContract(t *testing.T) {
	v := newVirtualSigstore(t)
	s, err := NewSigner(keyless(v, "dev@acme.test"))
	must(t, err)
	if s.Method() != "sigstore" {
		t.Errorf("Method() = %q", s.Method())
	}
	blk, _ := json.Marshal(s.Block())
	if string(blk) != `{"method":"sigstore","signatureRef":"pack.json.sigstore"}` {
		t.Errorf("Block() = %s", blk)
	}
	sig, err := s.Sign(context.Background(), testPack)
	must(t, err)
	if sig.DetachedExt != ".sigstore.json" || string(sig.Detached) != string(sig.Files["pack.json.sigstore"]) || len(sig.Files) != 1 {
		t.Errorf("signature = %+v", sig)
	}
	var b struct {
		MediaType            string `json:"mediaType"`
		VerificationMaterial struct {
			Certificate struct{ RawBytes string }   `json:"certificate"`
			TlogEntries []struct{ LogIndex string } `json:"tlogEntries"`
		} `json:"verificationMaterial"`
		MessageSignature struct {
			MessageDigest struct{ Algorithm, Digest string } `json:"messageDigest"`
		} `json:"messageSignature"`
	}
	must(t, json.Unmarshal(sig.Detached, &b))
	if b.MediaType != BundleMediaType || b.VerificationMaterial.Certificate.RawBytes == "" ||
		len(b.VerificationMaterial.TlogEntries) != 1 || b.MessageSignature.MessageDigest.Algorithm != "SHA2_256" {
		t.Errorf("bundle is not a keyless v0.3 message-signature bundle: %s", sig.Detached)
	}
	if v.FulcioCalls.Load() != 1 || v.RekorCalls.Load() != 1 {
		t.Errorf("fulcio calls %d, rekor calls %d; want 1 each", v.FulcioCalls.Load(), v.RekorCalls.Load())
	}
	tok := keyless(v, "x").IdentityToken
	if strings.Contains(string(sig.Detached), tok[:20]) {
		t.Error("the bundle contains the identity token")
	}
}

// TestSignFailures: each failing service is named, the error has a stable
// code and the right exit class, no output is returned, and the token never
// appears in the message.
func TestSignFailures(t *testing.T) {
	v := newVirtualSigstore(t)
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close() // connection refused from now on
	fail500 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"code":400,"message":"boom"}`))
	}))
	defer fail500.Close()
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		// A 2xx answer of the right media type but the wrong shape: Rekor's
		// client would dereference missing fields.
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", "abc")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"abc":{"logIndex":1}}`))
	}))
	defer garbage.Close()
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	forged := sigstoretest.SignJWT(t, other, map[string]any{"iss": sigstoretest.Issuer, "email": "dev@acme.test", "email_verified": true,
		"exp": time.Now().Add(time.Hour).Unix()})

	tests := []struct {
		name      string
		edit      func(*SignOptions)
		code      string
		class     werr.Class
		mentions  string
		atSignNew bool // refused by NewSigner, before any network call
	}{
		{"fulcio down", func(o *SignOptions) { o.FulcioURL = downURL }, CodeFulcioFailed, werr.Env, "Fulcio at " + downURL, false},
		{"fulcio 400", func(o *SignOptions) { o.FulcioURL = fail500.URL }, CodeFulcioFailed, werr.Invalid, "Fulcio at", false},
		{"rekor down", func(o *SignOptions) { o.RekorURL = downURL }, CodeRekorFailed, werr.Env, "Rekor transparency log at " + downURL, false},
		{"rekor 4xx", func(o *SignOptions) { o.RekorURL = fail500.URL }, CodeRekorFailed, werr.Invalid, "Rekor", false},
		{"rekor malformed answer", func(o *SignOptions) { o.RekorURL = garbage.URL }, CodeRekorFailed, werr.Env, "Rekor at " + garbage.URL, false},
		{"fulcio malformed answer", func(o *SignOptions) { o.FulcioURL = garbage.URL }, CodeFulcioFailed, werr.Env, "Fulcio at " + garbage.URL, false},
		{"tsa down", func(o *SignOptions) { o.TSAURL = downURL }, CodeTSAFailed, werr.Env, "timestamp authority at " + downURL, false},
		{"bad token (forged)", func(o *SignOptions) { o.IdentityToken = forged }, CodeTokenInvalid, werr.Invalid, "Fulcio at", false},
		{"expired token", func(o *SignOptions) { o.IdentityToken = v.Token("dev@acme.test", -time.Minute) }, CodeTokenInvalid, werr.Invalid, "expired", true},
		{"not a JWT", func(o *SignOptions) { o.IdentityToken = "not-a-jwt" }, CodeTokenInvalid, werr.Invalid, "not a JWT", true},
		{"no token", func(o *SignOptions) { o.IdentityToken = "" }, CodeTokenMissing, werr.Usage, "identity token", true},
		{"ed25519 key", func(o *SignOptions) { _, k, _ := ed25519.GenerateKey(rand.Reader); o.Key = k }, CodeKeyUnsupported, werr.Invalid, "is Ed25519, but", true},
		{"p384 key", func(o *SignOptions) { k, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader); o.Key = k }, CodeKeyUnsupported, werr.Invalid, "P-384", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := keyless(v, "dev@acme.test")
			tc.edit(&opts)
			before := v.FulcioCalls.Load()
			s, err := NewSigner(opts)
			var sig *sign.Signature
			if err == nil {
				if tc.atSignNew {
					t.Fatal("NewSigner accepted options it should refuse")
				}
				sig, err = s.Sign(context.Background(), testPack)
			} else if !tc.atSignNew {
				t.Fatalf("NewSigner refused early: %v", err)
			}
			if err == nil {
				t.Fatalf("signing succeeded: %+v", sig)
			}
			if sig != nil {
				t.Fatalf("Sign returned output alongside its error: %+v", sig)
			}
			if got := werr.CodeOf(err); got != tc.code {
				t.Errorf("code = %q, want %q (%v)", got, tc.code, err)
			}
			if got := werr.ExitCode(err); got != int(tc.class) {
				t.Errorf("exit code = %d, want %d (%v)", got, tc.class, err)
			}
			if !strings.Contains(err.Error(), tc.mentions) {
				t.Errorf("error %q does not mention %q", err, tc.mentions)
			}
			if opts.IdentityToken != "" && strings.Contains(err.Error(), opts.IdentityToken) {
				t.Errorf("error contains the identity token")
			}
			if tc.atSignNew && v.FulcioCalls.Load() != before {
				t.Errorf("a refused token still reached Fulcio")
			}
		})
	}
}
