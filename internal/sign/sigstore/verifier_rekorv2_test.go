package sigstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/werr"
)

// From the Sigstore conformance run: a bundle whose transparency-log entry
// comes from a Rekor v2 log records no integrated time; only an RFC 3161
// timestamp says when it was signed. Such a bundle verifies with one; a
// refusal names the timestamp that is wrong (never "recorded at
// 0001-01-01") and carries none of sigstore-go's "%!w(<nil>)".
func TestRekorV2Entries(t *testing.T) {
	v := newVirtualSigstore(t)
	withTSA := keyless(v, signer1)
	withTSA.TSAURL = v.TSAURL
	late := newVirtualSigstore(t) // certificate expired 30 minutes ago, RFC 3161 timestamp now
	late.CertStart, late.RekorTime = -40*time.Minute, -35*time.Minute
	lateTSA := keyless(late, signer1)
	lateTSA.TSAURL = late.TSAURL
	for _, tc := range []struct {
		name      string
		tr        string
		bundle    []byte
		code      string
		says, not []string
	}{
		{"Rekor v2 entry and an RFC 3161 timestamp", v.TrustedRoot(), v.WithRekorV2Entry(signWith(t, withTSA)), "", nil, nil},
		{"Rekor v2 entry and no RFC 3161 timestamp", v.TrustedRoot(), v.WithRekorV2Entry(signWith(t, keyless(v, signer1))), CodeUntrusted,
			[]string{"records no integrated time", "no RFC 3161 timestamp"}, []string{"%!", "0001-01-01"}},
		{"Rekor v2 entry, RFC 3161 timestamp after the certificate expired", late.TrustedRoot(), late.WithRekorV2Entry(signWith(t, lateTSA)), CodeUntrusted,
			[]string{"RFC 3161 timestamp says the signature was made at", "outside its certificate's validity"}, []string{"%!", "0001-01-01", "recorded at"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ver, err := NewVerifier(pinned(tc.tr))
			must(t, err)
			id, err := ver.VerifyBundle(context.Background(), tc.bundle, testPack)
			if tc.code == "" {
				if err != nil || id.Identity != signer1 || id.LogIndex != 0 {
					t.Fatalf("refused: %v (%+v)", err, id)
				}
				return
			}
			if werr.CodeOf(err) != tc.code || werr.ExitCode(err) != int(werr.Invalid) {
				t.Fatalf("code %q exit %d, want %q exit 1: %v", werr.CodeOf(err), werr.ExitCode(err), tc.code, err)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(err.Error(), s) {
					t.Errorf("error %q says %q", err, s)
				}
			}
		})
	}
}

// errText drops fmt's trace of a nil wrapped error, with the words that
// introduce it, and keeps everything else.
func TestErrTextDropsNilWrap(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("threshold not met for verified signed & log entry integrated timestamps: %d < %d; error: %w", 0, 1, errors.Join()),
			"threshold not met for verified signed & log entry integrated timestamps: 0 < 1"},
		{fmt.Errorf("unable to verify signed timestamps: %w", nil), "unable to verify signed timestamps"},
		{fmt.Errorf("outer: %w", fmt.Errorf("inner: %w", errors.New("cause"))), "outer: inner: cause"},
	} {
		if got := errText(tc.err, ""); got != tc.want {
			t.Errorf("errText(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
