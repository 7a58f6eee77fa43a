package sign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"

	"github.com/openwop/wopkit/internal/werr"
)

// Algorithm names a key algorithm wopkit can generate.
type Algorithm string

// The key algorithms of `wopkit keygen --algorithm`.
const (
	Ed25519   Algorithm = "ed25519"    // the registry's algorithm (manual, v2)
	ECDSAP256 Algorithm = "ecdsa-p256" // for Sigstore bundles
)

// PEM block types wopkit reads and writes.
const (
	pemPrivate    = "PRIVATE KEY"
	pemEncrypted  = "ENCRYPTED PRIVATE KEY"
	pemPublic     = "PUBLIC KEY"
	pemECPrivate  = "EC PRIVATE KEY"
	pemOpenSSHKey = "OPENSSH PRIVATE KEY"
)

// PassphraseFunc supplies the passphrase of an encrypted private key. It is
// called only when a key is encrypted.
type PassphraseFunc func() ([]byte, error)

// GenerateKey makes a new private key of the given algorithm.
func GenerateKey(alg Algorithm) (crypto.Signer, error) {
	switch alg {
	case Ed25519, "":
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		return priv, err
	case ECDSAP256:
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	return nil, werr.New(werr.Usage, "key_algorithm_unknown", "unknown key algorithm %q", alg).
		WithHint("use ed25519 or ecdsa-p256")
}

// AlgorithmOf names the algorithm of a public or private key, or "" when
// wopkit does not support it.
func AlgorithmOf(key any) Algorithm {
	switch k := key.(type) {
	case ed25519.PrivateKey, ed25519.PublicKey:
		return Ed25519
	case *ecdsa.PrivateKey:
		if k.Curve == elliptic.P256() {
			return ECDSAP256
		}
	case *ecdsa.PublicKey:
		if k.Curve == elliptic.P256() {
			return ECDSAP256
		}
	}
	return ""
}

// MarshalPrivateKeyPEM encodes key as PKCS#8 PEM; with a non-empty passphrase
// as encrypted PKCS#8 (PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC), the form
// `openssl genpkey -aes-256-cbc` writes.
func MarshalPrivateKeyPEM(key crypto.Signer, passphrase []byte) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "key_invalid", err, "cannot encode the private key")
	}
	if len(passphrase) == 0 {
		return pem.EncodeToMemory(&pem.Block{Type: pemPrivate, Bytes: der}), nil
	}
	enc, err := encryptPKCS8(der, passphrase)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: pemEncrypted, Bytes: enc}), nil
}

// ParsePrivateKeyPEM decodes a PKCS#8 PEM private key, plain or encrypted
// (then pass supplies the passphrase), or a SEC1 "EC PRIVATE KEY". where
// names the key in error messages.
func ParsePrivateKeyPEM(data []byte, where string, pass PassphraseFunc) (crypto.Signer, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, werr.New(werr.Invalid, "key_invalid", "%s holds no PEM block", where).
			WithHint("give a PKCS#8 PEM private key, e.g. from `wopkit keygen` or `openssl genpkey -algorithm ed25519`")
	}
	der := block.Bytes
	switch block.Type {
	case pemPrivate:
	case pemECPrivate:
		k, err := x509.ParseECPrivateKey(der)
		if err != nil {
			return nil, werr.Wrap(werr.Invalid, "key_invalid", err, "%s is not a valid EC private key", where)
		}
		return k, nil
	case pemEncrypted:
		if pass == nil {
			return nil, werr.New(werr.Env, "key_passphrase_unavailable", "%s is encrypted and no passphrase source is set", where).
				WithHint("set WOPKIT_KEY_PASSPHRASE or run on a terminal")
		}
		pw, err := pass()
		if err != nil {
			return nil, err
		}
		der, err = decryptPKCS8(der, pw, where)
		if err != nil {
			return nil, err
		}
	case pemOpenSSHKey:
		return nil, werr.New(werr.Invalid, "key_invalid", "%s is an OpenSSH private key", where).
			WithHint("sign with it through the ssh-agent: `ssh-add FILE`, then --key ssh-agent: (an ECDSA key converts to PKCS#8 with ssh-keygen -p -m PKCS8 -f FILE; an Ed25519 one does not)")
	default:
		return nil, werr.New(werr.Invalid, "key_invalid", "%s holds a %q PEM block, not a private key", where, block.Type).
			WithHint("give the .key file of the pair, not the .pub")
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil && block.Type == pemEncrypted {
		return nil, werr.New(werr.Invalid, "key_passphrase_wrong", "%s: wrong passphrase", where).
			WithHint("check WOPKIT_KEY_PASSPHRASE or retype the passphrase")
	}
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "key_invalid", err, "%s is not a valid PKCS#8 private key", where)
	}
	s, ok := k.(crypto.Signer)
	if !ok || AlgorithmOf(s) == "" {
		return nil, werr.New(werr.Invalid, "key_algorithm_unsupported", "%s holds a %T key", where, k).
			WithHint("use an Ed25519 or ECDSA P-256 key")
	}
	return s, nil
}

// MarshalPublicKeyPEM encodes a public key as SPKI PEM ("PUBLIC KEY").
func MarshalPublicKeyPEM(pub crypto.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "key_invalid", err, "cannot encode the public key")
	}
	return pem.EncodeToMemory(&pem.Block{Type: pemPublic, Bytes: der}), nil
}

// ParsePublicKeyPEM decodes an SPKI PEM public key (Ed25519 or ECDSA P-256).
// where names the key in error messages.
func ParsePublicKeyPEM(data []byte, where string) (crypto.PublicKey, error) {
	block, _ := pem.Decode(data)
	if block == nil || block.Type != pemPublic {
		what := "no PEM block"
		if block != nil {
			what = fmt.Sprintf("a %q PEM block", block.Type)
		}
		return nil, werr.New(werr.Invalid, "key_invalid", "%s holds %s, not a PUBLIC KEY", where, what).
			WithHint("give an SPKI PEM public key (the .pub of `wopkit keygen`)")
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "key_invalid", err, "%s is not a valid SPKI public key", where)
	}
	if AlgorithmOf(k) == "" {
		return nil, werr.New(werr.Invalid, "key_algorithm_unsupported", "%s holds a %T key", where, k).
			WithHint("use an Ed25519 or ECDSA P-256 key")
	}
	return k, nil
}
