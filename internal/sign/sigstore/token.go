package sigstore

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/werr"
)

// tokenClaims are the identity-token claims wopkit looks at before sending the
// token to Fulcio. They are not trusted: Fulcio verifies the token; this only
// catches a malformed or expired token early, with a clear message, and
// without any network call.
type tokenClaims struct {
	Issuer        string `json:"iss"`
	Subject       string `json:"sub"`
	Email         string `json:"email"`
	EmailVerified any    `json:"email_verified"`
	Expiry        int64  `json:"exp"`
}

// checkToken decodes the unverified claims of a JWT identity token and
// refuses one that is malformed, has no subject or has expired at now. Its
// errors never contain the token.
func checkToken(token string, now time.Time) (*tokenClaims, error) {
	const hint = "pass a fresh OIDC identity token with --identity-token or SIGSTORE_ID_TOKEN " +
		"(for example from your CI's OIDC provider, audience \"sigstore\")"
	if token == "" {
		return nil, newErr(werr.Usage, CodeTokenMissing,
			"keyless Sigstore signing needs an OIDC identity token and none was given",
			"pass --identity-token or set SIGSTORE_ID_TOKEN; or sign with an ECDSA P-256 key (--key)")
	}
	parts := strings.Split(strings.TrimSpace(token), ".")
	if len(parts) != 3 {
		return nil, newErr(werr.Invalid, CodeTokenInvalid,
			fmt.Sprintf("identity token is not a JWT (%d dot-separated parts instead of 3)", len(parts)), hint)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil, newErr(werr.Invalid, CodeTokenInvalid, "identity token payload is not base64url", hint)
	}
	var c tokenClaims
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, newErr(werr.Invalid, CodeTokenInvalid, "identity token payload is not a JSON object of claims", hint)
	}
	if c.Subject == "" && c.Email == "" {
		return nil, newErr(werr.Invalid, CodeTokenInvalid, "identity token has neither a \"sub\" nor an \"email\" claim", hint)
	}
	if c.Email != "" && !claimTrue(c.EmailVerified) {
		state := "has no \"email_verified\" claim"
		if c.EmailVerified != nil {
			state = fmt.Sprintf("says \"email_verified\": %v", c.EmailVerified)
		}
		return nil, newErr(werr.Invalid, CodeTokenInvalid,
			fmt.Sprintf("identity token names the email %q but %s: Fulcio certifies an email only when the token's provider says it verified it", c.Email, state),
			"get a token whose provider has verified the address (\"email_verified\": true), or a workload token without an email claim (e.g. your CI's OIDC token); or sign with a key instead")
	}
	if c.Expiry != 0 && now.After(time.Unix(c.Expiry, 0)) {
		return nil, newErr(werr.Invalid, CodeTokenInvalid,
			fmt.Sprintf("identity token expired at %s", time.Unix(c.Expiry, 0).UTC().Format(time.RFC3339)), hint)
	}
	return &c, nil
}

// CheckToken checks an identity token the way NewSigner does before any
// network call (a JWT with a subject or a verified email, not expired), so
// that a caller can say what is wrong with it before signing. Its errors
// are *werr.Error values with a hint and never contain the token.
func CheckToken(token string) error {
	_, err := checkToken(token, time.Now())
	return err
}

// claimTrue reads a boolean claim as Fulcio's client does: true, or the
// strings "true" and "True".
func claimTrue(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v == "true" || v == "True"
	}
	return false
}
