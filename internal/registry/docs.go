package registry

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

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
	return v.VersionDeprecated || truthy(v.Deprecated)
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

// truthy reads a v1 deprecated member (false, true or a message).
func truthy(d any) bool {
	switch d := d.(type) {
	case bool:
		return d
	case string:
		return d != ""
	}
	return false
}

// ManifestPath is where the v1 version manifest of name@version lives, or
// "" when name or version could escape the root.
func (r *Root) ManifestPath(name, version string) string {
	return r.Local(TreeV1, "versionManifest", name, version)
}

// Version reads the version manifest of name@version from the first tree
// of trees (default: v2, then v1) that holds it. A version no tree holds
// fails with code version_unknown; a manifest the untrusted layer refuses
// (not a regular file, too large, a link out of the root, JSON that
// JSON.parse would read otherwise) fails with the layer's code.
func (r *Root) Version(name, version string, trees ...string) (*VersionManifest, error) {
	if len(trees) == 0 {
		trees = []string{TreeV2, TreeV1}
	}
	if !safeSegment(name) || !safeSegment(version) {
		return nil, werr.New(werr.Invalid, "pack_name_invalid", "pack name %q or version %q cannot name a registry path", name, version)
	}
	var looked []string
	for _, tree := range trees {
		rel := r.rel(tree, "versionManifest", name, version)
		if rel == "" {
			continue
		}
		p := r.Local(tree, "versionManifest", name, version)
		looked = append(looked, p)
		var v VersionManifest
		err := r.read(rel, &v)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		v.Path, v.Tree = p, tree
		return &v, nil
	}
	return nil, werr.New(werr.Invalid, "version_unknown", "registry %s has no version manifest for %s@%s (looked for %s)", r.Dir, name, version, strings.Join(looked, ", ")).
		WithHint("verify against the registry that published this version, or use --key")
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
	s, _ := x.Deprecated.(string)
	return truthy(x.Deprecated), s
}

// Index reads the per-pack index of name in tree; it returns nil and no
// error when the tree has none (the v1 tree of older registries). An index
// the untrusted layer refuses fails with the layer's code.
func (r *Root) Index(tree, name string) (*PackIndex, error) {
	rel := r.rel(tree, "packMetadata", name, "")
	if rel == "" {
		return nil, nil
	}
	var x PackIndex
	err := r.read(rel, &x)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	x.Path = r.Local(tree, "packMetadata", name, "")
	return &x, nil
}

// read reads the registry document rel (at most untrusted.MaxDocument
// bytes) into v.
func (r *Root) read(rel string, v any) error {
	if r.dir == nil {
		return werr.New(werr.Env, "registry_unreadable", "registry %s is not open", r.Dir)
	}
	return readDoc(r.dir, rel, untrusted.MaxDocument, v)
}
