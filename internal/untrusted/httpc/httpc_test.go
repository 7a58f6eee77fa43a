package httpc_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/untrusted/httpc"
	"github.com/openwop/wopkit/internal/werr"
)

const token = "s3cret-token-value"

// recorder is a server that notes the requests it sees (method, path and
// Authorization header) and answers with serve.
type recorder struct {
	mu    sync.Mutex
	seen  []string
	serve func(w http.ResponseWriter, r *http.Request)
}

func (s *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.seen = append(s.seen, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
	s.mu.Unlock()
	if s.serve != nil {
		s.serve(w, r)
		return
	}
	w.Write([]byte("ok"))
}

func (s *recorder) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

func (s *recorder) sawToken() bool {
	for _, r := range s.requests() {
		if strings.Contains(r, token) {
			return true
		}
	}
	return false
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newClient(t *testing.T, base string, o httpc.Options) *httpc.Client {
	t.Helper()
	o.Token = token
	c, err := httpc.New(mustURL(t, base), o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func do(t *testing.T, c *httpc.Client, method, u string) (*http.Response, error) {
	t.Helper()
	var body *strings.Reader
	if method == http.MethodPut {
		body = strings.NewReader("tarball bytes")
	}
	var req *http.Request
	var err error
	if body != nil {
		req, err = http.NewRequestWithContext(t.Context(), method, u, body)
	} else {
		req, err = http.NewRequestWithContext(t.Context(), method, u, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err == nil {
		t.Cleanup(func() { resp.Body.Close() })
	}
	return resp, err
}

func TestCheckBase(t *testing.T) {
	for _, tc := range []struct{ url, code string }{
		{"https://packs.example.com", ""},
		{"https://packs.example.com/registry", ""},
		{"http://127.0.0.1:8080", ""},
		{"http://127.5.5.5", ""},
		{"http://localhost:3000", ""},
		{"http://[::1]:3000", ""},
		{"http://packs.example.com", httpc.CodeInsecure},
		{"http://10.0.0.1", httpc.CodeInsecure},
		{"http://localhost.example.com", httpc.CodeInsecure},
		{"http://[::ffff:10.0.0.1]", httpc.CodeInsecure},
		{"ftp://packs.example.com", "usage"},
		{"file:///etc/passwd", "usage"},
		{"https://user:pw@packs.example.com", "usage"},
		{"https://packs.example.com/?x=1", "usage"},
		{"https://packs.example.com/#x", "usage"},
	} {
		_, err := httpc.New(mustURL(t, tc.url), httpc.Options{Token: token})
		if got := werr.CodeOf(err); got != tc.code {
			t.Errorf("%s: code %q, want %q (%v)", tc.url, got, tc.code, err)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: the error shows the password: %v", tc.url, err)
		}
	}
}

func TestOrigin(t *testing.T) {
	same := [][2]string{
		{"https://Packs.Example.com/a", "https://packs.example.com:443/b"},
		{"http://127.0.0.1/", "http://127.0.0.1:80/x"},
		{"HTTPS://h/", "https://h"},
	}
	differ := [][2]string{
		{"https://h/", "http://h/"},
		{"https://h:443/", "https://h:8443/"},
		{"https://h/", "https://h.evil.com/"},
		{"http://127.0.0.1:1/", "http://localhost:1/"},
	}
	for _, p := range same {
		if httpc.Origin(mustURL(t, p[0])) != httpc.Origin(mustURL(t, p[1])) {
			t.Errorf("%s and %s should be one origin", p[0], p[1])
		}
	}
	for _, p := range differ {
		if httpc.Origin(mustURL(t, p[0])) == httpc.Origin(mustURL(t, p[1])) {
			t.Errorf("%s and %s should be two origins", p[0], p[1])
		}
	}
}

// A GET redirected within the origin is followed with the token; one
// redirected to the same host on another port (which Go's own policy treats
// as the same host) is refused before the other server sees anything; a
// request for another origin is refused outright.
func TestTokenStaysOnOrigin(t *testing.T) {
	other := &recorder{}
	ots := httptest.NewServer(other)
	defer ots.Close()
	reg := &recorder{}
	rs := httptest.NewServer(reg)
	defer rs.Close()
	reg.serve = func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
		case "/port":
			http.Redirect(w, r, ots.URL+"/stolen", http.StatusTemporaryRedirect)
		case "/host":
			http.Redirect(w, r, strings.Replace(ots.URL, "127.0.0.1", "localhost", 1)+"/stolen", http.StatusFound)
		default:
			w.Write([]byte("ok"))
		}
	}
	c := newClient(t, rs.URL, httpc.Options{})

	resp, err := do(t, c, http.MethodGet, rs.URL+"/same")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Request.URL.Path != "/final" {
		t.Errorf("final URL %s, want /final", resp.Request.URL)
	}
	if got := reg.requests(); len(got) != 2 || !strings.HasSuffix(got[1], "auth=Bearer "+token) {
		t.Errorf("the registry saw %q, want the token on both requests", got)
	}
	for _, p := range []string{"/port", "/host"} {
		if _, err := do(t, c, http.MethodGet, rs.URL+p); werr.CodeOf(err) != httpc.CodeRedirectRefused {
			t.Errorf("GET %s: %v, want %s", p, err, httpc.CodeRedirectRefused)
		}
	}
	if _, err := do(t, c, http.MethodGet, ots.URL+"/direct"); werr.CodeOf(err) != httpc.CodeCrossOrigin {
		t.Errorf("GET on another origin: %v, want %s", err, httpc.CodeCrossOrigin)
	}
	if got := other.requests(); len(got) != 0 {
		t.Errorf("the other server saw %q", got)
	}
}

// An upload is never redirected, not even within the origin: a 307 would
// send it again, a 302 would turn it into a GET whose 200 looks like success.
func TestUploadNotRedirected(t *testing.T) {
	reg := &recorder{}
	rs := httptest.NewServer(reg)
	defer rs.Close()
	reg.serve = func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/307":
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		case "/302":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "/308":
			http.Redirect(w, r, "/elsewhere", http.StatusPermanentRedirect)
		default:
			w.WriteHeader(http.StatusCreated)
		}
	}
	c := newClient(t, rs.URL, httpc.Options{})
	for _, p := range []string{"/307", "/302", "/308"} {
		if _, err := do(t, c, http.MethodPut, rs.URL+p); werr.CodeOf(err) != httpc.CodeRedirectRefused {
			t.Errorf("PUT %s: %v, want %s", p, err, httpc.CodeRedirectRefused)
		}
	}
	for _, r := range reg.requests() {
		if strings.Contains(r, "/elsewhere") {
			t.Errorf("a redirect was followed: %s", r)
		}
	}
}

// An https registry that redirects to plain http (same host, any port) is
// refused: nothing reaches the plain server, the token least of all.
func TestNoDowngrade(t *testing.T) {
	plain := &recorder{}
	ps := httptest.NewServer(plain)
	defer ps.Close()
	reg := &recorder{}
	ts := httptest.NewTLSServer(reg)
	defer ts.Close()
	reg.serve = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/secure" {
			w.Write([]byte("ok"))
			return
		}
		http.Redirect(w, r, ps.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}
	c := newClient(t, ts.URL, httpc.Options{Transport: ts.Client().Transport})
	if _, err := do(t, c, http.MethodGet, ts.URL+"/secure"); err != nil {
		t.Fatal(err)
	}
	if !reg.sawToken() {
		t.Error("the token was not sent over TLS to the registry's origin")
	}
	for _, m := range []string{http.MethodGet, http.MethodPut} {
		if _, err := do(t, c, m, ts.URL+"/down"); werr.CodeOf(err) != httpc.CodeRedirectRefused {
			t.Errorf("%s https->http: %v, want %s", m, err, httpc.CodeRedirectRefused)
		}
	}
	if got := plain.requests(); len(got) != 0 {
		t.Errorf("the plain http server saw %q", got)
	}
}

func TestReadBody(t *testing.T) {
	const max = 1000
	reg := &recorder{serve: func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/fits":
			w.Write([]byte(strings.Repeat("x", max)))
		case "/over":
			w.Write([]byte(strings.Repeat("x", max+1)))
		case "/chunked-over":
			for range 10 {
				w.Write([]byte(strings.Repeat("x", max/4)))
				w.(http.Flusher).Flush()
			}
		}
	}}
	rs := httptest.NewServer(reg)
	defer rs.Close()
	c := newClient(t, rs.URL, httpc.Options{})
	for _, tc := range []struct{ path, code string }{
		{"/fits", ""},
		{"/over", httpc.CodeTooLarge},
		{"/chunked-over", httpc.CodeTooLarge},
	} {
		resp, err := do(t, c, http.MethodGet, rs.URL+tc.path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := httpc.ReadBody(resp, max)
		if got := werr.CodeOf(err); got != tc.code {
			t.Errorf("%s: code %q, want %q (%v)", tc.path, got, tc.code, err)
		}
		if err == nil && len(b) != max {
			t.Errorf("%s: read %d bytes", tc.path, len(b))
		}
	}
}

