// Package registry reads an OpenWOP registry root from disk (SPEC-NOTES §5):
// its keychain in .well-known/openwop-registry.json and keys/<id>.pub, the
// namespaces each key may sign for, and the version manifests
// v1/packs/<name>/-/<version>.json with their integrity, signing block and
// yanked/deprecated state.
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

// Root is an opened registry root directory.
type Root struct {
	Dir  string
	Keys []KeyEntry // the signingKeys of the metadata, in file order

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

// Open reads the metadata of the registry root at dir.
func Open(dir string) (*Root, error) {
	data, err := readLimited(filepath.Join(dir, filepath.FromSlash(WellKnown)))
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s in registry root %s", WellKnown, dir).
			WithHint("--registry takes a registry root directory (the one holding .well-known/ and keys/)")
	}
	var meta struct {
		SigningKeys []KeyEntry `json:"signingKeys"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "%s in registry root %s is not valid JSON", WellKnown, dir)
	}
	return &Root{Dir: dir, Keys: meta.SigningKeys, loaded: map[string]*Key{}}, nil
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

// VersionManifest is a registry's <version>.json for one published version.
type VersionManifest struct {
	Name         string  `json:"name"`
	Version      string  `json:"version"`
	Integrity    string  `json:"integrity"`
	Signing      Signing `json:"signing"`
	Yanked       bool    `json:"yanked"`
	YankedReason string  `json:"yankedReason"`
	Deprecated   any     `json:"deprecated"` // false, true or a message
	Path         string  `json:"-"`
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

// IsDeprecated reports whether the version is marked deprecated.
func (v *VersionManifest) IsDeprecated() bool {
	switch d := v.Deprecated.(type) {
	case bool:
		return d
	case string:
		return d != ""
	}
	return false
}

// ManifestPath is where the version manifest of name@version lives, or ""
// when name or version could escape the root.
func (r *Root) ManifestPath(name, version string) string {
	if !safeSegment(name) || !safeSegment(version) {
		return ""
	}
	return filepath.Join(r.Dir, "v1", "packs", name, "-", version+".json")
}

// Version reads the version manifest of name@version. A version the registry
// does not hold fails with code version_unknown.
func (r *Root) Version(name, version string) (*VersionManifest, error) {
	p := r.ManifestPath(name, version)
	if p == "" {
		return nil, werr.New(werr.Invalid, "pack_name_invalid", "pack name %q or version %q cannot name a registry path", name, version)
	}
	data, err := readLimited(p)
	if os.IsNotExist(err) {
		return nil, werr.New(werr.Invalid, "version_unknown", "registry %s has no version manifest for %s@%s (%s)", r.Dir, name, version, p).
			WithHint("verify against the registry that published this version, or use --key")
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s", p)
	}
	var v VersionManifest
	if err := DecodeTop(data, versionMember, &v); err != nil {
		return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "version manifest %s is not valid JSON", p)
	}
	v.Path = p
	return &v, nil
}

func versionMember(k string) bool {
	switch k {
	case "name", "version", "integrity", "signing", "yanked", "yankedReason", "deprecated":
		return true
	}
	return false
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
