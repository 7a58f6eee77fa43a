package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/untrusted/httpc"
	"github.com/openwop/wopkit/internal/werr"
)

// DefaultTokenEnv is the environment variable holding the registry API key.
const DefaultTokenEnv = "WOPKIT_REGISTRY_TOKEN"

// UploadOptions are the inputs of Upload.
type UploadOptions struct {
	Tarball string
	SigPath string
	URL     string // the registry's base URL: https, or http to a loopback address
	Spec    string
	Token   string // bearer API key with the packs:publish scope; sent only to URL's origin, never printed
	// Timeout bounds each exchange with the registry, answer included;
	// zero is httpc.DefaultTimeout.
	Timeout time.Duration
	// Transport carries the requests; nil is the default. Tests pass an
	// httptest TLS server's, which trusts its certificate.
	Transport http.RoundTripper
}

// UploadResult is what the registry answered.
type UploadResult struct {
	URL       string `json:"url"` // the URL that answered the PUT (no credentials)
	Status    int    `json:"status"`
	Created   bool   `json:"created"` // 201: a new version; false with 200: the same bytes were already published
	Name      string `json:"name"`
	Version   string `json:"version"`
	Integrity string `json:"integrity"`
}

// maxAnswer bounds what is read of the registry's answer to the upload.
const maxAnswer = 64 << 10

// Upload verifies the release against the registry's own discovery document
// and keychain (fetched from URL: the key must be active and granted the
// pack's namespace), then PUTs the tarball to the registry's HTTP API
// (node-packs.md "PUT /v1/packs/{name}/-/{version}.tgz": bearer API key,
// X-Pack-Signing-Method, X-Pack-Sha256; the registry extracts the signature
// from the tarball). 201 is a new version, 200 the same bytes already
// published; 409 is version_conflict.
//
// The registry is a stranger: every exchange goes through httpc (the token
// bound to URL's origin, no redirect of the upload, bounded answers and
// time), its JSON is read with untrusted.DecodeJSON, and the only files
// written are the discovery document and keys/<keyId>.pub, in a private
// scratch directory that is removed on return.
func Upload(ctx context.Context, o UploadOptions) (*UploadResult, error) {
	if o.Token == "" {
		return nil, werr.New(werr.Usage, "registry_token_missing", "no API key for %s", o.URL).
			WithHint("set %s to an API key with the packs:publish scope (it is read from the environment, never from the command line)", DefaultTokenEnv)
	}
	base, err := url.Parse(strings.TrimRight(o.URL, "/"))
	if err != nil {
		return nil, werr.New(werr.Usage, "usage", "--url %q is not a URL", o.URL).
			WithHint("give the registry's base URL, such as https://packs.example.com")
	}
	client, err := httpc.New(base, httpc.Options{Token: o.Token, Timeout: o.Timeout, Transport: o.Transport})
	if err != nil {
		return nil, err
	}
	keyID, err := signingKeyID(o.Tarball)
	if err != nil {
		return nil, err
	}
	// A scratch registry root holding the discovery document and the key
	// the pack names, so the local checks are exactly those of Stage.
	s, err := newScratch()
	if err != nil {
		return nil, err
	}
	defer s.remove()
	wk, err := get(ctx, client, "/.well-known/openwop-registry", untrusted.MaxDocument)
	if err != nil {
		return nil, err
	}
	wk, keyURL, err := planKey(wk, keyID, o.Tarball, termsafe.String(base.Redacted())+"/.well-known/openwop-registry")
	if err != nil {
		return nil, err
	}
	if err := s.write(registry.WellKnown, wk); err != nil {
		return nil, err
	}
	if keyURL != "" {
		pub, err := get(ctx, client, keyURL, untrusted.MaxKey)
		if err != nil {
			return nil, err
		}
		if err := s.write(keyFile(keyID), pub); err != nil {
			return nil, err
		}
	}
	t, err := openTree(s.dir, o.Spec, true) // wopkit's own scratch copy: nothing to recover
	if err != nil {
		return nil, err
	}
	rel, err := loadRelease(ctx, t, Options{Tarball: o.Tarball, SigPath: o.SigPath, Registry: s.dir, Spec: o.Spec})
	if err != nil {
		return nil, err
	}
	return put(ctx, client, t, rel)
}

