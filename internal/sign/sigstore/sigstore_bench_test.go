package sigstore

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"
)

// BenchmarkSignKeyless measures one keyless signature through the loopback
// Fulcio and Rekor stand-ins (network latency excluded).
func BenchmarkSignKeyless(b *testing.B) {
	v := newVirtualSigstore(b)
	s, err := NewSigner(keyless(v, signer1))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Sign(context.Background(), testPack); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyKeyless measures verifying a keyless bundle against a
// trusted_root.json (certificate chain, Rekor SET and inclusion proof,
// signature, identity).
func BenchmarkVerifyKeyless(b *testing.B) {
	v := newVirtualSigstore(b)
	s, err := NewSigner(keyless(v, signer1))
	if err != nil {
		b.Fatal(err)
	}
	sig, err := s.Sign(context.Background(), testPack)
	if err != nil {
		b.Fatal(err)
	}
	ver, err := NewVerifier(pinned(v.TrustedRoot()))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ver.VerifyBundle(context.Background(), sig.Detached, testPack); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyKeyed measures verifying an offline keyed bundle.
func BenchmarkVerifyKeyed(b *testing.B) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	s, _ := NewSigner(SignOptions{Key: key})
	sig, err := s.Sign(context.Background(), testPack)
	if err != nil {
		b.Fatal(err)
	}
	ver, _ := NewVerifier(VerifyOptions{Key: &key.PublicKey})
	for b.Loop() {
		if _, err := ver.VerifyBundle(context.Background(), sig.Detached, testPack); err != nil {
			b.Fatal(err)
		}
	}
}
