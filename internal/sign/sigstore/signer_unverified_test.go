package sigstore

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sgsign "github.com/sigstore/sigstore-go/pkg/sign"

	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
	"github.com/openwop/wopkit/internal/werr"
)

// unverifiedJWT is an identity token naming an email, with verified as its
// email_verified claim (nil: no such claim).
func unverifiedJWT(t *testing.T, verified any) string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]any{"iss": sigstoretest.Issuer, "sub": "u-1", "aud": "sigstore", "email": "dev@acme.test",
		"exp": time.Now().Add(time.Hour).Unix()}
	if verified != nil {
		claims["email_verified"] = verified
	}
	return sigstoretest.SignJWT(t, key, claims)
}

// TestUnverifiedEmailToken (issue 17, item 7): a token whose email is not
// verified is refused before any network call as the token's problem
// (exit 1, sigstore_token_invalid), saying what to do; a verified one, as a
// boolean or Fulcio's client's "true", passes.
func TestUnverifiedEmailToken(t *testing.T) {
	for _, tt := range []struct {
		verified any
		ok       bool
		says     string
	}{
		{nil, false, `no "email_verified" claim`},
		{false, false, `"email_verified": false`},
		{"false", false, `"email_verified": false`},
		{true, true, ""},
		{"true", true, ""},
	} {
		tok := unverifiedJWT(t, tt.verified)
		_, err := NewSigner(SignOptions{IdentityToken: tok, FulcioURL: "http://127.0.0.1:1"})
		if tt.ok {
			if err != nil {
				t.Errorf("email_verified %v: %v", tt.verified, err)
			}
			continue
		}
		var e *werr.Error
		if !errors.As(err, &e) || e.Code != CodeTokenInvalid || e.Class != werr.Invalid {
			t.Fatalf("email_verified %v: %#v", tt.verified, err)
		}
		if !strings.Contains(e.Msg, tt.says) || !strings.Contains(e.Hint, `"email_verified": true`) || strings.Contains(e.Msg+e.Hint, "network") {
			t.Errorf("email_verified %v: %s / %s", tt.verified, e.Msg, e.Hint)
		}
		if strings.Contains(e.Msg+e.Hint, tok) {
			t.Error("the error contains the token")
		}
		if CheckToken(tok) == nil {
			t.Errorf("CheckToken passed email_verified %v", tt.verified)
		}
	}
}

// TestFulcioTokenRefusedLocally: when sigstore-go's Fulcio client refuses
// the token itself (no request made), the error is the token's, not the
// network's, even with Fulcio out of reach.
func TestFulcioTokenRefusedLocally(t *testing.T) {
	down := httptest.NewServer(nil)
	down.Close()
	tok := unverifiedJWT(t, nil)
	p := &fulcioProvider{f: sgsign.NewFulcio(&sgsign.FulcioOptions{BaseURL: down.URL}), url: down.URL, token: tok}
	kp, err := sgsign.NewEphemeralKeypair(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.GetCertificate(context.Background(), kp, &sgsign.CertificateProviderOptions{IDToken: tok})
	var e *werr.Error
	if !errors.As(err, &e) || e.Code != CodeTokenInvalid || e.Class != werr.Invalid || strings.Contains(e.Hint, "network") {
		t.Errorf("a token refused before the request: %#v", err)
	}
	// a connection refused is still the network's
	ok := unverifiedJWT(t, true)
	p.token = ok
	_, err = p.GetCertificate(context.Background(), kp, &sgsign.CertificateProviderOptions{IDToken: ok})
	if !errors.As(err, &e) || e.Code != CodeFulcioFailed || e.Class != werr.Env {
		t.Errorf("Fulcio out of reach: %#v", err)
	}
}
