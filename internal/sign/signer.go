// Package sign holds wopkit's signing keys and signature schemes: Ed25519 v1
// "manual", v1 legacy "ed25519" (over the whole tarball) and v2
// "ed25519-canonical-json". Sigstore lives in the sub-package sign/sigstore,
// the only place that imports sigstore-go; this package defines the small
// interfaces through which the rest of wopkit uses it.
package sign

import "context"

// Signer signs the canonical pack.json of a pack being built.
type Signer interface {
	// Method names the scheme: "manual", "v2" or "sigstore".
	Method() string
	// Block returns the signing block that becomes pack.json's "signing"
	// member before the manifest is canonicalised (it is covered by the
	// signature).
	Block() map[string]any
	// Sign signs the exact in-tarball pack.json bytes.
	Sign(ctx context.Context, packJSON []byte) (*Signature, error)
}

// Signature is what a Signer produced for one pack.
type Signature struct {
	// Files are added to the tarball, e.g. "keys/pack.json.sig" or
	// "pack.json.sigstore".
	Files map[string][]byte
	// Detached is written beside the tarball as <base><DetachedExt>.
	Detached []byte
	// DetachedExt is the detached file's suffix, e.g. ".sig".
	DetachedExt string
}

// BundleVerifier verifies a Sigstore bundle over pack.json. It is implemented
// by sign/sigstore and handed to the verifier by the command layer, so the
// verifier does not depend on sigstore-go.
type BundleVerifier interface {
	VerifyBundle(ctx context.Context, bundle, packJSON []byte) (*SignerIdentity, error)
}

// SignerIdentity says who signed a Sigstore bundle.
type SignerIdentity struct {
	Identity string `json:"identity,omitempty"` // certificate SAN (email, URI) for keyless; empty for keyed
	Issuer   string `json:"issuer,omitempty"`   // OIDC issuer for keyless
	LogIndex int64  `json:"logIndex"`           // transparency-log index, -1 when none
	KeyHint  string `json:"keyHint,omitempty"`  // public-key hint for keyed bundles
}
