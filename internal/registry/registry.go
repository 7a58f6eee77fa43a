// Package registry reads an OpenWOP registry root from disk (docs/FORMATS.md §5,
// spec v2 packs.md "The registry tree"): its discovery document
// .well-known/openwop-registry.json (keychain and endpoints), keys/<id>.pub,
// the namespaces each key may sign for, and in both trees (v2, where new
// versions land, and the frozen v1) the version manifests
// <tree>/packs/<name>/-/<version>.json with their integrity, signing block
// and lifecycle fields, and the per-pack index <tree>/packs/<name>/index.json.
// Every path is resolved through the discovery document's endpoints.
//
// A registry root is a stranger's tree: it is opened as an untrusted.Dir and
// every document is read through internal/untrusted, as the registry's own
// Node scripts read it (JSON.parse, exact member names; a member named twice
// in any letter case is refused), only from regular files inside the root,
// within the registry's size bounds.
package registry

import (
	"crypto"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/safefile"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// WellKnown is the registry metadata file, relative to the root.
const WellKnown = ".well-known/openwop-registry.json"

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

	// dir is the root opened through the untrusted layer: every file of
	// the registry is read through it (nil only in tests that build a
	// Root by hand).
	dir *untrusted.Dir

	mu     sync.Mutex
	loaded map[string]*Key
	// indexes are the small per-pack indexes Listing read, by tree and
	// name (see maxKeptIndexes).
	indexes map[string]*PackIndex
}

// KeyEntry is one member of signingKeys[] in the registry metadata.
type KeyEntry struct {
	KeyID     string `json:"keyId"`
	Algorithm string `json:"algorithm"`
	// PublicKeyURL is where a registry server publishes the key. A root on
	// disk is read as the registry's verify-signatures.mjs reads it: the
	// key is keys/<keyId>.pub, whatever this says.
	PublicKeyURL        string   `json:"publicKeyUrl"`
	PermittedNamespaces []string `json:"permittedNamespaces"`
	Status              string   `json:"status"`
}

// Key is a keychain entry with its public key loaded.
type Key struct {
	KeyEntry
	Public crypto.PublicKey
	// Path is the file the public key was read from.
	Path string
}

// FindRoot returns the registry root for dir: dir itself when it holds
// .well-known/openwop-registry.json, or dir/registry for a checkout of a
// registry repository.
func FindRoot(dir string) (string, error) {
	if err := safefile.CheckDir(dir); err != nil {
		return "", err
	}
	for _, cand := range []string{dir, filepath.Join(dir, "registry")} {
		if fi, err := os.Stat(filepath.Join(cand, filepath.FromSlash(WellKnown))); err == nil && fi.Mode().IsRegular() {
			return cand, nil
		}
	}
	return "", notRoot(dir)
}

func notRoot(dir string) error {
	return werr.New(werr.Env, "registry_unreadable", "%s is not a registry root: no %s in it or in %s", dir, WellKnown, filepath.Join(dir, "registry")).
		WithHint("--registry takes a registry root (the directory holding .well-known/ and keys/) or a checkout of a registry repository")
}

// findRoot is FindRoot for Open: a candidate whose discovery document
// exists in any form is chosen, so that a named pipe or a link in its
// place is refused by the untrusted layer with its own code rather than
// passed over.
func findRoot(dir string) (string, error) {
	if err := safefile.CheckDir(dir); err != nil {
		return "", err
	}
	for _, cand := range []string{dir, filepath.Join(dir, "registry")} {
		if _, err := os.Lstat(filepath.Join(cand, filepath.FromSlash(WellKnown))); err == nil {
			return cand, nil
		}
	}
	return "", notRoot(dir)
}

// Open reads the metadata of the registry root at dir (or of dir/registry,
// for a checkout of a registry repository). The root stays open for the
// reads that follow; Close releases it.
func Open(dir string) (*Root, error) {
	root, err := findRoot(dir)
	if err != nil {
		return nil, err
	}
	d, err := untrusted.OpenDir(root)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot open registry root %s", root)
	}
	var meta struct {
		SigningKeys []KeyEntry                 `json:"signingKeys"`
		Endpoints   map[string]json.RawMessage `json:"endpoints"`
	}
	if err := readDoc(d, WellKnown, untrusted.MaxDocument, &meta); err != nil {
		d.Close()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s in registry root %s", WellKnown, root).
				WithHint("--registry takes a registry root directory (the one holding .well-known/ and keys/)")
		}
		return nil, err
	}
	eps := map[string]map[string]string{"": {}}
	for k, raw := range meta.Endpoints {
		var s string
		if untrusted.DecodeJSON(raw, &s) == nil {
			eps[""][k] = s
			continue
		}
		var m map[string]string
		if (k == TreeV1 || k == TreeV2) && untrusted.DecodeJSON(raw, &m) == nil {
			eps[k] = m
		}
	}
	return &Root{Dir: root, Keys: meta.SigningKeys, endpoints: eps, dir: d, loaded: map[string]*Key{}}, nil
}

// Close releases the root directory.
func (r *Root) Close() error {
	if r.dir == nil {
		return nil
	}
	return r.dir.Close()
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
	rel := r.rel(tree, key, name, version)
	if rel == "" {
		return ""
	}
	return filepath.Join(r.Dir, filepath.FromSlash(rel))
}

// rel is Local as a slash path relative to the root.
func (r *Root) rel(tree, key, name, version string) string {
	if !safeSegment(name) || (version != "" && !safeSegment(version)) {
		return ""
	}
	rel := expand(r.Endpoint(tree, key), name, version)
	rel = strings.TrimPrefix(rel, "/")
	if rel == "" || strings.Contains(rel, "://") || strings.ContainsAny(rel, "{}") || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return ""
	}
	return rel
}

// expand replaces {name} and {version} in the template tmpl, as
// strings.NewReplacer("{name}", name, "{version}", version).Replace does
// (the text put in is not searched again), without building a replacer
// for each path (verify of a whole registry asks for hundreds).
func expand(tmpl, name, version string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			if b.Len() == 0 {
				return tmpl
			}
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		switch rest := tmpl[i:]; {
		case strings.HasPrefix(rest, "{name}"):
			b.WriteString(name)
			tmpl = rest[len("{name}"):]
		case strings.HasPrefix(rest, "{version}"):
			b.WriteString(version)
			tmpl = rest[len("{version}"):]
		default:
			b.WriteByte('{')
			tmpl = rest[1:]
		}
	}
}

// readDoc reads the registry document rel through the untrusted layer: a
// regular file inside the root of at most max bytes, decoded as JSON.parse
// reads it. A missing file gives an error matching fs.ErrNotExist; the
// layer's refusals keep their codes (file_not_regular, file_too_large,
// path_outside_root, json_duplicate_member, json_invalid, ...), each
// naming the file.
func readDoc(d *untrusted.Dir, rel string, max int64, v any) error {
	// The bytes are decoded where they were read, into a buffer reused for
	// the next document (decoding copies what it keeps).
	read := false
	err := d.UseFile(rel, max, func(data []byte) error {
		read = true
		return untrusted.NameJSON(d.Join(rel), DecodeTop(data, v))
	})
	if err != nil && !read {
		if errors.Is(err, fs.ErrNotExist) || werr.CodeOf(err) != "" {
			return err
		}
		return werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s", d.Join(rel))
	}
	return err
}

func safeSegment(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`+"\x00") && path.Clean(s) == s
}
