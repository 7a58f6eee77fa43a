package sigstore

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"
)

// FuzzBundle feeds arbitrary bytes to the bundle decoder and to a keyed
// verifier: they must refuse, never panic, and never accept a bundle that
// was not made with the key.
func FuzzBundle(f *testing.F) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	good := signWith(f, SignOptions{Key: key})
	f.Add(good)
	f.Add(signWith(f, keyless(newVirtualSigstore(f), signer1)))
	f.Add([]byte(`{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json"}`))
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ver, err := NewVerifier(VerifyOptions{Key: &other.PublicKey})
	must(f, err)
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, _ = Summarize(raw)
		if id, err := ver.VerifyBundle(context.Background(), raw, testPack); err == nil {
			t.Fatalf("accepted a bundle not made with the key: %+v", id)
		}
	})
}
