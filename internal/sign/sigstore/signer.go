package sigstore

import (
	"bytes"
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	sgsign "github.com/sigstore/sigstore-go/pkg/sign"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// SignOptions configures a Sigstore signer.
type SignOptions struct {
	// Key is an ECDSA P-256 key for a keyed bundle (public-key hint); nil
	// signs keyless with a Fulcio certificate for IdentityToken.
	Key crypto.Signer
	// FulcioURL is the Fulcio instance (keyless only); "" is the public-good
	// instance.
	FulcioURL string
	// RekorURL is the Rekor v1 transparency log. "" means the public-good
	// log when keyless, and no log entry when keyed (air-gapped signing).
	RekorURL string
	// TSAURL is an RFC 3161 timestamp authority's full endpoint URL; "" asks
	// for no timestamp.
	TSAURL string
	// IdentityToken is the OIDC identity token for keyless signing
	// (--identity-token or SIGSTORE_ID_TOKEN). It is never printed or written.
	IdentityToken string
	// TrustedRoot, when set, is a trusted_root.json path against which a
	// keyless bundle is checked right after signing, before it is returned.
	TrustedRoot string
	// HTTPClient's Transport is used for Fulcio and the timestamp authority
	// (nil: Go's default). Rekor's client makes its own connections.
	HTTPClient *http.Client
	// Timeout bounds each network request (0: 30 s).
	Timeout time.Duration
}

type signer struct {
	opts SignOptions
	kp   sgsign.Keypair // the long-lived key pair; nil when keyless
}

// NewSigner returns a sign.Signer that makes Sigstore bundles over pack.json.
// It checks the key and the identity token up front, without network calls.
func NewSigner(opts SignOptions) (sign.Signer, error) {
	s := &signer{opts: opts}
	if opts.Key != nil {
		kp, err := newKeyPair(opts.Key)
		if err != nil {
			return nil, err
		}
		s.kp = kp
		return s, nil
	}
	if s.opts.FulcioURL == "" {
		s.opts.FulcioURL = DefaultFulcioURL
	}
	if s.opts.RekorURL == "" {
		s.opts.RekorURL = DefaultRekorURL
	}
	if _, err := checkToken(opts.IdentityToken, time.Now()); err != nil {
		return nil, err
	}
	return s, nil
}

// Method returns "sigstore".
func (s *signer) Method() string { return Method }

// Block returns the signing block {"method":"sigstore","signatureRef":"pack.json.sigstore"}.
func (s *signer) Block() map[string]any {
	return map[string]any{"method": Method, "signatureRef": BundleFile}
}

// Sign makes the bundle over packJSON. On any failure it returns an error and
// no output.
func (s *signer) Sign(ctx context.Context, packJSON []byte) (*sign.Signature, error) {
	b, err := s.bundle(ctx, packJSON)
	if err != nil {
		return nil, err
	}
	out, err := marshalBundle(b)
	if err != nil {
		return nil, err
	}
	return &sign.Signature{
		Files:       map[string][]byte{BundleFile: out},
		Detached:    out,
		DetachedExt: DetachedExt,
	}, nil
}

func (s *signer) bundle(ctx context.Context, packJSON []byte) (*protobundle.Bundle, error) {
	var transport http.RoundTripper
	if s.opts.HTTPClient != nil {
		transport = s.opts.HTTPClient.Transport
	}
	bo := sgsign.BundleOptions{Context: ctx}
	kp := s.kp
	if kp == nil {
		// Re-check: a token that was fresh when the command started may have
		// expired while the pack was built.
		if _, err := checkToken(s.opts.IdentityToken, time.Now()); err != nil {
			return nil, err
		}
		eph, err := sgsign.NewEphemeralKeypair(nil)
		if err != nil {
			return nil, newErr(werr.Env, CodeSignFailed, "cannot create an ephemeral signing key: "+err.Error(), "")
		}
		kp = eph
		bo.CertificateProvider = &fulcioProvider{
			f: sgsign.NewFulcio(&sgsign.FulcioOptions{
				BaseURL: strings.TrimRight(s.opts.FulcioURL, "/"), Timeout: s.opts.Timeout, Transport: transport,
			}),
			url:   s.opts.FulcioURL,
			token: s.opts.IdentityToken,
		}
		bo.CertificateProviderOptions = &sgsign.CertificateProviderOptions{IDToken: s.opts.IdentityToken}
	}
	if s.opts.RekorURL != "" {
		bo.TransparencyLogs = []sgsign.Transparency{&rekorLog{
			r: sgsign.NewRekor(&sgsign.RekorOptions{
				BaseURL: strings.TrimRight(s.opts.RekorURL, "/"), Timeout: s.opts.Timeout, Version: 1,
			}),
			url: s.opts.RekorURL,
		}}
	}
	b, err := sgsign.Bundle(&sgsign.PlainData{Data: packJSON}, kp, bo)
	if err != nil {
		var we *werr.Error
		if errors.As(err, &we) {
			return nil, we
		}
		return nil, newErr(werr.Env, CodeSignFailed, "sigstore signing failed: "+errText(err, s.opts.IdentityToken), "nothing was written")
	}
	if s.opts.TSAURL != "" {
		tsa := &tsaClient{
			t:   sgsign.NewTimestampAuthority(&sgsign.TimestampAuthorityOptions{URL: s.opts.TSAURL, Timeout: s.opts.Timeout, Transport: transport}),
			url: s.opts.TSAURL,
		}
		ts, err := tsa.GetTimestamp(ctx, b.GetMessageSignature().GetSignature())
		if err != nil {
			return nil, err
		}
		b.VerificationMaterial.TimestampVerificationData = &protobundle.TimestampVerificationData{
			Rfc3161Timestamps: []*protocommon.RFC3161SignedTimestamp{{SignedTimestamp: ts}},
		}
	}
	if s.opts.TrustedRoot != "" {
		if err := s.selfCheck(b, packJSON); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// selfCheck verifies a freshly made bundle against the configured trusted
// root (any identity: the signer just chose it), so that a bundle no verifier
// would accept is never written.
func (s *signer) selfCheck(b *protobundle.Bundle, packJSON []byte) error {
	v, err := newVerifier(VerifyOptions{TrustedRoot: s.opts.TrustedRoot, anyIdentity: true, Key: keyOf(s.kp)})
	if err != nil {
		return err
	}
	raw, err := marshalBundle(b)
	if err != nil {
		return err
	}
	if _, err := v.VerifyBundle(context.Background(), raw, packJSON); err != nil {
		return newErr(werr.Invalid, CodeSignFailed,
			"the bundle just made does not verify against --trusted-root: "+err.Error(),
			"check that --trusted-root belongs to the Fulcio/Rekor instances used; nothing was written")
	}
	return nil
}

func keyOf(kp sgsign.Keypair) crypto.PublicKey {
	if kp == nil {
		return nil
	}
	return kp.GetPublicKey()
}

// marshalBundle writes a bundle as compact JSON (protojson's output varies
// its whitespace from run to run; compacting makes it stable).
func marshalBundle(b *protobundle.Bundle) ([]byte, error) {
	raw, err := protojson.Marshal(b)
	if err != nil {
		return nil, newErr(werr.Env, CodeSignFailed, "cannot encode the Sigstore bundle: "+err.Error(), "")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, newErr(werr.Env, CodeSignFailed, fmt.Sprintf("cannot compact the Sigstore bundle: %v", err), "")
	}
	return buf.Bytes(), nil
}
