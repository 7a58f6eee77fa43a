package sigstore

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/tuf"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"github.com/sigstore/sigstore/pkg/signature"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// VerifyOptions says what a Sigstore bundle must satisfy.
type VerifyOptions struct {
	// TrustedRoot is a trusted_root.json path. "" means the public-good
	// root, fetched (and cached under ~/.sigstore) through Sigstore's TUF
	// repository, which needs the network: offline, pass a file.
	TrustedRoot string
	// Key verifies a keyed bundle (ECDSA public key). With Key and no
	// TrustedRoot, log entries in the bundle are not checked.
	Key crypto.PublicKey
	// The signer's certificate identity and OIDC issuer, exact or as a Go
	// regexp (cosign's --certificate-identity[-regexp] and
	// --certificate-oidc-issuer[-regexp]). Keyless verification needs one of
	// each.
	CertIdentity, CertIdentityRegexp, CertOIDCIssuer, CertOIDCIssuerRegexp string

	anyIdentity bool // only for the signer's own check of a fresh bundle
}

type verifier struct {
	opts     VerifyOptions
	root     root.TrustedMaterial // nil when keyed without a trusted root
	identity *verify.CertificateIdentity

	fetchRoot bool // root is the public-good one, fetched on first use
	once      sync.Once
	rootErr   error
}

// NewVerifier returns a sign.BundleVerifier enforcing opts. Without Key it
// refuses to start unless an identity and an issuer are pinned: accepting any
// identity is not verification.
func NewVerifier(opts VerifyOptions) (sign.BundleVerifier, error) {
	return newVerifier(opts)
}

func newVerifier(opts VerifyOptions) (*verifier, error) {
	v := &verifier{opts: opts}
	if opts.Key == nil && !opts.anyIdentity {
		id, err := identityPolicy(opts)
		if err != nil {
			return nil, err
		}
		v.identity = id
	}
	if opts.Key != nil {
		if _, ok := opts.Key.(*ecdsa.PublicKey); !ok {
			return nil, newErr(werr.Invalid, CodeKeyUnsupported,
				fmt.Sprintf("the verification key is %s, but Sigstore bundles made by wopkit use ECDSA P-256", keyKind(opts.Key)),
				"pass the .pub written by `wopkit keygen --algorithm ecdsa-p256`")
		}
	}
	switch {
	case opts.TrustedRoot != "":
		tr, err := loadTrustedRoot(opts.TrustedRoot)
		if err != nil {
			return nil, err
		}
		v.root = tr
	case opts.Key == nil:
		v.fetchRoot = true // on first use: only keyless bundles need it
	}
	return v, nil
}

// publicGoodRoot fetches the public-good trusted root through TUF once,
// refreshing the cached copy under ~/.sigstore at most once a day (as cosign
// does).
func (v *verifier) publicGoodRoot() error {
	v.once.Do(func() {
		tr, err := root.FetchTrustedRootWithOptions(tuf.DefaultOptions().WithCacheValidity(1))
		if err != nil {
			v.rootErr = newErr(werr.Env, CodeTrustedRootInvalid,
				"could not fetch the public-good Sigstore trusted root through TUF (tuf-repo-cdn.sigstore.dev): "+errText(err, ""),
				"pass --trusted-root FILE (a trusted_root.json, e.g. from `cosign trusted-root create` or github.com/sigstore/root-signing) when offline")
			return
		}
		v.root = tr
	})
	return v.rootErr
}

func identityPolicy(o VerifyOptions) (*verify.CertificateIdentity, error) {
	var missing []string
	if o.CertIdentity == "" && o.CertIdentityRegexp == "" {
		missing = append(missing, "--certificate-identity (or --certificate-identity-regexp)")
	}
	if o.CertOIDCIssuer == "" && o.CertOIDCIssuerRegexp == "" {
		missing = append(missing, "--certificate-oidc-issuer (or --certificate-oidc-issuer-regexp)")
	}
	if len(missing) > 0 {
		return nil, newErr(werr.Usage, CodeIdentityRequired,
			"verifying a keyless Sigstore bundle needs the expected signer: missing "+strings.Join(missing, " and "),
			"e.g. --certificate-identity you@example.com --certificate-oidc-issuer https://accounts.google.com; or --key for a keyed bundle")
	}
	id, err := verify.NewShortCertificateIdentity(o.CertOIDCIssuer, o.CertOIDCIssuerRegexp, o.CertIdentity, o.CertIdentityRegexp)
	if err != nil {
		return nil, newErr(werr.Usage, CodeIdentityRequired, "bad certificate identity pattern: "+err.Error(),
			"the -regexp flags take Go regular expressions; anchor them with ^...$")
	}
	return &id, nil
}

