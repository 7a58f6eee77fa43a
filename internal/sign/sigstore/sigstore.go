// Package sigstore signs and verifies pack.json with Sigstore bundles
// (signing.method "sigstore"). It is the only wopkit package that imports
// sigstore-go: the rest of wopkit sees it through sign.Signer,
// sign.BundleVerifier and Summarize.
//
// A bundle is a standard v0.3 Sigstore bundle
// (application/vnd.dev.sigstore.bundle.v0.3+json) holding a message signature
// over the exact in-tarball pack.json bytes, so any Sigstore client can check
// it (for example `cosign verify-blob --bundle pack.json.sigstore pack.json`).
// Keyless bundles carry a Fulcio certificate and a Rekor entry; keyed bundles
// carry a public-key hint for an ECDSA P-256 key.
package sigstore

import (
	"strings"

	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/werr"
)

// Method is the signing method name in pack.json's signing block.
const Method = "sigstore"

// BundleFile is the bundle's path inside the tarball.
const BundleFile = "pack.json.sigstore"

// DetachedExt is the suffix of the bundle written beside the tarball.
const DetachedExt = ".sigstore.json"

// BundleMediaType is the media type of the bundles wopkit writes.
const BundleMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json"

// The public-good Sigstore instance, used when no URL is given.
const (
	DefaultFulcioURL = "https://fulcio.sigstore.dev"
	DefaultRekorURL  = "https://rekor.sigstore.dev"
)

// Stable error codes of this package.
const (
	CodeTokenMissing       = "sigstore_token_missing"
	CodeTokenInvalid       = "sigstore_token_invalid"
	CodeFulcioFailed       = "sigstore_fulcio_failed"
	CodeRekorFailed        = "sigstore_rekor_failed"
	CodeTSAFailed          = "sigstore_tsa_failed"
	CodeKeyUnsupported     = "sigstore_key_unsupported"
	CodeSignFailed         = "sigstore_sign_failed"
	CodeBundleInvalid      = "sigstore_bundle_invalid"
	CodeArtifactMismatch   = "sigstore_artifact_mismatch"
	CodeSignatureInvalid   = "sigstore_signature_invalid"
	CodeIdentityMismatch   = "sigstore_identity_mismatch"
	CodeIdentityRequired   = "sigstore_identity_required"
	CodeCertificateExpired = "sigstore_certificate_expired"
	CodeUntrusted          = "sigstore_untrusted"
	CodeTrustedRootInvalid = "sigstore_trusted_root_invalid"
)

// scrub removes secret from s, so that an identity token echoed back by a
// server never reaches an error message.
func scrub(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[identity token]")
}

// nilWrap is what fmt.Errorf writes for a %w given a nil error, as
// sigstore-go does when it joins no verification errors ("...: 0 < 1;
// error: %!w(<nil>)"), with the words that introduce it.
var nilWrap = lazyre.New(`[;:,]?\s*(error:\s*)?%!w\(<nil>\)`)

// errText is err's message without any copy of the token and without
// fmt's trace of a nil wrapped error, cut to a length that fits on one
// line.
func errText(err error, token string) string {
	s := scrub(err.Error(), token)
	s = nilWrap.ReplaceAllString(s, "")
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// newErr builds a *werr.Error with a hint in one call.
func newErr(class werr.Class, code, msg, hint string) *werr.Error {
	return &werr.Error{Class: class, Code: code, Msg: msg, Hint: hint}
}
