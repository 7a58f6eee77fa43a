package semdiff

import (
	"bytes"
	"encoding/json"
	"math/big"
	"path"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Pack is one side of a comparison: a pack's files held in memory, read
// through the untrusted layer (a folder, a tarball, or a version in a
// registry checkout).
type Pack struct {
	// Source is the side as it was named (a folder, a .tgz, NAME@VERSION).
	Source string
	// Where is the file on disk findings point into: the folder, the
	// tarball (members are "x.tgz!/pack.json"), or the registry's tarball.
	Where   string
	archive bool
	Name    string
	Version string
	// Files are the pack's files by slash path relative to the pack root.
	Files    map[string][]byte
	manifest map[string]any
	decoded  map[string]any // decoded JSON files, by path (nil value: not JSON)
	entry    string         // the runtime entry's path, once compared
	refs     *refIndex      // where the pack's schema references lead, once built
	registry string         // the registry checkout named when it was loaded, if any
}

// Display is the file a finding on the member rel points at: a path
// inside the folder, or "x.tgz!/rel" inside a tarball.
func (p *Pack) Display(rel string) string {
	if p.archive {
		return p.Where + "!/" + rel
	}
	return path.Join(strings.ReplaceAll(p.Where, `\`, "/"), rel)
}

// LoadOptions say where NAME@VERSION is read and within which limits.
type LoadOptions struct {
	// Registry is a registry checkout or root; it is needed for a side
	// written NAME@VERSION (v2 tree first, then v1), and names the pack
	// that provides a type a chain needs.
	Registry string
	// Limits bound a tarball (default: the registry's).
	Limits *tarball.Limits
}

// Load reads one side: a pack folder (the files `pack` would ship),
// a .tgz, or NAME@VERSION from o.Registry, all through pack.ShippedFiles,
// the one reader of what a pack ships.
func Load(arg string, o LoadOptions) (*Pack, error) {
	s, err := pack.ShippedFiles(arg, pack.ShipOptions{Registry: o.Registry, Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	p := &Pack{Source: arg, Where: s.Where, archive: s.Archive, Files: s.Files, registry: o.Registry}
	if err := p.init(); err != nil {
		return nil, err
	}
	return p, nil
}

// FromTarball reads a pack tarball held in memory (named where) with the
// safe reader.
func FromTarball(where string, data []byte, lim tarball.Limits) (*Pack, error) {
	a, err := tarball.ReadAll(bytes.NewReader(data), lim)
	if err != nil {
		return nil, err
	}
	return FromArchive(where, a)
}

// FromArchive is the pack of an archive already read (publish's release).
func FromArchive(where string, a *tarball.Archive) (*Pack, error) {
	p := &Pack{Source: where, Where: where, archive: true, Files: map[string][]byte{}}
	for _, f := range a.Files {
		p.Files[f.Name] = f.Data
	}
	return p, p.init()
}

// init decodes pack.json and reads the name and version.
func (p *Pack) init() error {
	p.decoded = map[string]any{}
	var m map[string]any
	if err := untrusted.DecodeJSON(p.Files[pack.ManifestFile], &m); err != nil {
		return untrusted.NameJSON(p.Display(pack.ManifestFile), err)
	}
	if m == nil {
		return werr.New(werr.Invalid, "pack_manifest_invalid", "%s is not a JSON object", p.Display(pack.ManifestFile))
	}
	p.manifest = m
	p.Name, _ = m["name"].(string)
	p.Version, _ = m["version"].(string)
	return nil
}

// kind is the pack's kind as validate detects it (a v1 pack without a
// kind member is a node pack).
func (p *Pack) kind() string {
	doc, err := jsondoc.Parse(p.Files[pack.ManifestFile])
	if err != nil {
		return "unreadable"
	}
	return string(kinds.Detect(pack.ManifestFile, doc.Root))
}

// JSON is the file rel decoded (nil when absent or not JSON).
func (p *Pack) JSON(rel string) any {
	if v, ok := p.decoded[rel]; ok {
		return v
	}
	var v any
	data, ok := p.Files[rel]
	if ok && untrusted.DecodeJSON(data, &v) != nil {
		v = nil
	}
	if v != nil && longDigits(data) {
		if doc, err := jsondoc.Parse(data); err == nil {
			v = exact(doc.Root)
		}
	}
	p.decoded[rel] = v
	return v
}

// longDigits reports whether data holds a run of more than 15 digits: a
// number float64 may not hold exactly (or a long string of digits).
func longDigits(data []byte) bool {
	run := 0
	for _, b := range data {
		switch {
		case b >= '0' && b <= '9':
			run++
			if run > 15 {
				return true
			}
		case b == '.':
		default:
			run = 0
		}
	}
	return false
}

// exact is the value of n with every number float64 cannot hold exactly
// (9007199254740993, 0.30000000000000000001) kept as a json.Number in a
// canonical spelling, so that a change past float64's precision is seen;
// other numbers are float64s, as untrusted.DecodeJSON gives them.
func exact(n *jsondoc.Node) any {
	switch n.Kind {
	case jsondoc.Object:
		m := make(map[string]any, len(n.Members))
		for _, mb := range n.Members {
			m[mb.Key] = exact(mb.Value)
		}
		return m
	case jsondoc.Array:
		l := make([]any, len(n.Items))
		for i, it := range n.Items {
			l[i] = exact(it)
		}
		return l
	case jsondoc.Number:
		return exactNumber(n.Str)
	}
	return n.Value()
}

// exactNumber is the number written s: a float64 when it holds s exactly
// as written (its shortest spelling reads back as the same decimal), else
// a json.Number spelled canonically.
func exactNumber(s string) any {
	f, err := strconv.ParseFloat(s, 64)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		// big.Rat would build 10^exp: a number written 1e999999999 is
		// kept as written, not expanded.
		if e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+")); err != nil || e > 400 || e < -400 {
			return json.Number(s)
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return f
	}
	if back, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64)); err == nil && ok && back.Cmp(r) == 0 {
		return f
	}
	if r.IsInt() {
		return json.Number(r.Num().String())
	}
	for digits := 1; ; digits++ {
		t := r.FloatString(digits)
		if back, _ := new(big.Rat).SetString(t); back.Cmp(r) == 0 {
			return json.Number(t)
		}
	}
}
