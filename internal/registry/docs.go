package registry

import (
	"bytes"
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// VersionManifest is a registry's <version>.json for one published version,
// with its lifecycle fields: v1 records deprecated (false, true or a
// message); v2 versionDeprecated, deprecationReason, supersededBy and
// advisoryUrl; both yanked and yankedReason.
type VersionManifest struct {
	Name              string      `json:"name"`
	Version           string      `json:"version"`
	Integrity         string      `json:"integrity"`
	Signing           Signing     `json:"signing"`
	Yanked            bool        `json:"yanked"`
	YankedReason      string      `json:"yankedReason"`
	Deprecated        Deprecation `json:"deprecated"` // v1: false, true or a message
	VersionDeprecated bool        `json:"versionDeprecated"`
	DeprecationReason string      `json:"deprecationReason"`
	SupersededBy      string      `json:"supersededBy"`
	AdvisoryURL       string      `json:"advisoryUrl"`
	Path              string      `json:"-"`
	Tree              string      `json:"-"` // TreeV1 or TreeV2
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
	return v.VersionDeprecated || v.Deprecated.Set
}

// DeprecationMessage is the reason given for a deprecation: v2's
// deprecationReason, or v1's deprecated when it is a message.
func (v *VersionManifest) DeprecationMessage() string {
	if v.DeprecationReason != "" {
		return v.DeprecationReason
	}
	return v.Deprecated.Message
}

// Deprecation is a deprecated member (false, true or a message) as a
// script testing it reads it: set when JSON.parse gives a truthy value (true,
// a non-empty string, a number other than 0, any array or object), with
// the message when it is a string. An array or object is not decoded: a
// hostile one costs no memory beyond its bytes.
type Deprecation struct {
	Set     bool
	Message string
}

// UnmarshalJSON reads one JSON value, already checked by the untrusted
// layer.
func (d *Deprecation) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*d = Deprecation{}
	if len(b) == 0 {
		return nil
	}
	switch c := b[0]; {
	case c == 't':
		d.Set = true
	case c == '"':
		if err := untrusted.DecodeJSON(b, &d.Message); err != nil {
			return err
		}
		d.Set = d.Message != ""
	case c == '[' || c == '{':
		d.Set = true
	case c == '-' || c >= '0' && c <= '9':
		f, err := strconv.ParseFloat(string(b), 64)
		d.Set = err != nil || f != 0 // too large for a float64 is not 0
	}
	return nil
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
		err := r.read(rel, &v, nil)
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
	Name       string      `json:"name"`
	Latest     string      `json:"latest"`
	Deprecated Deprecation `json:"deprecated"` // false, true or a message
	Versions   []IndexRow  `json:"versions"`
	Path       string      `json:"-"`
}

// IndexRow is one version of a per-pack index (v1 and v2 row shapes).
type IndexRow struct {
	Version           string      `json:"version"`
	Integrity         string      `json:"integrity"`
	SigningKeyID      string      `json:"signingKeyId"`
	SigningScheme     string      `json:"signingScheme"`
	SigningMethod     string      `json:"signingMethod"`
	Yanked            bool        `json:"yanked"`
	Deprecated        Deprecation `json:"deprecated"`
	VersionDeprecated bool        `json:"versionDeprecated"`
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
	return x.Deprecated.Set, x.Deprecated.Message
}

// Index reads the per-pack index of name in tree; it returns nil and no
// error when the tree has none (the v1 tree of older registries). An index
// the untrusted layer refuses fails with the layer's code.
func (r *Root) Index(tree, name string) (*PackIndex, error) {
	var x *PackIndex
	err := r.index(tree, name, func(idx *PackIndex) { x = idx })
	return x, err
}

// Listing is what a per-pack index says about one version: the pack-level
// lifecycle and the version's row.
type Listing struct {
	Path       string
	Latest     string
	Deprecated Deprecation
	Row        *IndexRow // the first row for the version; nil when none
	Rows       int       // how many rows list the version (more than one is ambiguous)
}

// Listing reads the per-pack index of name in tree and keeps only what it
// says about version, so that the rest of a large index is garbage as soon
// as it is decoded; nil and no error when the tree has no index. A small
// index read whole is kept (see maxKeptIndexes): verify of a whole
// registry asks for each pack's once per version.
func (r *Root) Listing(tree, name, version string) (*Listing, error) {
	key := tree + "\x00" + name
	r.mu.Lock()
	x := r.indexes[key]
	r.mu.Unlock()
	if x != nil {
		return listingOf(x, version), nil
	}
	var l *Listing
	err := r.index(tree, name, func(x *PackIndex) {
		l = listingOf(x, version)
		if len(x.Versions) > maxKeptRows {
			return
		}
		kept := *x
		kept.Versions = slices.Clone(x.Versions)
		r.mu.Lock()
		if len(r.indexes) < maxKeptIndexes {
			if r.indexes == nil {
				r.indexes = map[string]*PackIndex{}
			}
			r.indexes[key] = &kept
		}
		r.mu.Unlock()
	})
	return l, err
}

// maxKeptIndexes and maxKeptRows bound the per-pack indexes Listing keeps:
// at most 1024 indexes of at most 64 rows each (a few MiB at worst).
const (
	maxKeptIndexes = 1024
	maxKeptRows    = 64
)

// listingOf is what the per-pack index x says about version.
func listingOf(x *PackIndex, version string) *Listing {
	l := &Listing{Path: x.Path, Latest: x.Latest, Deprecated: x.Deprecated}
	for i := range x.Versions {
		if x.Versions[i].Version != version {
			continue
		}
		if l.Rows++; l.Rows == 1 {
			kept := x.Versions[i]
			l.Row = &kept
		}
	}
	return l
}

// index decodes the per-pack index of name in tree and hands it to use
// while its decoding slot is held (see maxDecoding); use is not called
// when the tree has no index.
func (r *Root) index(tree, name string, use func(*PackIndex)) error {
	rel := r.rel(tree, "packMetadata", name, "")
	if rel == "" {
		return nil
	}
	var x PackIndex
	err := r.read(rel, &x, func() {
		x.Path = r.Local(tree, "packMetadata", name, "")
		use(&x)
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// maxDecoding is how many registry documents are read and decoded at once
// (verify checks tarballs on every CPU): a hostile document of
// untrusted.MaxDocument bytes costs tens of MiB while it is decoded, so the
// memory of `verify --registry` stays bounded whatever the number of CPUs.
const maxDecoding = 2

// decoding holds a slot per document being read (see maxDecoding); made
// on first use, so that the package's init does no work.
var decoding struct {
	once  sync.Once
	slots chan struct{}
}

// decodingSlots is decoding's channel.
func decodingSlots() chan struct{} {
	decoding.once.Do(func() { decoding.slots = make(chan struct{}, maxDecoding) })
	return decoding.slots
}

// read reads the registry document rel (at most untrusted.MaxDocument
// bytes) into v and, when it was read, calls then (if not nil) before the
// decoding slot is given back.
func (r *Root) read(rel string, v any, then func()) error {
	if r.dir == nil {
		return werr.New(werr.Env, "registry_unreadable", "registry %s is not open", r.Dir)
	}
	slots := decodingSlots()
	slots <- struct{}{}
	defer func() { <-slots }()
	if err := readDoc(r.dir, rel, untrusted.MaxDocument, v); err != nil {
		return err
	}
	if then != nil {
		then()
	}
	return nil
}
