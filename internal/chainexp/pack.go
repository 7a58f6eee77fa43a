package chainexp

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// MaxManifest bounds a manifest read from a folder or named as a file (a
// tarball's pack.json is bounded by the tarball limits).
const MaxManifest = 16 << 20

// Pack is a pack manifest as the expansion reads it.
type Pack struct {
	Name, Version string
	Spec          kinds.Spec
	// Root is the manifest.
	Root *jsvalue.Object
	// TypeIDs are the typeIds of the pack's own nodes[].
	TypeIDs []string
	// Source says where the manifest was read from.
	Source string
}

// LoadPack reads a pack's manifest from a pack folder (its pack.json), a
// pack tarball (.tgz, read by the safe tarball reader) or a manifest file,
// through the untrusted-input layer.
func LoadPack(path string, lim tarball.Limits) (*Pack, error) {
	data, source, err := readManifest(path, lim)
	if err != nil {
		return nil, err
	}
	return ParsePack(data, source)
}

func readManifest(path string, lim tarball.Limits) ([]byte, string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, path, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read the pack %s", path)
	}
	switch {
	case fi.IsDir():
		d, err := untrusted.OpenDir(path)
		if err != nil {
			return nil, path, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot open the pack folder %s", path)
		}
		defer d.Close()
		b, err := d.ReadFile(tarball.ManifestName, MaxManifest)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, path, werr.New(werr.Invalid, "pack_manifest_missing", "%s holds no pack.json", path).
					WithHint("give the folder of a pack, its pack.json, or its .tgz")
			}
			return nil, path, readErr(err, path+"/pack.json")
		}
		return b, d.Join(tarball.ManifestName), nil
	case strings.HasSuffix(path, ".tgz") || strings.HasSuffix(path, ".tar.gz"):
		f, err := untrusted.OpenNamed(path, lim.MaxCompressed)
		if err != nil {
			return nil, path, readErr(err, path)
		}
		defer f.Close()
		a, err := tarball.ReadAll(f, lim)
		if err != nil {
			return nil, path, err
		}
		return a.Get(tarball.ManifestName).Data, path + ":pack.json", nil
	}
	b, err := untrusted.ReadNamed(path, MaxManifest)
	if err != nil {
		return nil, path, readErr(err, path)
	}
	return b, path, nil
}

func readErr(err error, what string) error {
	if werr.CodeOf(err) != "" {
		return err
	}
	return werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read %s", what)
}

// ParsePack parses a manifest's bytes.
func ParsePack(data []byte, source string) (*Pack, error) {
	doc, err := jsondoc.Parse(data)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "json_invalid", err, "%s is not valid JSON", source)
	}
	root, ok := jsvalue.FromNode(doc.Root).(*jsvalue.Object)
	if !ok {
		return nil, werr.New(werr.Invalid, "pack_invalid", "%s is not a JSON object", source)
	}
	spec, _ := kinds.DetectSpec(doc.Root)
	p := &Pack{Root: root, Spec: spec, Source: source}
	if v, ok := root.Get("name"); ok {
		p.Name = jsvalue.JSString(v)
	}
	if v, ok := root.Get("version"); ok {
		p.Version = jsvalue.JSString(v)
	}
	nv, _ := root.Get("nodes")
	nodes, _ := nv.([]any)
	for _, n := range nodes {
		no, _ := n.(*jsvalue.Object)
		if t, _ := no.Get("typeId"); isString(t) {
			p.TypeIDs = append(p.TypeIDs, t.(string))
		}
	}
	return p, nil
}

// ChainIDs are the chainIds of the pack's chains[], in order.
func (p *Pack) ChainIDs() []string {
	var ids []string
	for _, c := range p.chainEntries() {
		if o, ok := c.(*jsvalue.Object); ok {
			if id, _ := o.Get("chainId"); isString(id) {
				ids = append(ids, id.(string))
			}
		}
	}
	return ids
}

func (p *Pack) chainEntries() []any {
	cv, _ := p.Root.Get("chains")
	chains, _ := cv.([]any)
	return chains
}

// Chain returns the first chain of chains[] whose chainId is id (as the
// library's caller finds it), checked by ParseChain.
func (p *Pack) Chain(id string) (*Chain, error) {
	for i, c := range p.chainEntries() {
		if o, ok := c.(*jsvalue.Object); ok {
			if cid, _ := o.Get("chainId"); cid == id {
				return ParseChain(o, fmt.Sprintf("/chains/%d", i))
			}
		}
	}
	hint := "the pack has no chains[]: `chain expand` expands a workflow-chain pack's chain"
	if ids := p.ChainIDs(); len(ids) > 0 {
		hint = "the pack's chains: " + strings.Join(ids, ", ")
	}
	return nil, refusal(CodeChainNotFound, details("chainId", id), hint, "%s has no chain %q", p.Source, id)
}

// Siblings are the pack's chains that parse, by chainId (a later chain of
// the same chainId wins, as in the library's Map): the chains a sub-chain
// reference may name.
func (p *Pack) Siblings() map[string]*Chain {
	m := map[string]*Chain{}
	for i, c := range p.chainEntries() {
		if ch, err := ParseChain(c, fmt.Sprintf("/chains/%d", i)); err == nil {
			m[ch.ID] = ch
		}
	}
	return m
}