// put sends the release and reads the registry's answer.
func put(ctx context.Context, client *httpc.Client, t *Tree, rel *Release) (*UploadResult, error) {
	p := t.URL("versionTarball", rel.Name, rel.Version)
	if !originPath(p) {
		return nil, werr.New(werr.Invalid, "registry_endpoint_invalid", "the registry's discovery document gives the upload path %q, which is not a path on its origin", termsafe.String(p)).
			WithHint("endpoints.%s.versionTarball must be a path such as /%s/packs/{name}/-/{version}.tgz; ask the registry's operator to fix it", t.Spec, t.Spec)
	}
	target := *client.Base()
	target.Path = strings.TrimRight(target.Path, "/") + p
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target.String(), bytes.NewReader(rel.Tgz))
	if err != nil {
		return nil, werr.Wrap(werr.Usage, "usage", err, "bad --url")
	}
	method := sign.MethodManual // the registry API names pack.json signatures "manual" (v2 relabels it as a scheme)
	if rel.Method == sign.MethodLegacy {
		method = "none"
	}
	req.ContentLength = int64(len(rel.Tgz))
	req.Header.Set("Content-Type", "application/gzip")
	req.Header.Set("X-Pack-Signing-Method", method)
	req.Header.Set("X-Pack-Sha256", rel.Integrity)
	resp, err := client.Do(req) // httpc attaches the API key
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	at := resp.Request.URL.Redacted()
	res := &UploadResult{URL: at, Status: resp.StatusCode, Name: rel.Name, Version: rel.Version, Integrity: rel.Integrity}
	switch resp.StatusCode {
	case http.StatusCreated:
		res.Created = true
		return res, nil
	case http.StatusOK:
		return res, nil
	}
	body, _ := httpc.ReadBody(resp, maxAnswer) // an unreadable answer leaves the status alone
	code, msg := apiError(body)
	where := fmt.Sprintf("%s answered %d", termsafe.String(at), resp.StatusCode)
	if msg != "" {
		where += " " + code + ": " + msg
	}
	switch resp.StatusCode {
	case http.StatusConflict:
		return nil, werr.New(werr.Invalid, "version_conflict", "%s@%s is already published with different bytes (%s)", rel.Name, rel.Version, where).
			WithHint("published releases are immutable: bump the version")
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, werr.New(werr.Invalid, "registry_forbidden", "the registry refused the API key for %s (%s)", rel.Name, where).
			WithHint("the key in %s needs the packs:publish scope and the namespace's claim", DefaultTokenEnv)
	}
	return nil, werr.New(werr.Invalid, "registry_refused", "the registry refused %s@%s (%s)", rel.Name, rel.Version, where)
}

// maxAPIText bounds the registry's error code and message as shown.
const maxAPIText = 300

// apiError reads the registry's error envelope ({"error":{"code","message"}}
// or {"code","message"}) strictly; what it returns is safe to print.
func apiError(body []byte) (string, string) {
	type pair struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	var env struct {
		Error *pair `json:"error"`
		pair
	}
	if len(body) == 0 || untrusted.DecodeJSON(body, &env) != nil {
		return "", ""
	}
	p := env.pair
	if env.Error != nil {
		p = *env.Error
	}
	return shorten(p.Code), shorten(p.Message)
}

// shorten is s cut to maxAPIText bytes (at a rune boundary) and made
// inert on a terminal.
func shorten(s string) string {
	if len(s) > maxAPIText {
		s = strings.ToValidUTF8(s[:maxAPIText], "") + "..."
	}
	return termsafe.String(s)
}

// get fetches the same-origin path p (below the base URL's path) and
// returns its body of at most max bytes.
func get(ctx context.Context, client *httpc.Client, p string, max int64) ([]byte, error) {
	u := *client.Base()
	u.Path = strings.TrimRight(u.Path, "/") + p
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, werr.Wrap(werr.Usage, "usage", err, "bad --url")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, werr.New(werr.Env, "registry_unreachable", "GET %s answered %d", termsafe.String(resp.Request.URL.Redacted()), resp.StatusCode).
			WithHint("--url takes the registry's base URL (the one serving /.well-known/openwop-registry)")
	}
	return httpc.ReadBody(resp, max)
}

// discovery is what the local checks read of the registry's discovery
// document. planKey writes back only these members, decoded strictly, so
// every reader of the scratch copy sees what untrusted.DecodeJSON saw.
type discovery struct {
	SigningKeys []registry.KeyEntry `json:"signingKeys"`
	Endpoints   json.RawMessage     `json:"endpoints,omitempty"`
}

