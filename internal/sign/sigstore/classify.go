package sigstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/digitorus/timestamp"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/verify"

	"github.com/openwop/wopkit/internal/untrusted"
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
	case strings.Contains(low, "threshold not met") && strings.Contains(low, "timestamp") && untimed(b):
		return newErr(werr.Invalid, CodeUntrusted,
			"the Sigstore bundle has nothing that says when it was signed: its transparency-log entry records no integrated time "+
				"(a Rekor v2 log records none, and relies on an RFC 3161 timestamp), and the bundle carries no RFC 3161 timestamp",
			"re-sign the pack with a timestamp authority (--tsa-url) when its Rekor log is v2; a certificate lives 10 minutes, so its signature needs a trusted time")
	case strings.Contains(low, "not enough verified log entries") && noTlogEntries(b):
		return newErr(werr.Invalid, CodeUntrusted,
			"the Sigstore bundle has no transparency-log entry, and wopkit requires one (an RFC 3161 timestamp alone is not enough): "+text,
			"re-sign the pack with a Rekor log (wopkit pack --sign sigstore records one)")
	case strings.Contains(low, "log inclusion") || strings.Contains(low, "transparency log") || strings.Contains(low, "tlog"):
		return newErr(werr.Invalid, CodeUntrusted,
			"the Sigstore bundle's transparency-log entry does not verify against the trusted root: "+text,
			"check --trusted-root is the root of the Rekor log the pack was signed with")
	case strings.Contains(low, "timestamp"):
		return newErr(werr.Invalid, CodeUntrusted, "the Sigstore bundle's timestamps do not verify: "+text,
			"check --trusted-root; a certificate must have been valid when the log or timestamp authority saw the signature")
	case strings.Contains(low, "leaf certificate") || strings.Contains(low, "certificate"):
		if why := outsideValidity(b); why != "" {
			return newErr(werr.Invalid, CodeUntrusted,
				"the Sigstore bundle's "+why+": a signature is only valid while its short-lived certificate is ("+text+")",
				"re-sign the pack; a timestamp outside the certificate's validity proves nothing")
		}
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

// outsideValidity names a timestamp of b (a transparency-log integrated
// time or an RFC 3161 timestamp) that lies outside the validity of b's
// certificate, or "": sigstore-go reports that case only as "leaf
// certificate verification failed".
func outsideValidity(b *bundle.Bundle) string {
	vc, err := b.VerificationContent()
	if err != nil {
		return ""
	}
	cert := vc.Certificate()
	if cert == nil {
		return ""
	}
	span := fmt.Sprintf("valid %s to %s", cert.NotBefore.UTC().Format(time.RFC3339), cert.NotAfter.UTC().Format(time.RFC3339))
	outside := func(t time.Time) bool { return t.Before(cert.NotBefore) || t.After(cert.NotAfter) }
	if entries, err := b.TlogEntries(); err == nil {
		for _, e := range entries {
			// A Rekor v2 entry records no integrated time (the zero time):
			// it says nothing about when the signature was made.
			if t := e.IntegratedTime(); !t.IsZero() && outside(t) {
				return fmt.Sprintf("transparency-log entry %d was recorded at %s, outside its certificate's validity (%s)",
					e.LogIndex(), t.UTC().Format(time.RFC3339), span)
			}
		}
	}
	if tss, err := b.Timestamps(); err == nil {
		for _, raw := range tss {
			ts, err := timestamp.ParseResponse(raw)
			if err != nil {
				continue
			}
			if outside(ts.Time) {
				return fmt.Sprintf("RFC 3161 timestamp says the signature was made at %s, outside its certificate's validity (%s)",
					ts.Time.UTC().Format(time.RFC3339), span)
			}
		}
	}
	return ""
}

// bundleProblem explains what is wrong in a bundle sigstore-go refused to
// load with a message about its internals (a negative log index reads "nil
// value in transaction log entry"): it names the field, else returns text.
func bundleProblem(raw []byte, text string) string {
	var m struct {
		VerificationMaterial struct {
			TlogEntries []map[string]any `json:"tlogEntries"`
		} `json:"verificationMaterial"`
	}
	if untrusted.DecodeJSON(raw, &m) != nil {
		return text
	}
	for i, e := range m.VerificationMaterial.TlogEntries {
		for _, f := range []string{"logIndex", "integratedTime"} {
			v := fmt.Sprint(e[f])
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n < 0 {
				return fmt.Sprintf("transparency-log entry %d has a negative %s (%d); a log assigns indexes and times from 0 up", i, f, n)
			}
		}
		if e["logIndex"] == nil {
			return fmt.Sprintf("transparency-log entry %d has no logIndex", i)
		}
	}
	return text
}

// untimed reports whether no timestamp of b says when it was signed: no
// transparency-log entry records an integrated time (Rekor v2 entries never
// do) and the bundle holds no RFC 3161 timestamp.
func untimed(b *bundle.Bundle) bool {
	entries, err := b.TlogEntries()
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IntegratedTime().IsZero() {
			return false
		}
	}
	stamps, err := b.Timestamps()
	return err == nil && len(stamps) == 0
}

func noTlogEntries(b *bundle.Bundle) bool {
	entries, err := b.TlogEntries()
	return err == nil && len(entries) == 0
}
