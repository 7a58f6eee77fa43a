package publish

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// fakeRegistry serves a registry root's discovery document and keys, and
// takes uploads checking what node-packs.md "PUT /v1/packs/{name}/-/{version}.tgz"
// says a registry checks: the bearer API key, the body type, the asserted
// SHA-256, the manifest at the tarball root matching the URL, the scope, the
// signature inside the tarball; 201 for a new version, 200 for the same bytes,
// 409 for other bytes.
type fakeRegistry struct {
	root, token string
	mu          sync.Mutex
	published   map[string]string // name@version -> integrity
	puts        int
}

var putPath = regexp.MustCompile(`^/(v1|v2)/packs/([^/]+)/-/([^/]+)\.tgz$`)

func (f *fakeRegistry) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, code, msg string) {
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"code":%q,"message":%q}}`, code, msg)
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/.well-known/openwop-registry":
		http.ServeFile(w, r, filepath.Join(f.root, ".well-known", "openwop-registry.json"))
		return
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/keys/"):
		http.ServeFile(w, r, filepath.Join(f.root, "keys", filepath.Base(r.URL.Path)))
		return
	case r.Method != http.MethodPut:
		fail(405, "method_not_allowed", r.Method)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.puts++
	m := putPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		fail(404, "not_found", r.URL.Path)
		return
	}
	name, version := m[2], m[3]
	if r.Header.Get("Authorization") != "Bearer "+f.token {
		fail(403, "forbidden", "bad API key")
		return
	}
	if !regexp.MustCompile(`^(core|vendor|community)\.`).MatchString(name) {
		fail(400, "invalid_pack_scope", name)
		return
	}
	switch r.Header.Get("Content-Type") {
	case "application/gzip", "application/x-gzip", "application/octet-stream":
	default:
		fail(400, "invalid_body", "content type")
		return
	}
	if sm := r.Header.Get("X-Pack-Signing-Method"); sm != "manual" && sm != "sigstore" && sm != "none" {
		fail(400, "invalid_body", "signing method "+sm)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if len(body) == 0 {
		fail(400, "invalid_body", "empty")
		return
	}
	sum := sha256.Sum256(body)
	integrity := "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
	if r.Header.Get("X-Pack-Sha256") != integrity {
		fail(400, "pack_integrity_failure", "sha")
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		fail(400, "tarball_gunzip_failed", err.Error())
		return
	}
	files := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(400, "tarball_tar_parse_failed", err.Error())
			return
		}
		b, _ := io.ReadAll(tr)
		files[strings.TrimPrefix(h.Name, "./")] = b
	}
	var pm struct {
		Name, Version string
		Signing       struct{ SignatureRef string }
	}
	pj, ok := files["pack.json"]
	if !ok {
		fail(400, "tarball_manifest_missing", "")
		return
	}
	if json.Unmarshal(pj, &pm) != nil {
		fail(400, "tarball_manifest_not_json", "")
		return
	}
	if pm.Name != name || pm.Version != version {
		fail(400, "manifest_mismatch", pm.Name+"@"+pm.Version)
		return
	}
	ref := pm.Signing.SignatureRef
	if ref == "" {
		ref = "keys/pack.json.sig"
	}
	if _, ok := files[ref]; !ok {
		fail(400, "invalid_manifest", "no signature at "+ref)
		return
	}
	key := name + "@" + version
	switch prev, ok := f.published[key]; {
	case ok && prev == integrity:
		w.WriteHeader(200)
	case ok:
		fail(409, "version_conflict", key)
	default:
		f.published[key] = integrity
		w.WriteHeader(201)
	}
}

func TestUpload(t *testing.T) {
	t.Parallel()
	dir := minimalRegistry(t)
	root := filepath.Join(dir, "registry")
	key := addTestKey(t, root, "active")
	const token = "s3cret-token-value"
	fr := &fakeRegistry{root: root, token: token, published: map[string]string{}}
	srv := httptest.NewServer(fr)
	defer srv.Close()
	const name = "community.wopkit-test.hello"
	tgz := release(t, key, sign.MethodV2, name, "1.0.0", nil)
	up := func(tgz, tok string) (*UploadResult, error) {
		return Upload(t.Context(), UploadOptions{Tarball: tgz, URL: srv.URL, Token: tok})
	}

	res, err := up(tgz, token)
	if err != nil || !res.Created || res.Status != 201 {
		t.Fatalf("first upload: %+v, %v", res, err)
	}
	if !strings.HasSuffix(res.URL, "/v2/packs/"+name+"/-/1.0.0.tgz") {
		t.Errorf("uploaded to %s", res.URL)
	}
	if res, err = up(tgz, token); err != nil || res.Created || res.Status != 200 {
		t.Fatalf("same bytes again: %+v, %v", res, err)
	}
	other := release(t, key, sign.MethodV2, name, "1.0.0", func(m *jsjson.Obj) { m.Set("description", "other") })
	if _, err = up(other, token); werr.CodeOf(err) != "version_conflict" {
		t.Fatalf("other bytes: %v", err)
	}
	_, err = up(release(t, key, sign.MethodV2, name, "1.1.0", nil), "wrong-token")
	if werr.CodeOf(err) != "registry_forbidden" || strings.Contains(err.Error(), "wrong-token") {
		t.Fatalf("wrong token: %v", err)
	}
	if _, err = up(tgz, ""); werr.CodeOf(err) != "registry_token_missing" {
		t.Fatalf("no token: %v", err)
	}

	// The local checks run before anything is sent: a key the registry does
	// not grant the namespace is refused without a PUT.
	puts := fr.puts
	if _, err = up(release(t, key, sign.MethodV2, "community.other.hello", "1.0.0", nil), token); werr.CodeOf(err) != "pack_namespace_unauthorized" {
		t.Fatalf("foreign namespace: %v", err)
	}
	setKeyStatus(t, root, "rotated")
	if _, err = up(release(t, key, sign.MethodV2, name, "1.2.0", nil), token); werr.CodeOf(err) != "key_not_active" {
		t.Fatalf("rotated key: %v", err)
	}
	if fr.puts != puts {
		t.Errorf("%d upload(s) sent after a local refusal", fr.puts-puts)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
}

// hostileRegistry is a registry server an attacker runs: it serves disc as
// its discovery document and the publisher's real public key at whatever
// other path it is asked for (so that nothing but wopkit's own policy stops
// a write), takes every upload with 201, and notes what it sees. At the
// upload it lists the scratch directories under tmp.
type hostileRegistry struct {
	disc, key []byte
	tmp       string
	mu        sync.Mutex
	seen      []string
	scratch   []string // slash path and mode of every file under tmp at the upload
}

func (h *hostileRegistry) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seen = append(h.seen, r.Method+" "+r.URL.RequestURI())
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/.well-known/openwop-registry":
		w.Write(h.disc)
	case r.Method == http.MethodGet:
		w.Write(h.key)
	default:
		filepath.WalkDir(h.tmp, func(p string, d fs.DirEntry, err error) error {
			if err == nil && p != h.tmp {
				fi, _ := d.Info()
				rel, _ := filepath.Rel(h.tmp, p)
				h.scratch = append(h.scratch, fmt.Sprintf("%s %v", filepath.ToSlash(rel), fi.Mode().Perm()))
			}
			return nil
		})
		w.WriteHeader(http.StatusCreated)
	}
}

// hostileSetup makes a publisher's release signed by the test key, and a
// hostile registry whose discovery document gives that key the
// publicKeyUrl ref(base). TMPDIR is base/tmp, so base/pwned is two levels
// above the scratch registry.
func hostileSetup(t *testing.T, ref func(base string) string) (h *hostileRegistry, tgz, base string) {
	t.Helper()
	root := filepath.Join(minimalRegistry(t), "registry")
	key := addTestKey(t, root, "active")
	tgz = release(t, key, sign.MethodV2, "community.wopkit-test.hello", "1.0.0", nil)
	base = t.TempDir()
	tmp := filepath.Join(base, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	p := filepath.Join(root, ".well-known", "openwop-registry.json")
	v, err := jsjson.Parse(readFileT(t, p), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range jsjson.Array(jsjson.Field(v, "signingKeys")) {
		k.(*jsjson.Obj).Set("publicKeyUrl", ref(base))
	}
	h = &hostileRegistry{disc: jsjson.Stringify(v), key: readFileT(t, filepath.Join(root, "keys", testKeyID+".pub")), tmp: tmp}
	return h, tgz, base
}

// A hostile registry's publicKeyUrl cannot make wopkit write anywhere: a
// key URL that is not a clean path on the registry's origin is refused
// before anything is fetched, and nothing is left outside (or inside) the
// scratch directory.
func TestUploadKeyURLTraversal(t *testing.T) {
	const token = "s3cret-token-value"
	for name, ref := range map[string]func(base string) string{
		"dotdot":         func(string) string { return "/../../pwned" },
		"keys-dotdot":    func(string) string { return "/keys/../../../pwned" },
		"relative":       func(string) string { return "../../pwned" },
		"encoded":        func(string) string { return "..%2f..%2fpwned" },
		"encoded-abs":    func(string) string { return "/..%2F..%2Fpwned" },
		"backslash":      func(string) string { return `\..\..\pwned` },
		"keys-backslash": func(string) string { return `/keys\..\..\..\pwned` },
		"other-host":     func(string) string { return "https://other.example/k.pub" },
		"scheme-less":    func(string) string { return "//other.example/k.pub" },
		"query":          func(string) string { return "/keys/" + testKeyID + ".pub?x=1" },
		"no-slash":       func(string) string { return "keys/" + testKeyID + ".pub" },
		"file-url":       func(base string) string { return "file://" + filepath.Join(base, "pwned") },
		// The reported exploit: enough ../ to reach / from any scratch
		// directory, then the absolute target.
		"deep": func(base string) string {
			return "/" + strings.Repeat("../", 32) + strings.TrimPrefix(filepath.Join(base, "pwned"), "/")
		},
	} {
		t.Run(name, func(t *testing.T) {
			h, tgz, base := hostileSetup(t, ref)
			target := filepath.Join(base, "pwned")
			srv := httptest.NewServer(h)
			_, err := Upload(t.Context(), UploadOptions{Tarball: tgz, URL: srv.URL, Token: token})
			srv.Close()
			if _, serr := os.Lstat(target); !errors.Is(serr, fs.ErrNotExist) {
				t.Fatalf("the registry wrote %s (publicKeyUrl %q): %v", target, ref(base), serr)
			}
			if werr.CodeOf(err) != "registry_key_url_invalid" {
				t.Errorf("publicKeyUrl %q: %v, want registry_key_url_invalid", ref(base), err)
			}
			if len(h.seen) != 1 {
				t.Errorf("publicKeyUrl %q: the registry saw %q, want the discovery GET alone", ref(base), h.seen)
			}
			if left, _ := os.ReadDir(h.tmp); len(left) != 0 {
				t.Errorf("scratch left behind: %v", left)
			}
		})
	}
}

// uploadSetup makes a release signed by the test key and the registry fr
// that grants it.
func uploadSetup(t *testing.T, token string) (fr *fakeRegistry, tgz string) {
	t.Helper()
	root := filepath.Join(minimalRegistry(t), "registry")
	key := addTestKey(t, root, "active")
	fr = &fakeRegistry{root: root, token: token, published: map[string]string{}}
	return fr, release(t, key, sign.MethodV2, "community.wopkit-test.hello", "1.0.0", nil)
}

// seenBy is a server that notes every request it sees (with its
// Authorization header) and hands it to next.
type seenBy struct {
	next http.Handler
	mu   sync.Mutex
	seen []string
}

func (s *seenBy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.seen = append(s.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
	s.mu.Unlock()
	s.next.ServeHTTP(w, r)
}

// A registry that redirects, to the same host on another port (where Go's
// own policy keeps the Authorization header), to another host, or from
// https down to http: the upload is refused, the other server sees nothing
// (the API key least of all), and nothing is reported published. A GET
// redirected within the origin is followed, and the result names the URL
// that answered.
func TestUploadRedirects(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token-value"
	redirect := func(method string, to func(*http.Request) string, next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == method && !strings.HasPrefix(r.URL.Path, "/moved/") {
				http.Redirect(w, r, to(r), http.StatusTemporaryRedirect)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	for _, tc := range []struct {
		name, method string
		other        func(string) string // the redirect's origin, from the other server's URL
		tls          bool
	}{
		{"put-other-port", http.MethodPut, func(u string) string { return u }, false},
		{"put-other-host", http.MethodPut, func(u string) string { return strings.Replace(u, "127.0.0.1", "localhost", 1) }, false},
		{"get-other-port", http.MethodGet, func(u string) string { return u }, false},
		{"put-https-to-http", http.MethodPut, func(u string) string { return u }, true},
		{"get-https-to-http", http.MethodGet, func(u string) string { return u }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr, tgz := uploadSetup(t, token)
			other := &seenBy{next: fr} // a registry that would take the upload
			ots := httptest.NewServer(other)
			defer ots.Close()
			front := redirect(tc.method, func(r *http.Request) string { return tc.other(ots.URL) + r.URL.Path }, fr)
			o := UploadOptions{Tarball: tgz, Token: token}
			if tc.tls {
				srv := httptest.NewTLSServer(front)
				defer srv.Close()
				o.URL, o.Transport = srv.URL, srv.Client().Transport
			} else {
				srv := httptest.NewServer(front)
				defer srv.Close()
				o.URL = srv.URL
			}
			res, err := Upload(t.Context(), o)
			if werr.CodeOf(err) != "registry_redirect_refused" {
				t.Errorf("%+v, %v; want registry_redirect_refused", res, err)
			}
			if len(other.seen) != 0 {
				t.Errorf("the other server saw %q", other.seen)
			}
			if err != nil && strings.Contains(err.Error(), token) {
				t.Errorf("the error shows the token: %v", err)
			}
		})
	}

	t.Run("get-same-origin", func(t *testing.T) {
		fr, tgz := uploadSetup(t, token)
		moved := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.URL.Path = strings.TrimPrefix(r.URL.Path, "/moved")
			fr.ServeHTTP(w, r)
		})
		mux := http.NewServeMux()
		mux.Handle("/moved/", moved)
		mux.Handle("/", redirect(http.MethodGet, func(r *http.Request) string { return "/moved" + r.URL.Path }, fr))
		srv := httptest.NewServer(mux)
		defer srv.Close()
		res, err := Upload(t.Context(), UploadOptions{Tarball: tgz, URL: srv.URL, Token: token})
		if err != nil || !res.Created {
			t.Fatalf("%+v, %v", res, err)
		}
		if want := srv.URL + "/v2/packs/community.wopkit-test.hello/-/1.0.0.tgz"; res.URL != want {
			t.Errorf("reported %s, want %s", res.URL, want)
		}
	})

	t.Run("plain-http-remote", func(t *testing.T) {
		_, tgz := uploadSetup(t, token)
		_, err := Upload(t.Context(), UploadOptions{Tarball: tgz, URL: "http://packs.example.com", Token: token})
		if werr.CodeOf(err) != "registry_insecure" || werr.ExitCode(err) != 2 {
			t.Errorf("%v; want registry_insecure, exit 2", err)
		}
	})
}

// What the registry sends back is bounded: a discovery document over the
// bound is refused, one that trickles in forever is cut off at the timeout.
func TestUploadBounds(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token-value"
	fr, tgz := uploadSetup(t, token)
	huge := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat(" ", 64<<10))
		w.Write([]byte("{"))
		for range untrusted.MaxDocument/len(chunk) + 1 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		w.Write([]byte("}"))
	})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			fr.ServeHTTP(w, r)
			return
		}
		w.Write([]byte("{"))
		for {
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
		}
	})
	for _, tc := range []struct {
		name    string
		h       http.Handler
		timeout time.Duration
		code    string
	}{
		{"huge", huge, 0, "registry_response_too_large"},
		{"slow", slow, 300 * time.Millisecond, "registry_timeout"},
	} {
		srv := httptest.NewServer(tc.h)
		// The size limit or the timeout ends the upload: the slow server
		// trickles for ever, and the huge one sends more than the limit.
		err := testwait.Within(t, "the upload to the "+tc.name+" server", testwait.Ceiling, func() error {
			_, err := Upload(t.Context(), UploadOptions{Tarball: tgz, URL: srv.URL, Token: token, Timeout: tc.timeout})
			return err
		})
		srv.Close()
		if werr.CodeOf(err) != tc.code {
			t.Errorf("%s: %v; want %s", tc.name, err, tc.code)
		}
	}
	if fr.puts != 0 {
		t.Errorf("%d upload(s) sent", fr.puts)
	}
}

// A key URL that is a plain path on the registry's origin is where the key
// is fetched from; whatever it says, the scratch registry (0700) holds only
// the discovery document and keys/<keyId>.pub (0600).
func TestUploadKeyURLFetched(t *testing.T) {
	for ref, want := range map[string]string{
		"":                            "/keys/" + testKeyID + ".pub",
		"/keys/" + testKeyID + ".pub": "/keys/" + testKeyID + ".pub",
		"/static/keys/current.pem":    "/static/keys/current.pem",
	} {
		t.Run(ref, func(t *testing.T) {
			h, tgz, _ := hostileSetup(t, func(string) string { return ref })
			srv := httptest.NewServer(h)
			res, err := Upload(t.Context(), UploadOptions{Tarball: tgz, URL: srv.URL, Token: "s3cret-token-value"})
			srv.Close()
			if err != nil || !res.Created {
				t.Fatalf("publicKeyUrl %q: %+v, %v", ref, res, err)
			}
			if len(h.seen) != 3 || h.seen[1] != "GET "+want {
				t.Errorf("publicKeyUrl %q: the registry saw %q, want the key fetched from %s", ref, h.seen, want)
			}
			var dir string
			if len(h.scratch) > 0 {
				dir, _, _ = strings.Cut(h.scratch[0], " ")
			}
			wantScratch := []string{
				dir + " -rwx------",
				dir + "/.well-known -rwx------",
				dir + "/.well-known/openwop-registry.json -rw-------",
				dir + "/keys -rwx------",
				dir + "/keys/" + testKeyID + ".pub -rw-------",
			}
			if !strings.HasPrefix(dir, "wopkit-registry-") || strings.Join(h.scratch, "\n") != strings.Join(wantScratch, "\n") {
				t.Errorf("publicKeyUrl %q: the scratch registry held\n%s\nwant\n%s", ref, strings.Join(h.scratch, "\n"), strings.Join(wantScratch, "\n"))
			}
		})
	}
}

func TestUploadKeyPaths(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"", ".", "..", "../x", "a/b", `a\b`, "a\x00b", "a\nb", "a\x1b[2Jb", "%2e%2e", strings.Repeat("k", 201)} {
		if keyIDOK(id) {
			t.Errorf("key id %q accepted", id)
		}
	}
	for _, id := range []string{testKeyID, "openwop-registry-root", "vendor.acme_2026-01"} {
		if !keyIDOK(id) {
			t.Errorf("key id %q refused", id)
		}
	}
	for _, p := range []string{"/keys/a.pub", "/v2/packs/community.x.y/-/1.0.0-rc.1+b.tgz", "/a:b/c"} {
		if !originPath(p) {
			t.Errorf("path %q refused", p)
		}
	}
	for _, p := range []string{"", "/", "keys/a.pub", "//h/a", "/a/../b", "/a/./b", "/a//b", "/a/", `/a\b`, "/a%2fb", "/a?b", "/a#b", "/a b", "/a\tb", "/é", "https://h/a"} {
		if originPath(p) {
			t.Errorf("path %q accepted", p)
		}
	}
}

// The registry's error envelope is read strictly and shown inert: a
// member named twice in two letter cases is not believed, escape sequences
// are escaped, a long message is cut.
func TestUploadAPIError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, code, msg string }{
		{`{"error":{"code":"version_conflict","message":"taken"}}`, "version_conflict", "taken"},
		{`{"code":"bad","message":"flat"}`, "bad", "flat"},
		{`{"error":{"code":"a","Code":"b","message":"m"}}`, "", ""},
		{`{"Code":"x","Message":"y"}`, "", ""},
		{`{"error":{"code":"x","message":"\u001b]0;pwned\u0007\u202e"}}`, "x", `\x1b]0;pwned\x07\u202e`},
		{`{"message":"` + strings.Repeat("m", 1000) + `"}`, "", strings.Repeat("m", maxAPIText) + "..."},
		{`not json`, "", ""},
	} {
		code, msg := apiError([]byte(tc.body))
		if code != tc.code || msg != tc.msg {
			t.Errorf("%.60s: %q, %q; want %q, %q", tc.body, code, msg, tc.code, tc.msg)
		}
	}
}
