package sigstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/verify"

	"github.com/openwop/wopkit/internal/werr"
)

// checkDigest refuses, with a clear message, a bundle whose message digest
// is not the digest of this pack.json: a bundle for another artifact, or a
// pack.json changed after signing.
func checkDigest(b *bundle.Bundle, packJSON []byte) error {
	md := b.GetMessageSignature().GetMessageDigest()
	if md == nil || md.GetAlgorithm() != protocommon.HashAlgorithm_SHA2_256 {
		return nil // sigstore-go checks other digests against the artifact itself
	}
	sum := sha256.Sum256(packJSON)
	if !bytes.Equal(md.GetDigest(), sum[:]) {
		return newErr(werr.Invalid, CodeArtifactMismatch,
			fmt.Sprintf("the Sigstore bundle signs sha256:%s, but this pack.json is sha256:%s: "+
				"the bundle was made for another pack.json, or pack.json was changed after signing",
				hex.EncodeToString(md.GetDigest()), hex.EncodeToString(sum[:])),
			"re-sign the pack, or check that the tarball was not modified")
	}
	return nil
}

// classify turns a sigstore-go verification failure into a wopkit error
// saying which check failed.
func (v *verifier) classify(err error, b *bundle.Bundle) error {
	text := errText(err, "")
	var noID *verify.ErrNoMatchingCertificateIdentity
	if errors.As(err, &noID) {
		got, _ := identityOf(b)
		return newErr(werr.Invalid, CodeIdentityMismatch,
			fmt.Sprintf("the Sigstore bundle was signed by %q (issuer %q), which is not the expected signer %s",
				got.Identity, got.Issuer, v.expected()),
			"check --certificate-identity and --certificate-oidc-issuer; the pack may come from someone else")
	}
	low := strings.ToLower(text)
	switch {
	case strings.Contains(low, "transparency log signature does not match") ||
		strings.Contains(low, "transparency log certificate does not match"):
		return newErr(werr.Invalid, CodeSignatureInvalid,
			"the Sigstore bundle's signature or certificate differs from the one recorded in its transparency-log entry: the bundle was altered: "+text,
			"re-sign the pack, or get an unaltered copy")
	case strings.Contains(low, "signed certificate timestamp") || strings.Contains(low, "scts "):
		return newErr(werr.Invalid, CodeUntrusted,
			"the Sigstore bundle's certificate carries no valid signed certificate timestamp (SCT) from a CT log of the trusted root: "+text,
			"the trusted root lists CT logs, so its Fulcio must embed SCTs; check --trusted-root belongs to the Fulcio instance used")
	case strings.Contains(low, "outside certificate validity"):
		return newErr(werr.Invalid, CodeUntrusted,
			"the Sigstore bundle's certificate was not valid when the transparency log recorded the signature (signed outside its 10-minute window): "+text,
			"re-sign the pack; a bundle whose signature was logged after its certificate expired proves nothing")
	case strings.Contains(low, "log inclusion") || strings.Contains(low, "transparency log") || strings.Contains(low, "tlog"):
		return newErr(werr.Invalid, CodeUntrusted,
			"the Sigstore bundle's transparency-log entry does not verify against the trusted root: "+text,
			"check --trusted-root is the root of the Rekor log the pack was signed with")
	case strings.Contains(low, "timestamp"):
		return newErr(werr.Invalid, CodeUntrusted, "the Sigstore bundle's timestamps do not verify: "+text,
			"check --trusted-root; a certificate must have been valid when the log or timestamp authority saw the signature")
	case strings.Contains(low, "leaf certificate") || strings.Contains(low, "certificate"):
		return newErr(werr.Invalid, CodeUntrusted,
			"the Sigstore bundle's certificate does not chain to a Fulcio CA of the trusted root: "+text,
			"check --trusted-root belongs to the Fulcio instance the pack was signed with")
	default:
		return newErr(werr.Invalid, CodeSignatureInvalid, "the Sigstore bundle's signature over pack.json is invalid: "+text,
			"the bundle or pack.json was changed after signing; re-sign the pack")
	}
}

func (v *verifier) expected() string {
	id, iss := v.opts.CertIdentity, v.opts.CertOIDCIssuer
	if id == "" {
		id = "~" + v.opts.CertIdentityRegexp
	}
	if iss == "" {
		iss = "~" + v.opts.CertOIDCIssuerRegexp
	}
	return fmt.Sprintf("%q (issuer %q)", id, iss)
}
