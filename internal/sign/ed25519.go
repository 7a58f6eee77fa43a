package sign

import (
	"context"
	"crypto"
	"crypto/ed25519"

	"github.com/openwop/wopkit/internal/werr"
)

// Signing methods and file names of SPEC-NOTES §4.
const (
	MethodManual   = "manual"   // v1: signing.method "manual", signature in keys/pack.json.sig
	MethodV2       = "v2"       // v2: signing.scheme "ed25519-canonical-json"
	MethodLegacy   = "ed25519"  // v1 legacy: raw signature over the whole .tgz
	MethodSigstore = "sigstore" // Sigstore bundle at pack.json.sigstore
	MethodNone     = "none"     // no signing step

	SchemeV2       = "ed25519-canonical-json"
	SignatureFile  = "keys/pack.json.sig"
	SigstoreFile   = "pack.json.sigstore"
	DetachedSigExt = ".sig"
)

// Ed25519Signer signs pack.json with an Ed25519 key for the v1 "manual" or
// the v2 "ed25519-canonical-json" scheme. Both put the raw 64-byte signature
// in the tarball at keys/pack.json.sig and beside it as the detached .sig.
type Ed25519Signer struct {
	key    ed25519.PrivateKey
	keyID  string
	method string
}

// NewEd25519Signer returns a Signer for method MethodManual or MethodV2.
// keyID is the registry key id recorded in the signing block.
func NewEd25519Signer(method string, key crypto.Signer, keyID string) (*Ed25519Signer, error) {
	if method != MethodManual && method != MethodV2 {
		return nil, werr.New(werr.Usage, "sign_method_unknown", "signing method %q is not an Ed25519 scheme", method).
			WithHint("use manual or v2")
	}
	priv, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, werr.New(werr.Usage, "key_algorithm_unsupported", "the %s scheme needs an Ed25519 key, got %s", method, AlgorithmOf(key)).
			WithHint("make one with `wopkit keygen --algorithm ed25519`; ECDSA keys are for --sign sigstore")
	}
	if keyID == "" {
		return nil, werr.New(werr.Usage, "key_id_missing", "the %s scheme needs a key id", method).
			WithHint("pass --key-id, the id under which the registry publishes your public key")
	}
	return &Ed25519Signer{key: priv, keyID: keyID, method: method}, nil
}

// Method names the scheme: "manual" or "v2".
func (s *Ed25519Signer) Method() string { return s.method }

// Block returns the signing block that pack.json carries.
func (s *Ed25519Signer) Block() map[string]any {
	if s.method == MethodV2 {
		return map[string]any{"keyId": s.keyID, "scheme": SchemeV2}
	}
	return map[string]any{"method": MethodManual, "publicKeyRef": s.keyID, "signatureRef": SignatureFile}
}

// Sign signs the exact in-tarball pack.json bytes.
func (s *Ed25519Signer) Sign(_ context.Context, packJSON []byte) (*Signature, error) {
	sig := ed25519.Sign(s.key, packJSON)
	return &Signature{
		Files:       map[string][]byte{SignatureFile: sig},
		Detached:    sig,
		DetachedExt: DetachedSigExt,
	}, nil
}

// VerifyEd25519 checks a raw 64-byte Ed25519 signature over msg. where names
// the signed object in the error.
func VerifyEd25519(pub crypto.PublicKey, msg, sig []byte, where string) error {
	pk, ok := pub.(ed25519.PublicKey)
	if !ok {
		return werr.New(werr.Invalid, "key_algorithm_unsupported", "the key for %s is %s, not Ed25519", where, AlgorithmOf(pub)).
			WithHint("manual, v2 and ed25519 signatures need an Ed25519 public key")
	}
	if len(sig) != ed25519.SignatureSize {
		return werr.New(werr.Invalid, "pack_signature_invalid", "the signature of %s is %d bytes, not %d", where, len(sig), ed25519.SignatureSize).
			WithHint("the .sig must hold the raw 64-byte Ed25519 signature")
	}
	if !ed25519.Verify(pk, msg, sig) {
		return werr.New(werr.Invalid, "pack_signature_invalid", "the signature of %s does not verify", where).
			WithHint("the content changed after signing, or it was signed with another key")
	}
	return nil
}
