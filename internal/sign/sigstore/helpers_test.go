package sigstore

import (
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
)

func newVirtualSigstore(t testing.TB) *sigstoretest.Virtual { return sigstoretest.New(t) }

// keyless signs through all three services of v as email.
func keyless(v *sigstoretest.Virtual, email string) SignOptions {
	return SignOptions{FulcioURL: v.FulcioURL, RekorURL: v.RekorURL, IdentityToken: v.Token(email, time.Hour),
		Timeout: 10 * time.Second}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