// planKey reads the registry's discovery document wk strictly and returns
// the scratch copy to write, in which the entries for keyID name
// /keys/<keyID>.pub (the file the registry's own verifier reads, and the
// only key file written), and the same-origin path to fetch that key from:
// the entry's publicKeyUrl, or /keys/<keyID>.pub when it has none. The path
// is "" when the keychain does not list keyID (loadRelease reports it).
// tgz and where (the document's URL) name the inputs in messages.
func planKey(wk []byte, keyID, tgz, where string) ([]byte, string, error) {
	var doc discovery
	if err := untrusted.DecodeJSON(wk, &doc); err != nil {
		return nil, "", untrusted.NameJSON(where, err)
	}
	fetch := ""
	for i := range doc.SigningKeys {
		e := &doc.SigningKeys[i]
		if keyID == "" || e.KeyID != keyID {
			continue
		}
		if !keyIDOK(keyID) {
			return nil, "", werr.New(werr.Invalid, "key_id_invalid", "the key id %q of %s cannot name a key file (keys/<keyId>.pub)", termsafe.String(keyID), tgz).
				WithHint("a key id is one file name: no '/', '\\', '..' or control characters; sign with the id under which the registry publishes your key")
		}
		p := e.PublicKeyURL
		if p == "" {
			p = "/" + keyFile(keyID)
		}
		if !originPath(p) {
			return nil, "", werr.New(werr.Invalid, "registry_key_url_invalid", "the registry's keychain gives key %q the publicKeyUrl %q, which is not a path on the registry's origin", keyID, termsafe.String(e.PublicKeyURL)).
				WithHint("wopkit fetches a key only from a plain path on the registry's own origin, such as /%s; ask the registry's operator to fix its discovery document", keyFile(keyID))
		}
		if fetch == "" {
			fetch = p
		}
		e.PublicKeyURL = "/" + keyFile(keyID)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, "", werr.Wrap(werr.Invalid, "registry_invalid", err, "the registry's discovery document cannot be copied")
	}
	return out, fetch, nil
}

// keyFile is where the key with id lies in a registry root.
func keyFile(id string) string { return "keys/" + id + ".pub" }

// keyIDOK reports whether id can name keys/<id>.pub: one path segment, no
// control characters, short enough for a file name.
func keyIDOK(id string) bool {
	return safeName(id) && len(id) <= 200 && termsafe.String(id) == id && !strings.Contains(id, "%")
}

// originPath reports whether p is a plain path on the registry's origin:
// it starts with one '/', has no dot segments, empty segments, escapes,
// backslashes, query, fragment, spaces or control characters, so that it
// names the same resource to every URL parser and proxy.
func originPath(p string) bool {
	if p == "/" || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || path.Clean(p) != p {
		return false
	}
	for _, r := range p {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune(`\%?#`, r) {
			return false
		}
	}
	return true
}

// scratch is a private registry root for one upload: a new directory
// (0700) that only this run writes, through an os.Root so that no name and
// no link can reach outside it.
type scratch struct {
	dir     string
	place   *atomicfile.Place
	cleanup func()
}

func newScratch() (*scratch, error) {
	dir, cleanup, err := atomicfile.TempDir("wopkit-registry-*")
	if err != nil {
		return nil, err
	}
	place, err := atomicfile.OpenPlace(dir)
	if err != nil {
		cleanup()
		return nil, err
	}
	return &scratch{dir: dir, place: place, cleanup: cleanup}, nil
}

// write creates the new file rel (a slash path) with data, mode 0600.
func (s *scratch) write(rel string, data []byte) error {
	name := filepath.FromSlash(rel)
	where := filepath.Join(s.dir, name)
	if !filepath.IsLocal(name) {
		return werr.New(werr.Invalid, "path_outside_root", "refusing to write %s outside %s", where, s.dir)
	}
	if d := filepath.Dir(name); d != "." {
		if err := s.place.MkdirAll(filepath.Join(s.dir, d), 0o700); err != nil {
			return err
		}
	}
	return s.place.CreateExcl(where, data, 0o600)
}

func (s *scratch) remove() {
	s.place.Close()
	s.cleanup()
}

// signingKeyID reads the key id the tarball's signing block names, without
// verifying anything (loadRelease does, and reports a bad tarball).
func signingKeyID(tgzPath string) (string, error) {
	b, err := readBounded(tgzPath, tarball.RegistryLimits.MaxCompressed)
	if err != nil {
		return "", err
	}
	a, err := tarball.ReadAll(bytes.NewReader(b), tarball.RegistryLimits)
	if err != nil {
		return "", nil
	}
	v, err := jsjson.Parse(a.Get(tarball.ManifestName).Data, tgzPath+": pack.json")
	if err != nil {
		return "", nil
	}
	s := jsjson.Field(v, "signing")
	id, _ := jsjson.Str(jsjson.Or(jsjson.Field(s, "keyId"), jsjson.Field(s, "publicKeyRef")))
	return id, nil
}
