package sigstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	sgsign "github.com/sigstore/sigstore-go/pkg/sign"

	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/werr"
)

// The wrappers below sit between sigstore-go's sign.Bundle and its Fulcio,
// Rekor and timestamp-authority clients, so that every failure names the
// service that failed, says what to do, never contains the identity token,
// and a panic inside a client on a malformed answer becomes an error.

var (
	statusRE      = lazyre.New(`returned (\d{3})`)
	rekorStatusRE = lazyre.New(`\]\[(4\d\d)\]`)
)

// httpStatus finds the HTTP status in an error of sigstore-go's HTTP clients,
// or 0.
func httpStatus(err error) int {
	m := statusRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// isNetErr says whether err is a connection-level failure (refused, DNS,
// timeout) rather than an answer from the server.
func isNetErr(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, context.DeadlineExceeded)
}

type fulcioProvider struct {
	f     *sgsign.Fulcio
	url   string
	token string
}

// GetCertificate asks Fulcio for a certificate and classifies its failures.
func (p *fulcioProvider) GetCertificate(ctx context.Context, kp sgsign.Keypair, o *sgsign.CertificateProviderOptions) (der []byte, err error) {
	defer recoverAs(&err, CodeFulcioFailed, "Fulcio at "+p.url)
	der, err = p.f.GetCertificate(ctx, kp, o)
	if err == nil {
		return der, nil
	}
	msg := errText(err, p.token)
	switch st := httpStatus(err); {
	case st == 0 && !isNetErr(err) && tokenRefused(msg):
		// sigstore-go read the token before asking Fulcio: no request was
		// made, so the network is not to blame
		return nil, newErr(werr.Invalid, CodeTokenInvalid,
			"the identity token cannot be used for a Fulcio certificate: "+msg,
			"get a fresh token from your OIDC provider with audience \"sigstore\", a subject and, when it names an email, \"email_verified\": true")
	case st == 401 || st == 403:
		return nil, newErr(werr.Invalid, CodeTokenInvalid,
			fmt.Sprintf("Fulcio at %s refused the identity token (HTTP %d): %s", p.url, st, msg),
			"get a fresh token from your OIDC provider (tokens are short-lived) with audience \"sigstore\", "+
				"and check that --fulcio-url trusts its issuer")
	case st >= 400 && st < 500:
		return nil, newErr(werr.Invalid, CodeFulcioFailed,
			fmt.Sprintf("Fulcio at %s rejected the certificate request (HTTP %d): %s", p.url, st, msg),
			"check --fulcio-url and the identity token's claims")
	default:
		return nil, newErr(werr.Env, CodeFulcioFailed,
			fmt.Sprintf("could not get a signing certificate from Fulcio at %s: %s", p.url, msg),
			"check the network and --fulcio-url (or "+FulcioEnv+"), then retry; nothing was written")
	}
}

type rekorLog struct {
	r   *sgsign.Rekor
	url string
}

// GetTransparencyLogEntry records the signature in Rekor and classifies its
// failures.
func (l *rekorLog) GetTransparencyLogEntry(ctx context.Context, pemKey []byte, b *protobundle.Bundle) (err error) {
	defer recoverAs(&err, CodeRekorFailed, "Rekor at "+l.url)
	if err = l.r.GetTransparencyLogEntry(ctx, pemKey, b); err == nil {
		return nil
	}
	class, hint := werr.Env, "check the network and --rekor-url (or "+RekorEnv+"), then retry; nothing was written"
	if !isNetErr(err) && httpStatus(err) == 0 && !errors.Is(err, context.Canceled) {
		// go-openapi reports HTTP answers as typed errors whose text names
		// the operation and status (e.g. "[POST /api/v1/log/entries][400]").
		if rekorStatusRE.MatchString(err.Error()) {
			class, hint = werr.Invalid, "Rekor refused the entry: check --rekor-url points at a Rekor v1 log"
		}
	}
	return newErr(class, CodeRekorFailed,
		fmt.Sprintf("could not record the signature in the Rekor transparency log at %s: %s", l.url, errText(err, "")), hint)
}

type tsaClient struct {
	t   *sgsign.TimestampAuthority
	url string
}

// GetTimestamp asks the timestamp authority for a timestamp and classifies
// its failures.
func (c *tsaClient) GetTimestamp(ctx context.Context, sig []byte) (ts []byte, err error) {
	defer recoverAs(&err, CodeTSAFailed, "the timestamp authority at "+c.url)
	ts, err = c.t.GetTimestamp(ctx, sig)
	if err == nil {
		return ts, nil
	}
	return nil, newErr(werr.Env, CodeTSAFailed,
		fmt.Sprintf("could not get a timestamp from the timestamp authority at %s: %s", c.url, errText(err, "")),
		"check the network and --tsa-url (the full endpoint, e.g. https://timestamp.sigstore.dev/api/v1/timestamp); nothing was written")
}

// recoverAs turns a panic in a service client (on a malformed answer) into an
// error naming the service.
func recoverAs(err *error, code, service string) {
	if r := recover(); r != nil {
		*err = newErr(werr.Env, code, fmt.Sprintf("%s sent an answer wopkit cannot use (%v)", service, r),
			"check that the URL points at the right kind of Sigstore service")
	}
}

// tokenRefused reports whether the text of an error sigstore-go's Fulcio
// client returned before any request is about the identity token (its
// subject, its email's verification, its encoding).
func tokenRefused(msg string) bool {
	low := strings.ToLower(msg)
	for _, s := range []string{"identity token", "identity provider", "idtoken", "subject", "invalid value for boolean"} {
		if strings.Contains(low, s) {
			return true
		}
	}
	return false
}
