package sigstore

import (
	"fmt"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/fulcio/certificate"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// maxBundle bounds the bundle size read (real bundles are a few KB).
const maxBundle = 1 << 20

// parseBundle decodes and structurally validates a bundle, which must hold
// a message signature (not a DSSE envelope).
func parseBundle(raw []byte) (*bundle.Bundle, error) {
	const hint = "the tarball's pack.json.sigstore must be a Sigstore bundle made by `wopkit pack --sign sigstore`"
	if len(raw) > maxBundle {
		return nil, newErr(werr.Invalid, CodeBundleInvalid,
			fmt.Sprintf("%s is %d bytes, more than the %d a Sigstore bundle can be", BundleFile, len(raw), maxBundle), hint)
	}
	var b bundle.Bundle
	if err := b.UnmarshalJSON(raw); err != nil {
		return nil, newErr(werr.Invalid, CodeBundleInvalid,
			fmt.Sprintf("%s is not a valid Sigstore bundle: %s", BundleFile, bundleProblem(raw, errText(err, ""))), hint)
	}
	if b.GetMessageSignature() == nil {
		return nil, newErr(werr.Invalid, CodeBundleInvalid,
			fmt.Sprintf("%s holds a DSSE envelope, not a message signature over pack.json", BundleFile), hint)
	}
	return &b, nil
}

// identityOf reads who signed a bundle, without verifying anything.
func identityOf(b *bundle.Bundle) (*sign.SignerIdentity, error) {
	id := &sign.SignerIdentity{LogIndex: -1}
	vc, err := b.VerificationContent()
	if err != nil {
		return nil, newErr(werr.Invalid, CodeBundleInvalid, "the Sigstore bundle's verification material is unusable: "+errText(err, ""), "")
	}
	if cert := vc.Certificate(); cert != nil {
		s, err := certificate.SummarizeCertificate(cert)
		if err != nil {
			return nil, newErr(werr.Invalid, CodeBundleInvalid, "the Sigstore bundle's certificate is unreadable: "+errText(err, ""), "")
		}
		id.Identity, id.Issuer = s.SubjectAlternativeName, s.Issuer
	} else if pk := vc.PublicKey(); pk != nil {
		id.KeyHint = pk.Hint()
	}
	if entries, err := b.TlogEntries(); err == nil && len(entries) > 0 {
		id.LogIndex = entries[0].LogIndex()
	}
	return id, nil
}

// Summarize says who signed a bundle (identity, issuer, log index or key
// hint) for `inspect`. It verifies nothing.
func Summarize(bundleJSON []byte) (*sign.SignerIdentity, error) {
	b, err := parseBundle(bundleJSON)
	if err != nil {
		return nil, err
	}
	return identityOf(b)
}
