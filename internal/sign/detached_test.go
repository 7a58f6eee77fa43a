package sign

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// The prepared bytes are the ones the scheme signer is given, and the
// attached signature goes into the same Signature a key file gives.
func TestPrepareAttachRoundTrip(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	for _, method := range []string{MethodV2, MethodManual} {
		pj := packJSONFor(method)
		ps, rec, err := NewPrepareSigner(method, "me-1")
		if err != nil {
			t.Fatal(err)
		}
		direct, _ := NewEd25519Signer(method, priv, "me-1")
		if ps.Scheme() != direct.Scheme() || ps.Method() != method {
			t.Fatalf("%s: prepare scheme %q, direct %q", method, ps.Scheme(), direct.Scheme())
		}
		if _, err := ps.Sign(context.Background(), pj); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(rec.Message(), pj) {
			t.Fatalf("%s: prepared %q, signed %q", method, rec.Message(), pj)
		}
		sig := ed25519.Sign(priv, rec.Message())
		as, err := NewAttachSigner(method, "me-1", priv.Public(), sig, "sig", "pub")
		if err != nil {
			t.Fatal(err)
		}
		got, err := as.Sign(context.Background(), pj)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := direct.Sign(context.Background(), pj)
		if !bytes.Equal(got.Detached, want.Detached) || !bytes.Equal(got.Files[SignatureFile], want.Files[SignatureFile]) || got.DetachedExt != want.DetachedExt {
			t.Fatalf("%s: the attached signature differs from the direct one", method)
		}
		// over other bytes: refused
		_, err = as.Sign(context.Background(), append(bytes.Clone(pj[:len(pj)-1]), ' ', '}'))
		wantCode(t, err, "pack_signature_invalid", werr.Invalid)
		// with another public key: refused
		_, other, _ := ed25519.GenerateKey(rand.Reader)
		as2, _ := NewAttachSigner(method, "me-1", other.Public(), sig, "sig", "pub")
		_, err = as2.Sign(context.Background(), pj)
		wantCode(t, err, "pack_signature_invalid", werr.Invalid)
	}
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, err := NewAttachSigner(MethodV2, "me-1", ec.Public(), make([]byte, 64), "sig", "pub")
	wantCode(t, err, "key_algorithm_unsupported", werr.Invalid)
	_, _, err = NewPrepareSigner(MethodSigstore, "me-1")
	wantCode(t, err, "sign_method_unknown", werr.Usage)
	_, _, err = NewPrepareSigner(MethodV2, "")
	wantCode(t, err, "key_id_missing", werr.Usage)
}

func TestParseSignature(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	sig := ed25519.Sign(priv, []byte("x"))
	ok := map[string][]byte{
		"raw":              sig,
		"base64":           []byte(base64.StdEncoding.EncodeToString(sig)),
		"base64 + newline": []byte(base64.StdEncoding.EncodeToString(sig) + "\n"),
		"base64 unpadded":  []byte(base64.RawStdEncoding.EncodeToString(sig)),
		"base64url":        []byte(" " + base64.URLEncoding.EncodeToString(sig) + "\r\n"),
	}
	for name, data := range ok {
		got, err := ParseSignature(data, name)
		if err != nil || !bytes.Equal(got, sig) {
			t.Errorf("%s: %x, %v", name, got, err)
		}
	}
	bad := map[string][]byte{
		"truncated raw":    sig[:63],
		"raw + byte":       append(bytes.Clone(sig), 0),
		"truncated base64": []byte(base64.StdEncoding.EncodeToString(sig)[:80]),
		"base64 of 48":     []byte(base64.StdEncoding.EncodeToString(sig[:48])),
		"hex":              []byte(hex.EncodeToString(sig)),
		"empty":            nil,
	}
	for name, data := range bad {
		_, err := ParseSignature(data, name)
		wantCode(t, err, "pack_signature_invalid", werr.Invalid)
	}
	p := filepath.Join(t.TempDir(), "big.sig")
	os.WriteFile(p, make([]byte, MaxSignatureFile+1), 0o644)
	_, err := LoadSignature(p)
	wantCode(t, err, "pack_signature_invalid", werr.Invalid)
}
