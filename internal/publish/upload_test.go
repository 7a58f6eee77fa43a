package publish

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
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
