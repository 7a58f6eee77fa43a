package sign

import (
	"context"
	"crypto"
	"crypto/ed25519"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/werr"
)

// Signing methods and file names of docs/FORMATS.md §4.
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
//
// The key is any crypto.Signer whose public half is Ed25519: a key file, a
// key in the ssh-agent (AgentKey), or the stand-ins of detached signing
// (Prepare, Attach), so every way of signing signs the bytes this one path
// builds.
type Ed25519Signer struct {
	key    crypto.Signer
	keyID  string
	method string
}

// NewEd25519Signer returns a Signer for method MethodManual or MethodV2.
// keyID is the registry key id recorded in the signing block.
func NewEd25519Signer(method string, key crypto.Signer, keyID string) (*Ed25519Signer, error) {
	if _, ok := key.Public().(ed25519.PublicKey); !ok {
		return nil, werr.New(werr.Usage, "key_algorithm_unsupported", "the %s scheme needs an Ed25519 key, got %s", method, AlgorithmOf(key)).
			WithHint("make one with `wopkit keygen --algorithm ed25519`; ECDSA keys are for --sign sigstore")
	}
	return newEd25519(method, key, keyID)
}

// newEd25519 checks the method and key id; key's algorithm is the caller's.
func newEd25519(method string, key crypto.Signer, keyID string) (*Ed25519Signer, error) {
	if method != MethodManual && method != MethodV2 {
		return nil, werr.New(werr.Usage, "sign_method_unknown", "signing method %q is not an Ed25519 scheme", method).
			WithHint("use manual or v2")
	}
	if keyID == "" {
		return nil, werr.New(werr.Usage, "key_id_missing", "the %s scheme needs a key id", method).
			WithHint("pass --key-id, the id under which the registry publishes your public key")
	}
	return &Ed25519Signer{key: key, keyID: keyID, method: method}, nil
}

// KeyID is the key id the signing block records.
func (s *Ed25519Signer) KeyID() string { return s.keyID }

// Scheme names what the signing block declares: "ed25519-canonical-json"
// for v2, "manual" for v1.
func (s *Ed25519Signer) Scheme() string {
	if s.method == MethodV2 {
		return SchemeV2
	}
	return MethodManual
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

// Sign signs the exact in-tarball pack.json bytes. It refuses what the
// scheme cannot sign: for v2, bytes that are not I-JSON (RFC 0212 §B: no
// duplicate name, no lone surrogate, no integer beyond ±(2^53-1), however
// written; pack builds them canonical); for
// manual, a v2 pack (its manual block would make it a v1 document, which
// then fails validation as v1 and would be published to the v1 tree).
func (s *Ed25519Signer) Sign(_ context.Context, packJSON []byte) (*Signature, error) {
	if err := s.signable(packJSON); err != nil {
		return nil, err
	}
	sig, err := s.key.Sign(nil, packJSON, crypto.Hash(0))
	if err != nil {
		return nil, err
	}
	if pub, ok := s.key.Public().(ed25519.PublicKey); ok {
		// A key outside the process (an agent, a card) is checked before
		// its signature is packed: a wrong one would be published.
		if err := VerifyEd25519(pub, packJSON, sig, "pack.json"); err != nil {
			return nil, werr.Wrap(werr.Env, "sign_failed", err, "the %s signature just made does not verify", s.method).
				WithHint("the signing key misbehaved; nothing was written")
		}
	}
	return &Signature{
		Files:       map[string][]byte{SignatureFile: sig},
		Detached:    sig,
		DetachedExt: DetachedSigExt,
	}, nil
}

// signable checks packJSON against the scheme's rules (see Sign).
func (s *Ed25519Signer) signable(packJSON []byte) error {
	if s.method == MethodV2 {
		if _, err := jcs.Canonicalize(packJSON, jcs.Options{Strict: true}); err != nil {
			return werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "pack.json is not I-JSON, which the %s scheme signs (RFC 0212)", SchemeV2)
		}
		return nil
	}
	doc, err := jsondoc.Parse(packJSON)
	if err != nil || doc.Root.Kind != jsondoc.Object {
		return nil // nothing to classify; the bytes are signed as given
	}
	// the spec of the manifest as written, without the manual block this
	// signer puts in it
	bare := jsondoc.Node{Kind: jsondoc.Object}
	for _, m := range doc.Root.Members {
		if m.Key != "signing" || m.Value.Get("method") == nil {
			bare.Members = append(bare.Members, m)
		}
	}
	if spec, why := kinds.DetectSpec(&bare); spec == kinds.V2 {
		return werr.New(werr.Invalid, "sign_spec_mismatch", "pack.json is a v2 pack (by its %s), and --sign manual writes the v1 signing block: the signed pack.json would be a v1 document", why).
			WithHint("sign it v2 with --sign v2 (the default for a v2 pack); to sign it manual, make it a v1 pack first (engines.openwop \">=1.0.0 <2.0.0\", no v2 signing block)")
	}
	return nil
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
