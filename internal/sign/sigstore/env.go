package sigstore

import (
	"os"

	"github.com/openwop/wopkit/internal/sign"
)

// Environment variables a signer built by NewSignerFromEnv reads.
const (
	// TokenEnv holds the OIDC identity token for keyless signing.
	TokenEnv = "SIGSTORE_ID_TOKEN"
	// FulcioEnv overrides the public-good Fulcio instance (keyless only).
	FulcioEnv = "WOPKIT_FULCIO_URL"
	// RekorEnv overrides the public-good Rekor log (keyless only).
	RekorEnv = "WOPKIT_REKOR_URL"
)

// WithEnv returns the options with what they leave empty taken from the
// environment: the identity token from SIGSTORE_ID_TOKEN and, when keyless,
// Fulcio and Rekor from WOPKIT_FULCIO_URL and WOPKIT_REKOR_URL. Explicit
// options (flags) win; a keyed signer never gets a log from the
// environment, so offline signing stays offline.
func (o SignOptions) WithEnv() SignOptions {
	if o.IdentityToken == "" {
		o.IdentityToken = os.Getenv(TokenEnv)
	}
	if o.Key == nil {
		if o.FulcioURL == "" {
			o.FulcioURL = os.Getenv(FulcioEnv)
		}
		if o.RekorURL == "" {
			o.RekorURL = os.Getenv(RekorEnv)
		}
	}
	return o
}

// NewSignerFromEnv is NewSigner over o.WithEnv(): the one way the CLI and
// the `wopkit new` wizard build a Sigstore signer.
func NewSignerFromEnv(o SignOptions) (sign.Signer, error) {
	return NewSigner(o.WithEnv())
}

// KeylessReady reports whether keyless signing has an identity token in the
// environment and, when not, says why in one line (the token itself is
// never part of the answer).
func KeylessReady() (ok bool, reason string) {
	if os.Getenv(TokenEnv) == "" {
		return false, TokenEnv + " is not set: export an OIDC identity token to sign keyless"
	}
	return true, ""
}
