package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// DefaultTokenEnv is the environment variable holding the registry API key.
const DefaultTokenEnv = "WOPKIT_REGISTRY_TOKEN"

// UploadOptions are the inputs of Upload.
type UploadOptions struct {
	Tarball string
	SigPath string
	URL     string // the registry's base URL
	Spec    string
	Token   string // bearer API key with the packs:publish scope; never printed
	Client  *http.Client
}

// UploadResult is what the registry answered.
type UploadResult struct {
	URL       string `json:"url"` // where the tarball was PUT (no credentials)
	Status    int    `json:"status"`
	Created   bool   `json:"created"` // 201: a new version; false with 200: the same bytes were already published
	Name      string `json:"name"`
	Version   string `json:"version"`
	Integrity string `json:"integrity"`
}

// maxDiscovery bounds what is read of the registry's discovery document and
// keys.
const maxDiscovery = 1 << 20

// Upload verifies the release against the registry's own discovery document
// and keychain (fetched from URL: the key must be active and granted the
// pack's namespace), then PUTs the tarball to the registry's HTTP API
// (node-packs.md "PUT /v1/packs/{name}/-/{version}.tgz": bearer API key,
// X-Pack-Signing-Method, X-Pack-Sha256; the registry extracts the signature
// from the tarball). 201 is a new version, 200 the same bytes already
// published; 409 is version_conflict.
func Upload(ctx context.Context, o UploadOptions) (*UploadResult, error) {
	if o.Token == "" {
		return nil, werr.New(werr.Usage, "registry_token_missing", "no API key for %s", o.URL).
			WithHint("set %s to an API key with the packs:publish scope (it is read from the environment, never from the command line)", DefaultTokenEnv)
	}
	base, err := url.Parse(strings.TrimRight(o.URL, "/"))
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" {
		return nil, werr.New(werr.Usage, "usage", "--url %q is not an http(s) URL", o.URL)
	}
	if base.User != nil {
		return nil, werr.New(werr.Usage, "usage", "--url must not carry credentials").WithHint("put the API key in %s", DefaultTokenEnv)
	}
	client := o.Client
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Minute}
	}
	// A scratch registry root holding the discovery document and the key
	// the pack names, so the local checks are exactly those of Stage.
	root, err := os.MkdirTemp("", "wopkit-registry-*")
	if err != nil {
		return nil, werr.Wrap(werr.Env, "write_failed", err, "cannot create a temporary directory")
	}
	defer os.RemoveAll(root)
	wkBytes, err := get(ctx, client, base, "/.well-known/openwop-registry")
	if err != nil {
		return nil, err
	}
	if err := writeScratch(root, registry.WellKnown, wkBytes); err != nil {
		return nil, err
	}
	t, err := OpenTree(root, o.Spec)
	if err != nil {
		return nil, err
	}
	keyID, err := signingKeyID(o.Tarball)
	if err != nil {
		return nil, err
	}
	if err := fetchKey(ctx, client, base, t, keyID); err != nil {
		return nil, err
	}
	rel, err := loadRelease(ctx, t, Options{Tarball: o.Tarball, SigPath: o.SigPath, Registry: root, Spec: o.Spec})
	if err != nil {
		return nil, err
	}

	target := *base
	target.Path = strings.TrimRight(base.Path, "/") + t.URL("versionTarball", rel.Name, rel.Version)
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
	req.Header.Set("Authorization", "Bearer "+o.Token)
	req.Header.Set("X-Pack-Signing-Method", method)
	req.Header.Set("X-Pack-Sha256", rel.Integrity)
	resp, err := client.Do(req)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreachable", redact(err, o.Token), "cannot reach %s", target.Redacted())
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	res := &UploadResult{URL: target.Redacted(), Status: resp.StatusCode, Name: rel.Name, Version: rel.Version, Integrity: rel.Integrity}
	switch resp.StatusCode {
	case http.StatusCreated:
		res.Created = true
		return res, nil
	case http.StatusOK:
		return res, nil
	}
	code, msg := apiError(body)
	where := fmt.Sprintf("%s answered %d", target.Redacted(), resp.StatusCode)
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

// apiError reads the registry's error envelope ({"error":{"code","message"}}
// or {"code","message"}).
func apiError(body []byte) (string, string) {
	var env struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &env) != nil {
		return "", ""
	}
	if env.Error != nil {
		return env.Error.Code, env.Error.Message
	}
	return env.Code, env.Message
}

// redact removes the token from an error's text.
func redact(err error, token string) error {
	if token == "" || !strings.Contains(err.Error(), token) {
		return err
	}
	return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), token, "[redacted]"))
}

func get(ctx context.Context, client *http.Client, base *url.URL, p string) ([]byte, error) {
	u := *base
	u.Path = strings.TrimRight(base.Path, "/") + p
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, werr.Wrap(werr.Usage, "usage", err, "bad --url")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreachable", err, "cannot reach %s", u.Redacted())
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, werr.New(werr.Env, "registry_unreachable", "GET %s answered %d", u.Redacted(), resp.StatusCode).
			WithHint("--url takes the registry's base URL (the one serving /.well-known/openwop-registry)")
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxDiscovery+1))
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreachable", err, "cannot read %s", u.Redacted())
	}
	if len(b) > maxDiscovery {
		return nil, werr.New(werr.Invalid, "registry_invalid", "%s is larger than %d bytes", u.Redacted(), maxDiscovery)
	}
	return b, nil
}

func writeScratch(root, rel string, data []byte) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return werr.Wrap(werr.Env, "write_failed", err, "cannot create %s", filepath.Dir(p))
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", p)
	}
	return nil
}

// fetchKey downloads the public key the keychain lists for id into the
// scratch root, where registry.Root.Key reads it.
func fetchKey(ctx context.Context, client *http.Client, base *url.URL, t *Tree, id string) error {
	r, err := registry.Open(t.Root)
	if err != nil {
		return err
	}
	for _, e := range r.Keys {
		if e.KeyID != id || !safeName(id) {
			continue
		}
		ref := e.PublicKeyURL
		if ref == "" || strings.Contains(ref, "://") {
			ref = "/keys/" + id + ".pub"
		}
		b, err := get(ctx, client, base, "/"+strings.TrimLeft(ref, "/"))
		if err != nil {
			return err
		}
		return writeScratch(t.Root, strings.TrimLeft(ref, "/"), b)
	}
	return nil // loadRelease reports the unknown key
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