func loadTrustedRoot(path string) (*root.TrustedRoot, error) {
	raw, err := untrusted.ReadNamed(path, untrusted.MaxDocument)
	if err != nil {
		return nil, &werr.Error{Class: werr.Env, Code: CodeTrustedRootInvalid,
			Msg: "cannot read the trusted root " + path, Err: err, Hint: "check --trusted-root"}
	}
	tr, err := root.NewTrustedRootFromJSON(raw)
	if err != nil {
		return nil, newErr(werr.Invalid, CodeTrustedRootInvalid,
			fmt.Sprintf("%s is not a Sigstore trusted_root.json: %s", path, errText(err, "")),
			"pass a trusted_root.json (media type application/vnd.dev.sigstore.trustedroot+json;version=0.1)")
	}
	return tr, nil
}

// VerifyBundle checks bundleJSON over packJSON and says who signed.
func (v *verifier) VerifyBundle(_ context.Context, bundleJSON, packJSON []byte) (*sign.SignerIdentity, error) {
	b, err := parseBundle(bundleJSON)
	if err != nil {
		return nil, err
	}
	if err := checkDigest(b, packJSON); err != nil {
		return nil, err
	}
	vc, err := b.VerificationContent()
	if err != nil {
		return nil, newErr(werr.Invalid, CodeBundleInvalid, "the Sigstore bundle's verification material is unusable: "+errText(err, ""), "")
	}
	cert := vc.Certificate()
	entries, _ := b.TlogEntries()
	stamps, _ := b.Timestamps()
	switch {
	case cert == nil && v.opts.Key == nil:
		return nil, newErr(werr.Invalid, CodeUntrusted,
			fmt.Sprintf("the Sigstore bundle is signed with a key (hint %q), not a Fulcio certificate", vc.PublicKey().Hint()),
			"verify it with --key PUB (the signer's ECDSA P-256 public key)")
	case cert != nil && v.opts.Key != nil:
		return nil, newErr(werr.Invalid, CodeUntrusted,
			"the Sigstore bundle carries a Fulcio certificate (keyless), so --key cannot verify it",
			"use --certificate-identity and --certificate-oidc-issuer instead of --key")
	case cert != nil && time.Now().After(cert.NotAfter) && len(entries) == 0 && len(stamps) == 0:
		return nil, newErr(werr.Invalid, CodeCertificateExpired,
			fmt.Sprintf("the signing certificate expired at %s and the bundle has no transparency-log entry or timestamp proving it signed while the certificate was valid",
				cert.NotAfter.UTC().Format(time.RFC3339)),
			"re-sign the pack with a Rekor log (--rekor-url) or a timestamp authority (--tsa-url)")
	}
	if v.fetchRoot {
		if err := v.publicGoodRoot(); err != nil {
			return nil, err
		}
	}
	sev, policy, err := v.policy(cert != nil, len(entries), len(stamps), packJSON)
	if err != nil {
		return nil, err
	}
	if _, err := sev.Verify(b, policy); err != nil {
		return nil, v.classify(err, b)
	}
	id, err := identityOf(b)
	if err != nil {
		return nil, err
	}
	if cert == nil && (v.root == nil || len(entries) == 0) {
		id.LogIndex = -1 // not verified, so not reported
	}
	return id, nil
}

// policy builds sigstore-go's verifier and policy for one bundle.
func (v *verifier) policy(keyless bool, nEntries, nStamps int, packJSON []byte) (*verify.Verifier, verify.PolicyBuilder, error) {
	var vopts []verify.VerifierOption
	material := v.root
	var idOpt verify.PolicyOption
	if keyless {
		vopts = append(vopts, verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1))
		if len(v.root.CTLogs()) > 0 {
			vopts = append(vopts, verify.WithSignedCertificateTimestamps(1))
		}
		idOpt = verify.WithoutIdentitiesUnsafe()
		if v.identity != nil {
			idOpt = verify.WithCertificateIdentity(*v.identity)
		}
	} else {
		km := keyMaterial(v.opts.Key)
		switch {
		case v.root != nil && nEntries > 0:
			vopts = append(vopts, verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1))
			material = root.TrustedMaterialCollection{v.root, km}
		case v.root != nil && nStamps > 0:
			vopts = append(vopts, verify.WithSignedTimestamps(1))
			material = root.TrustedMaterialCollection{v.root, km}
		default:
			vopts = append(vopts, verify.WithNoObserverTimestamps())
			material = km
		}
		idOpt = verify.WithKey()
	}
	sev, err := verify.NewVerifier(material, vopts...)
	if err != nil {
		return nil, verify.PolicyBuilder{}, newErr(werr.Env, CodeUntrusted, "cannot set up Sigstore verification: "+errText(err, ""), "")
	}
	return sev, verify.NewPolicy(verify.WithArtifact(bytes.NewReader(packJSON)), idOpt), nil
}

// keyMaterial trusts pub for any key hint and at any time (a long-lived
// key has no validity window in the bundle).
func keyMaterial(pub crypto.PublicKey) root.TrustedMaterial {
	return root.NewTrustedPublicKeyMaterial(func(string) (root.TimeConstrainedVerifier, error) {
		sv, err := signature.LoadVerifier(pub, crypto.SHA256)
		if err != nil {
			return nil, err
		}
		return root.NewExpiringKey(sv, time.Time{}, time.Time{}), nil
	})
}
