package sigstore

import (
	"context"
	"strings"
	"testing"
	"time"

	sgsign "github.com/sigstore/sigstore-go/pkg/sign"

	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
	"github.com/openwop/wopkit/internal/werr"
)

// keylessTSAOnly makes a keyless bundle with an RFC 3161 timestamp and no
// Rekor entry.
func keylessTSAOnly(t *testing.T, v *sigstoretest.Virtual) []byte {
	kp, err := sgsign.NewEphemeralKeypair(nil)
	must(t, err)
	tok := v.Token(signer1, time.Hour)
	b, err := sgsign.Bundle(&sgsign.PlainData{Data: testPack}, kp, sgsign.BundleOptions{
		CertificateProvider:        &fulcioProvider{f: sgsign.NewFulcio(&sgsign.FulcioOptions{BaseURL: v.FulcioURL}), url: v.FulcioURL, token: tok},
		CertificateProviderOptions: &sgsign.CertificateProviderOptions{IDToken: tok},
		TimestampAuthorities:       []*sgsign.TimestampAuthority{sgsign.NewTimestampAuthority(&sgsign.TimestampAuthorityOptions{URL: v.TSAURL, Timeout: 10 * time.Second})},
	})
	must(t, err)
	raw, err := marshalBundle(b)
	must(t, err)
	return raw
}

// Issue 10 item 14: refusals say what is wrong, not what sigstore-go's
// internals tripped on; every verdict (code, exit class) stays.
func TestVerifyMessagesSayWhatIsWrong(t *testing.T) {
	v := newVirtualSigstore(t)
	good := signWith(t, keyless(v, signer1))
	late := newVirtualSigstore(t) // logged while valid, RFC 3161 timestamp after expiry
	late.CertStart, late.RekorTime = -40*time.Minute, -35*time.Minute
	o := keyless(late, signer1)
	o.TSAURL = late.TSAURL
	tsaLate := signWith(t, o)
	tsaOnly := newVirtualSigstore(t)
	tests := []struct {
		name      string
		tr        string
		bundle    []byte
		code      string
		says, not string
	}{
		{"RFC 3161 timestamp outside the certificate's validity", late.TrustedRoot(), tsaLate, CodeUntrusted,
			"outside its certificate's validity", "does not chain to a Fulcio CA"},
		{"negative log index", v.TrustedRoot(), editJSON(t, good, func(m map[string]any) {
			m["verificationMaterial"].(map[string]any)["tlogEntries"].([]any)[0].(map[string]any)["logIndex"] = "-1"
		}), CodeBundleInvalid, "negative logIndex (-1)", "nil value"},
		{"no transparency-log entry", tsaOnly.TrustedRoot(), keylessTSAOnly(t, tsaOnly), CodeUntrusted,
			"has no transparency-log entry", "does not verify against the trusted root"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ver, err := NewVerifier(pinned(tc.tr))
			must(t, err)
			_, err = ver.VerifyBundle(context.Background(), tc.bundle, testPack)
			if werr.CodeOf(err) != tc.code || werr.ExitCode(err) != int(werr.Invalid) {
				t.Fatalf("code %q exit %d, want %q exit 1: %v", werr.CodeOf(err), werr.ExitCode(err), tc.code, err)
			}
			if !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), tc.not) {
				t.Errorf("error %q: want %q, not %q", err, tc.says, tc.not)
			}
		})
	}
}
