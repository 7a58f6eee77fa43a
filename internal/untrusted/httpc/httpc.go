// Package httpc is wopkit's one HTTP client policy for registry servers,
// which wopkit does not trust: a client is bound to one origin (scheme, host
// and port, exactly), follows a redirect only for a GET that stays on that
// origin and never for an upload, attaches the API key only to requests for
// that origin, refuses plain http except to a loopback address, and bounds
// every exchange in time (Options.Timeout) and every body read in size
// (ReadBody).
package httpc

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/werr"
)

// DefaultTimeout bounds one exchange (connection, request, answer and the
// reading of its body) when Options.Timeout is zero.
const DefaultTimeout = 2 * time.Minute

// maxRedirects bounds the same-origin redirects followed by one GET.
const maxRedirects = 5

// maxHeaderBytes bounds the header of an answer.
const maxHeaderBytes = 64 << 10

// The stable codes of what the policy refuses.
const (
	CodeInsecure        = "registry_insecure"           // plain http to a host that is not loopback
	CodeRedirectRefused = "registry_redirect_refused"   // a redirect of an upload, or off the origin
	CodeCrossOrigin     = "registry_cross_origin"       // a request for another origin than the client's
	CodeTooLarge        = "registry_response_too_large" // an answer over the bound its reader gave
	CodeTimeout         = "registry_timeout"            // no full answer within Options.Timeout
	CodeUnreachable     = "registry_unreachable"        // any other transport failure
)

// Options configure a Client.
type Options struct {
	// Token is the bearer API key, attached only to requests whose origin
	// is exactly the client's; never printed.
	Token string
	// Timeout bounds each exchange, body included; zero is DefaultTimeout.
	Timeout time.Duration
	// Transport carries the requests; nil is a copy of
	// http.DefaultTransport with a bounded answer header. Tests pass the
	// transport of an httptest TLS server, which trusts its certificate.
	Transport http.RoundTripper
}

// Client talks to one registry origin under the policy of this package.
type Client struct {
	origin string
	base   *url.URL
	hc     *http.Client
}

// New returns a client for the registry at base. A base that is not an
// http(s) URL, carries credentials, a query or a fragment, or is plain http
// to a host that is not loopback is refused (CodeInsecure for the last).
func New(base *url.URL, o Options) (*Client, error) {
	if err := CheckBase(base); err != nil {
		return nil, err
	}
	next := o.Transport
	if next == nil {
		t, ok := http.DefaultTransport.(*http.Transport)
		if !ok {
			t = &http.Transport{Proxy: http.ProxyFromEnvironment}
		}
		t = t.Clone()
		t.MaxResponseHeaderBytes = maxHeaderBytes
		next = t
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	c := &Client{origin: Origin(base), base: base}
	c.hc = &http.Client{
		Transport:     &bearer{next: next, origin: c.origin, token: o.Token},
		CheckRedirect: c.checkRedirect,
		Timeout:       timeout,
	}
	return c, nil
}

// CheckBase reports why base cannot be a registry's base URL, or nil.
func CheckBase(base *url.URL) error {
	switch {
	case base == nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" || base.Opaque != "":
		return werr.New(werr.Usage, "usage", "the registry URL %s is not an http(s) URL", show(base)).
			WithHint("give the registry's base URL, such as https://packs.example.com")
	case base.User != nil:
		return werr.New(werr.Usage, "usage", "the registry URL must not carry credentials").
			WithHint("the API key is read from the environment and sent as a bearer token")
	case base.RawQuery != "" || base.ForceQuery || base.Fragment != "":
		return werr.New(werr.Usage, "usage", "the registry URL %s has a query or a fragment", show(base)).
			WithHint("give the registry's base URL alone, such as https://packs.example.com")
	case base.Scheme == "http" && !Loopback(base.Hostname()):
		return werr.New(werr.Usage, CodeInsecure, "refusing plain http to %s: the API key and the upload would cross the network unencrypted", show(base)).
			WithHint("use https:// (plain http is allowed only to a loopback address: localhost, 127.0.0.1, [::1])")
	}
	return nil
}

// Loopback reports whether host (without port or brackets) is a loopback
// address or the name localhost.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Origin is u's scheme, host and port, normalised ("https://h:443"): two
// URLs are the same origin only when their Origins are equal.
func Origin(u *url.URL) string {
	if u == nil {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// Base is the URL the client was made for.
func (c *Client) Base() *url.URL { return c.base }

// Do sends req, which must be for the client's origin, and returns the
// answer (its Request.URL is the URL that answered, after any redirect
// followed). Every error is a *werr.Error: the policy's refusals as they
// are, CodeTimeout, or CodeUnreachable.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	if Origin(req.URL) != c.origin {
		return nil, werr.New(werr.Invalid, CodeCrossOrigin, "refusing %s %s: it is not on the registry's origin %s", req.Method, show(req.URL), c.origin).
			WithHint("wopkit fetches from a registry only what lies on the origin of its URL")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, transportErr(err, "cannot reach %s", show(req.URL))
	}
	return resp, nil
}

// checkRedirect follows a redirect only for a GET (or HEAD) and only within
// the client's origin: an upload that is redirected would be sent again
// elsewhere, or turned into a GET whose answer looks like a success.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	switch {
	case first.Method != http.MethodGet && first.Method != http.MethodHead:
		return werr.New(werr.Invalid, CodeRedirectRefused, "the registry redirected %s %s to %s; wopkit does not follow a redirect of an upload", first.Method, show(first.URL), show(req.URL)).
			WithHint("give the registry's own URL, not one that redirects (if you trust %s, use its origin)", show(req.URL))
	case Origin(req.URL) != c.origin:
		return werr.New(werr.Invalid, CodeRedirectRefused, "the registry redirected %s to %s, off its origin %s", show(via[len(via)-1].URL), show(req.URL), c.origin).
			WithHint("wopkit follows a redirect only within the origin of the registry URL; if you trust %s, use its origin", Origin(req.URL))
	case len(via) >= maxRedirects:
		return werr.New(werr.Invalid, CodeRedirectRefused, "the registry redirected %s more than %d times", show(first.URL), maxRedirects)
	}
	return nil
}

// bearer attaches the token to a request for exactly origin (scheme, host
// and port), whoever made it (the caller or a redirect), and removes any
// Authorization header from every other request. The answer carries the
// request as it was given, so the token is not handed back with it.
type bearer struct {
	next   http.RoundTripper
	origin string
	token  string
}

func (b *bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Header.Del("Authorization")
	if b.token != "" && Origin(req.URL) == b.origin && (req.URL.Scheme == "https" || Loopback(req.URL.Hostname())) {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	resp, err := b.next.RoundTrip(r)
	if resp != nil {
		resp.Request = req
	}
	return resp, err
}

// transportErr classifies a failure of an exchange: a refusal of the policy
// as it is, a timeout as CodeTimeout, anything else as CodeUnreachable.
func transportErr(err error, format string, args ...any) error {
	var we *werr.Error
	if errors.As(err, &we) {
		return we
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return werr.Wrap(werr.Env, CodeTimeout, err, format, args...).
			WithHint("the registry did not answer in time; try again later")
	}
	return werr.Wrap(werr.Env, CodeUnreachable, err, format, args...)
}

// show is u for a message: without credentials, control characters
// escaped.
func show(u *url.URL) string {
	if u == nil {
		return `""`
	}
	return termsafe.String(u.Redacted())
}