// A server that never answers, or trickles its body forever, is cut off at
// the client's timeout.
func TestTimeout(t *testing.T) {
	reg := &recorder{serve: func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/silent" {
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Second):
			}
			return
		}
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}}
	rs := httptest.NewServer(reg)
	defer rs.Close()
	c := newClient(t, rs.URL, httpc.Options{Timeout: 300 * time.Millisecond})

	// The timeout ends each read: the silent server answers nothing for
	// 20 s (past it, a closed connection, not a timeout), the trickling one
	// never stops.
	err := testwait.Within(t, "the request to the silent server", testwait.Ceiling, func() error {
		_, err := do(t, c, http.MethodGet, rs.URL+"/silent")
		return err
	})
	if werr.CodeOf(err) != httpc.CodeTimeout {
		t.Errorf("silent server: %v, want %s", err, httpc.CodeTimeout)
	}
	resp, err := do(t, c, http.MethodGet, rs.URL+"/trickle")
	if err != nil {
		t.Fatal(err)
	}
	err = testwait.Within(t, "the body of the trickling server", testwait.Ceiling, func() error {
		_, err := httpc.ReadBody(resp, 1<<20)
		return err
	})
	if werr.CodeOf(err) != httpc.CodeTimeout {
		t.Errorf("trickling server: %v, want %s", err, httpc.CodeTimeout)
	}
}
