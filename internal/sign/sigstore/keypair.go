package sigstore

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"fmt"

	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	sgsign "github.com/sigstore/sigstore-go/pkg/sign"
	"github.com/sigstore/sigstore/pkg/cryptoutils"

	"github.com/openwop/wopkit/internal/werr"
)

// keyPair adapts a long-lived ECDSA P-256 crypto.Signer to sigstore-go's
// sign.Keypair (sigstore-go only builds ephemeral key pairs itself).
type keyPair struct {
	priv crypto.Signer
	hint []byte
}

var _ sgsign.Keypair = (*keyPair)(nil)

// newKeyPair checks that k is an ECDSA P-256 key (the only kind whose
// Sigstore message signatures every client verifies) and wraps it.
func newKeyPair(k crypto.Signer) (*keyPair, error) {
	pub, ok := k.Public().(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() {
		return nil, newErr(werr.Invalid, CodeKeyUnsupported,
			fmt.Sprintf("the signing key is %s, but Sigstore bundles need an ECDSA P-256 key", keyKind(k.Public())),
			"create one with `wopkit keygen --algorithm ecdsa-p256 --out NAME`")
	}
	hint, err := KeyHint(pub)
	if err != nil {
		return nil, err
	}
	return &keyPair{priv: k, hint: []byte(hint)}, nil
}

// KeyHint is the public-key hint wopkit writes into keyed bundles: the
// standard base64 SHA-256 of the key's SPKI DER (what sigstore-go's ephemeral
// key pairs use).
func KeyHint(pub crypto.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", newErr(werr.Invalid, CodeKeyUnsupported, "cannot encode the public key: "+err.Error(), "")
	}
	sum := sha256.Sum256(der)
	return base64.StdEncoding.EncodeToString(sum[:]), nil
}

func keyKind(pub crypto.PublicKey) string {
	switch p := pub.(type) {
	case *ecdsa.PublicKey:
		return "ECDSA " + p.Curve.Params().Name
	case ed25519.PublicKey:
		return "Ed25519"
	case *rsa.PublicKey:
		return "RSA"
	case nil:
		return "missing"
	default:
		return fmt.Sprintf("%T", pub)
	}
}

// GetHashAlgorithm returns SHA-256.
func (k *keyPair) GetHashAlgorithm() protocommon.HashAlgorithm {
	return protocommon.HashAlgorithm_SHA2_256
}

// GetSigningAlgorithm returns ECDSA P-256 with SHA-256.
func (k *keyPair) GetSigningAlgorithm() protocommon.PublicKeyDetails {
	return protocommon.PublicKeyDetails_PKIX_ECDSA_P256_SHA_256
}

// GetHint returns the public-key hint.
func (k *keyPair) GetHint() []byte { return k.hint }

// GetKeyAlgorithm returns the key family Fulcio expects.
func (k *keyPair) GetKeyAlgorithm() string { return "ECDSA" }

// GetPublicKey returns the public key.
func (k *keyPair) GetPublicKey() crypto.PublicKey { return k.priv.Public() }

// GetPublicKeyPem returns the public key as SPKI PEM.
func (k *keyPair) GetPublicKeyPem() (string, error) {
	b, err := cryptoutils.MarshalPublicKeyToPEM(k.priv.Public())
	return string(b), err
}

// SignData signs the SHA-256 digest of data and returns the signature and
// the digest.
func (k *keyPair) SignData(_ context.Context, data []byte) ([]byte, []byte, error) {
	sum := sha256.Sum256(data)
	sig, err := k.priv.Sign(rand.Reader, sum[:], crypto.SHA256)
	if err != nil {
		return nil, nil, err
	}
	return sig, sum[:], nil
}