// exactPin is a v2 chain reference's pin: @MAJOR.MINOR.PATCH (RFC 0177 §E.1).
var exactPin = lazyre.New(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// PinWarnings are, for a v2 pack, the chain's node typeIds that are not
// pinned to one exact version: `validate` refuses them (a v2 host refuses
// them at register), the expansion only warns.
func PinWarnings(p *Pack, ch *Chain) []string {
	if p.Spec != kinds.V2 {
		return nil
	}
	var out []string
	for i, n := range ch.Nodes {
		t, _ := n.Get("typeId")
		typeID := t.(string)
		_, pin, pinned := strings.Cut(typeID, "@")
		switch {
		case !pinned:
			out = append(out, fmt.Sprintf("node %d (%s): typeId %q is not pinned; a v2 host refuses an unpinned chain reference at register (pin it as %s@MAJOR.MINOR.PATCH)", i, jsvalue.JSString(mustGet(n, "id")), typeID, typeID))
		case !exactPin.MatchString(pin):
			out = append(out, fmt.Sprintf("node %d (%s): typeId %q pins %q, which is not one exact version; a v2 host refuses a range at register", i, jsvalue.JSString(mustGet(n, "id")), typeID, pin))
		}
	}
	return out
}

func mustGet(o *jsvalue.Object, key string) any { v, _ := o.Get(key); return v }

// Resolver decides which typeIds a host resolves (step 3).
type Resolver struct {
	// Host, when not nil, is exactly the typeIds the host provides
	// (--host-types): nothing else is assumed, core.* included.
	Host map[string]bool
	// Nodes are the typeIds of node packs the host knows (the pack's own
	// and --packs'), matched without their @pin.
	Nodes map[string]bool
}

// NewResolver returns a resolver for the pack itself and the node packs
// given; host, when not nil, is the list of --host-types.
func NewResolver(self *Pack, packs []*Pack, host []string) *Resolver {
	r := &Resolver{Nodes: map[string]bool{}}
	for _, p := range append([]*Pack{self}, packs...) {
		if p == nil {
			continue
		}
		for _, t := range p.TypeIDs {
			id, _, _ := strings.Cut(t, "@")
			r.Nodes[id] = true
		}
	}
	if host != nil {
		r.Host = map[string]bool{}
		for _, t := range host {
			r.Host[t] = true
		}
		// Only the packs named with --packs add to the host's list; the
		// chain pack's own nodes do not (a chain pack has none).
		r.Nodes = map[string]bool{}
		for _, p := range packs {
			for _, t := range p.TypeIDs {
				id, _, _ := strings.Cut(t, "@")
				r.Nodes[id] = true
			}
		}
	}
	return r
}

// Resolvable reports whether the host resolves typeID: with a host list,
// when it lists typeID exactly or a --packs node pack has it; otherwise
// also every reserved core.* typeId and the chain pack's own nodes.
func (r *Resolver) Resolvable(typeID string) bool {
	id, _, _ := strings.Cut(typeID, "@")
	if r.Nodes[id] {
		return true
	}
	if r.Host != nil {
		return r.Host[typeID]
	}
	return strings.HasPrefix(id, "core.")
}

// ReadParams reads --params FILE: a JSON object of parameter values.
func ReadParams(path string) (*jsvalue.Object, error) {
	v, err := readJSONFile(path, "--params")
	if err != nil {
		return nil, err
	}
	o, ok := v.(*jsvalue.Object)
	if !ok {
		return nil, werr.New(werr.Usage, "usage", "--params %s is not a JSON object", path).
			WithHint(`give the parameter values as one object, such as {"productIdea": "a todo app"}`)
	}
	return o, nil
}

// ReadHostTypes reads --host-types FILE: a JSON array of the typeIds a host
// provides.
func ReadHostTypes(path string) ([]string, error) {
	v, err := readJSONFile(path, "--host-types")
	if err != nil {
		return nil, err
	}
	a, ok := v.([]any)
	out := make([]string, 0, len(a))
	for _, e := range a {
		s, isStr := e.(string)
		ok = ok && isStr
		out = append(out, s)
	}
	if !ok {
		return nil, werr.New(werr.Usage, "usage", "--host-types %s is not a JSON array of typeId strings", path).
			WithHint(`list the typeIds the host provides, such as ["core.ai.callPrompt", "core.openwop.http.get"]`)
	}
	return out, nil
}

func readJSONFile(path, flag string) (any, error) {
	b, err := untrusted.ReadNamed(path, MaxManifest)
	if err != nil {
		return nil, readErr(err, flag+" "+path)
	}
	doc, err := jsondoc.Parse(b)
	if err != nil {
		return nil, werr.Wrap(werr.Usage, "usage", err, "%s %s is not valid JSON", flag, path)
	}
	return jsvalue.FromNode(doc.Root), nil
}

// NewExpansionID is a random expansion id of 4 hex digits (the spec: "a
// random 4-hex suffix is sufficient").
func NewExpansionID() string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
