// Package registry reads an OpenWOP registry root from disk (SPEC-NOTES §5,
// spec v2 packs.md "The registry tree"): its discovery document
// .well-known/openwop-registry.json (keychain and endpoints), keys/<id>.pub,
// the namespaces each key may sign for, and in both trees (v2, where new
// versions land, and the frozen v1) the version manifests
// <tree>/packs/<name>/-/<version>.json with their integrity, signing block
// and lifecycle fields, and the per-pack index <tree>/packs/<name>/index.json.
// Every path is resolved through the discovery document's endpoints.
package registry

import (
	"bytes"
	"crypto"
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// WellKnown is the registry metadata file, relative to the root.
const WellKnown = ".well-known/openwop-registry.json"

// maxMetaFile bounds the metadata and version manifest files read.
const maxMetaFile = 4 << 20

// The registry trees (RFC 0177: the registry is versioned by tree).
const (
	TreeV1 = "v1" // frozen: read-only through the overlap
	TreeV2 = "v2" // where new publications land
)

// Root is an opened registry root directory.
type Root struct {
	Dir  string
	Keys []KeyEntry // the signingKeys of the metadata, in file order

	// endpoints are the discovery document's path templates: per tree
	// (endpoints.v1, endpoints.v2), and the flat v1-era aliases under "".
	endpoints map[string]map[string]string

	mu     sync.Mutex
	loaded map[string]*Key
}

// KeyEntry is one member of signingKeys[] in the registry metadata.
type KeyEntry struct {
	KeyID               string   `json:"keyId"`
	Algorithm           string   `json:"algorithm"`
	PublicKeyURL        string   `json:"publicKeyUrl"`
	PermittedNamespaces []string `json:"permittedNamespaces"`
	Status              string   `json:"status"`
}

// Key is a keychain entry with its public key loaded.
type Key struct {
	KeyEntry
	Public crypto.PublicKey
}

// FindRoot returns the registry root for dir: dir itself when it holds
// .well-known/openwop-registry.json, or dir/registry for a checkout of a
// registry repository.
func FindRoot(dir string) (string, error) {
	for _, cand := range []string{dir, filepath.Join(dir, "registry")} {
		if fi, err := os.Stat(filepath.Join(cand, filepath.FromSlash(WellKnown))); err == nil && fi.Mode().IsRegular() {
			return cand, nil
		}
	}
	return "", werr.New(werr.Env, "registry_unreadable", "%s is not a registry root: no %s in it or in %s", dir, WellKnown, filepath.Join(dir, "registry")).
		WithHint("--registry takes a registry root (the directory holding .well-known/ and keys/) or a checkout of a registry repository")
}

// Open reads the metadata of the registry root at dir (or of dir/registry,
// for a checkout of a registry repository).
func Open(dir string) (*Root, error) {
	root, err := FindRoot(dir)
	if err != nil {
		return nil, err
	}
	data, err := readLimited(filepath.Join(root, filepath.FromSlash(WellKnown)))
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s in registry root %s", WellKnown, root).
			WithHint("--registry takes a registry root directory (the one holding .well-known/ and keys/)")
	}
	var meta struct {
		SigningKeys []KeyEntry                 `json:"signingKeys"`
		Endpoints   map[string]json.RawMessage `json:"endpoints"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "%s in registry root %s is not valid JSON", WellKnown, root)
	}
	eps := map[string]map[string]string{"": {}}
	for k, raw := range meta.Endpoints {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			eps[""][k] = s
			continue
		}
		var m map[string]string
		if (k == TreeV1 || k == TreeV2) && json.Unmarshal(raw, &m) == nil {
			eps[k] = m
		}
	}
	return &Root{Dir: root, Keys: meta.SigningKeys, endpoints: eps, loaded: map[string]*Key{}}, nil
}

// DefaultEndpoint is the registry's own layout for an endpoint key in a
// tree, used when the discovery document does not give one.
func DefaultEndpoint(tree, key string) string {
	base := "/" + tree
	switch key {
	case "registryIndex":
		return base + "/index.json"
	case "packMetadata":
		return base + "/packs/{name}/index.json"
	case "versionManifest":
		return base + "/packs/{name}/-/{version}.json"
	case "versionTarball":
		return base + "/packs/{name}/-/{version}.tgz"
	case "versionSignature":
		return base + "/packs/{name}/-/{version}.sig"
	case "versionSbom":
		return base + "/packs/{name}/-/{version}.sbom.json"
	case "registrySbom":
		return base + "/sbom.json"
	}
	return ""
}

// Endpoint is the path template the discovery document gives for key in
// tree (endpoints.<tree>.<key>, then for v1 the flat v1-era alias), or the
// registry's default layout.
func (r *Root) Endpoint(tree, key string) string {
	if s := r.endpoints[tree][key]; s != "" {
		return s
	}
	if s := r.endpoints[""][key]; s != "" && tree == TreeV1 {
		return s
	}
	return DefaultEndpoint(tree, key)
}

// Local is the file under the root that endpoint key of tree names for
// name@version, or "" when the names could escape the root or the template
// is not a path below it (a URL on another host).
func (r *Root) Local(tree, key, name, version string) string {
	if !safeSegment(name) || (version != "" && !safeSegment(version)) {
		return ""
	}
	rel := strings.NewReplacer("{name}", name, "{version}", version).Replace(r.Endpoint(tree, key))
	rel = strings.TrimPrefix(rel, "/")
	if rel == "" || strings.Contains(rel, "://") || strings.ContainsAny(rel, "{}") || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return ""
	}
	return filepath.Join(r.Dir, filepath.FromSlash(rel))
}

// Key returns the keychain entry with id, its public key loaded from the
// root. An id the keychain does not list fails with code key_unknown.
func (r *Root) Key(id string) (*Key, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if k, ok := r.loaded[id]; ok {
		return k, nil
	}
	for _, e := range r.Keys {
		if e.KeyID != id {
			continue
		}
		rel := strings.TrimPrefix(e.PublicKeyURL, "/")
		if rel == "" || strings.Contains(rel, "://") || !filepath.IsLocal(filepath.FromSlash(rel)) {
			if !safeSegment(id) {
				break
			}
			rel = "keys/" + id + ".pub"
		}
		pub, err := sign.LoadPublicKey(filepath.Join(r.Dir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		k := &Key{KeyEntry: e, Public: pub}
		r.loaded[id] = k
		return k, nil
	}
	return nil, werr.New(werr.Invalid, "key_unknown", "key %q is not in the keychain of registry %s", id, r.Dir).
		WithHint("the pack was signed with a key this registry does not publish; check the signing block's key id")
}

// Permits reports whether the key may sign packs named name.
func (k *Key) Permits(name string) bool {
	for _, g := range k.PermittedNamespaces {
		if NamespaceMatch(g, name) {
			return true
		}
	}
	return false
}

// NamespaceMatch applies a permittedNamespaces glob: "x.*" matches every name
// that starts with "x.", any other glob matches only itself.
func NamespaceMatch(glob, name string) bool {
	if prefix, ok := strings.CutSuffix(glob, "*"); ok {
		return strings.HasSuffix(prefix, ".") && strings.HasPrefix(name, prefix) && len(name) > len(prefix)
	}
	return glob == name
}

// VersionManifest is a registry's <version>.json for one published version,
// with its lifecycle fields: v1 records deprecated (false, true or a
// message); v2 versionDeprecated, deprecationReason, supersededBy and
// advisoryUrl; both yanked and yankedReason.
type VersionManifest struct {
	Name              string  `json:"name"`
	Version           string  `json:"version"`
	Integrity         string  `json:"integrity"`
	Signing           Signing `json:"signing"`
	Yanked            bool    `json:"yanked"`
	YankedReason      string  `json:"yankedReason"`
	Deprecated        any     `json:"deprecated"` // v1: false, true or a message
	VersionDeprecated bool    `json:"versionDeprecated"`
	DeprecationReason string  `json:"deprecationReason"`
	SupersededBy      string  `json:"supersededBy"`
	AdvisoryURL       string  `json:"advisoryUrl"`
	Path              string  `json:"-"`
	Tree              string  `json:"-"` // TreeV1 or TreeV2
}

// Signing is a signing block in any of its published shapes.
type Signing struct {
	Method       string `json:"method"`
	KeyID        string `json:"keyId"`
	PublicKeyRef string `json:"publicKeyRef"`
	SignatureRef string `json:"signatureRef"`
	Scheme       string `json:"scheme"`
	PublicKeyURL string `json:"publicKeyUrl"`
}

// IsDeprecated reports whether the version is marked deprecated (v1
// deprecated, v2 versionDeprecated).
func (v *VersionManifest) IsDeprecated() bool {
	if v.VersionDeprecated {
		return true
	}
	switch d := v.Deprecated.(type) {
	case bool:
		return d
	case string:
		return d != ""
	}
	return false
}

// DeprecationMessage is the reason given for a deprecation: v2's
// deprecationReason, or v1's deprecated when it is a message.
func (v *VersionManifest) DeprecationMessage() string {
	if v.DeprecationReason != "" {
		return v.DeprecationReason
	}
	if s, ok := v.Deprecated.(string); ok {
		return s
	}
	return ""
}

// ManifestPath is where the v1 version manifest of name@version lives, or
// "" when name or version could escape the root.
func (r *Root) ManifestPath(name, version string) string {
	return r.Local(TreeV1, "versionManifest", name, version)
}

// Version reads the version manifest of name@version from the first tree
// of trees (default: v2, then v1) that holds it. A version no tree holds
// fails with code version_unknown.
func (r *Root) Version(name, version string, trees ...string) (*VersionManifest, error) {
	if len(trees) == 0 {
		trees = []string{TreeV2, TreeV1}
	}
	if !safeSegment(name) || !safeSegment(version) {
		return nil, werr.New(werr.Invalid, "pack_name_invalid", "pack name %q or version %q cannot name a registry path", name, version)
	}
	var looked []string
	for _, tree := range trees {
		p := r.Local(tree, "versionManifest", name, version)
		if p == "" {
			continue
		}
		looked = append(looked, p)
		data, err := readLimited(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s", p)
		}
		var v VersionManifest
		if err := DecodeTop(data, versionMember, &v); err != nil {
			return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "version manifest %s is not valid JSON", p)
		}
		v.Path, v.Tree = p, tree
		return &v, nil
	}
	return nil, werr.New(werr.Invalid, "version_unknown", "registry %s has no version manifest for %s@%s (looked for %s)", r.Dir, name, version, strings.Join(looked, ", ")).
		WithHint("verify against the registry that published this version, or use --key")
}

func versionMember(k string) bool {
	switch k {
	case "name", "version", "integrity", "signing", "yanked", "yankedReason", "deprecated",
		"versionDeprecated", "deprecationReason", "supersededBy", "advisoryUrl":
		return true
	}
	return false
}

// PackIndex is a tree's per-pack index.json: the pack-level lifecycle and
// one row per published version.
type PackIndex struct {
	Name       string     `json:"name"`
	Latest     string     `json:"latest"`
	Deprecated any        `json:"deprecated"` // false, true or a message
	Versions   []IndexRow `json:"versions"`
	Path       string     `json:"-"`
}

// IndexRow is one version of a per-pack index (v1 and v2 row shapes).
type IndexRow struct {
	Version           string `json:"version"`
	Integrity         string `json:"integrity"`
	SigningKeyID      string `json:"signingKeyId"`
	SigningScheme     string `json:"signingScheme"`
	SigningMethod     string `json:"signingMethod"`
	Yanked            bool   `json:"yanked"`
	Deprecated        any    `json:"deprecated"`
	VersionDeprecated bool   `json:"versionDeprecated"`
}

// Row returns the index row of version, or nil.
func (x *PackIndex) Row(version string) *IndexRow {
	for i := range x.Versions {
		if x.Versions[i].Version == version {
			return &x.Versions[i]
		}
	}
	return nil
}

// PackDeprecated reports the pack-level deprecation and its message.
func (x *PackIndex) PackDeprecated() (bool, string) {
	switch d := x.Deprecated.(type) {
	case bool:
		return d, ""
	case string:
		return d != "", d
	}
	return false, ""
}

// Index reads the per-pack index of name in tree; it returns nil and no
// error when the tree has none (the v1 tree of older registries).
func (r *Root) Index(tree, name string) (*PackIndex, error) {
	p := r.Local(tree, "packMetadata", name, "")
	if p == "" {
		return nil, nil
	}
	data, err := readLimited(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s", p)
	}
	var x PackIndex
	keep := func(k string) bool { return k == "name" || k == "latest" || k == "deprecated" || k == "versions" }
	if err := DecodeTop(data, keep, &x); err != nil {
		return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "per-pack index %s is not valid JSON", p)
	}
	x.Path = p
	return &x, nil
}

// KeyFor returns the keychain entry whose public key is pub, or nil when
// the keychain holds no such key (keys that cannot be loaded are skipped).
func (r *Root) KeyFor(pub crypto.PublicKey) *Key {
	type equaler interface{ Equal(crypto.PublicKey) bool }
	e, ok := pub.(equaler)
	if !ok {
		return nil
	}
	for _, ent := range r.Keys {
		k, err := r.Key(ent.KeyID)
		if err == nil && e.Equal(k.Public) {
			return k
		}
	}
	return nil
}

func safeSegment(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`+"\x00") && path.Clean(s) == s
}

func readLimited(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadSized(f, maxMetaFile+1)
	if err == nil && len(data) > maxMetaFile {
		err = werr.New(werr.Invalid, "registry_invalid", "%s is larger than %d bytes", p, maxMetaFile)
	}
	return data, err
}

// ReadSized reads at most max bytes of f into a buffer sized from f's length,
// in as few read calls as the file allows.
func ReadSized(f *os.File, max int64) ([]byte, error) {
	size := int64(0)
	if st, err := f.Stat(); err == nil {
		size = min(st.Size(), max)
	}
	b := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := b.ReadFrom(io.LimitReader(f, max))
	return b.Bytes(), err
}
