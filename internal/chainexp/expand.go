// Package chainexp expands a workflow-chain pack's chain into the fragment
// a host splices into a workflow when an editor drops the chain: the
// normative expansion of the spec (v1 workflow-chain-packs.md §"Expansion
// semantics", with v2's rules), computed exactly as the spec's own reference
// library (openwop conformance/src/lib/workflow-chain-expansion.ts) computes
// it, plus what that library leaves to its caller and wopkit does as the
// spec's caller must: the parameters checked against the chain's
// declaration before anything is substituted (chain_parameter_invalid), the
// typeIds a host would resolve, and the sub-chain tree (RFC 0133).
//
// The order of the library is kept: typeIds are resolved first, failing on
// the first unresolvable one with no partial output; then `{{params.x}}`
// tokens in config and inputs are substituted in one pass (a value that is
// exactly one token keeps its JSON type; an embedded token becomes the
// value's JavaScript String form; a missing parameter becomes ""); node ids
// get the prefix <chainId with "." as "_">_<expansionId>_; edges are
// rewritten at the first "."; only id, typeId, name, position, config and
// inputs of a node are copied, and the chain's capabilities are copied onto
// each node. Deferred expansion (RFC 0124) is not part of v2.0 and is not
// implemented.
package chainexp

import (
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/werr"
)

// The stable codes of what an expansion refuses.
const (
	CodeUnresolvableTypeID = "chain_unresolvable_typeid"    // a node's typeId the host cannot resolve
	CodeParameterInvalid   = "chain_parameter_invalid"      // parameters that fail the chain's declaration
	CodeSubChainUnresolved = "sub_chain_unresolved"         // a subChainRef naming no declared sibling chain
	CodeSubChainCycle      = "sub_chain_cycle"              // a chain that composes itself
	CodeSubChainDepth      = "sub_chain_max_depth_exceeded" // nesting deeper than the bound
	CodeChainInvalid       = "chain_invalid"                // a chain whose dag cannot be expanded at all
	CodeChainNotFound      = "chain_not_found"              // no chain of that chainId in the pack
)

// DefaultMaxDepth is the library's (and RFC 0133's recommended) bound on
// sub-chain nesting; the root chain is at depth 0.
const DefaultMaxDepth = 8

// Error is a refusal of the expansion: a *werr.Error (exit 1) with the
// fields the library's error carries, printed as `details`.
type Error struct {
	Err     *werr.Error
	Details *jsvalue.Object
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the werr.Error, so werr.CodeOf and ExitCode see it.
func (e *Error) Unwrap() error { return e.Err }

func refusal(code string, details *jsvalue.Object, hint, format string, args ...any) *Error {
	we := werr.New(werr.Invalid, code, format, args...)
	if hint != "" {
		we = we.WithHint("%s", hint)
	}
	return &Error{Err: we, Details: details}
}

func details(kv ...any) *jsvalue.Object {
	o := &jsvalue.Object{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

// Chain is one entry of a pack's chains[], checked to have the shape the
// expansion reads (the rest of the manifest is `validate`'s business).
type Chain struct {
	ID           string
	Version      string
	Parameters   any // the chain's parameters JSON Schema, as written
	Nodes        []*jsvalue.Object
	Edges        []*jsvalue.Object
	Capabilities []any
	// SubChains are the chainIds subChains[] declares (a string ref, or an
	// object ref's chainId).
	SubChains []string
	// Raw is the chain entry as written.
	Raw *jsvalue.Object
}

// ParseChain checks that the chain entry at ptr has what the expansion
// reads: a chainId, a dag whose nodes are objects with string ids and
// typeIds, and edges (optional) with string ends.
func ParseChain(v any, ptr string) (*Chain, error) {
	o, ok := v.(*jsvalue.Object)
	if !ok {
		return nil, invalidAt(ptr, "is not an object")
	}
	ch := &Chain{Raw: o}
	id, _ := o.Get("chainId")
	if ch.ID, ok = id.(string); !ok {
		return nil, invalidAt(ptr+"/chainId", "is not a string")
	}
	if ver, ok := o.Get("version"); ok {
		ch.Version = jsvalue.JSString(ver)
	}
	ch.Parameters, _ = o.Get("parameters")
	dagV, _ := o.Get("dag")
	dag, ok := dagV.(*jsvalue.Object)
	if !ok {
		return nil, invalidAt(ptr+"/dag", "is not an object")
	}
	nodesV, _ := dag.Get("nodes")
	nodes, ok := nodesV.([]any)
	if !ok {
		return nil, invalidAt(ptr+"/dag/nodes", "is not an array")
	}
	for i, nv := range nodes {
		at := fmt.Sprintf("%s/dag/nodes/%d", ptr, i)
		n, ok := nv.(*jsvalue.Object)
		if !ok {
			return nil, invalidAt(at, "is not an object")
		}
		for _, f := range []string{"id", "typeId"} {
			if s, _ := n.Get(f); !isString(s) {
				return nil, invalidAt(at+"/"+f, "is not a string")
			}
		}
		ch.Nodes = append(ch.Nodes, n)
	}
	if ev, _ := dag.Get("edges"); ev != nil {
		edges, ok := ev.([]any)
		if !ok {
			return nil, invalidAt(ptr+"/dag/edges", "is not an array")
		}
		for i, e := range edges {
			at := fmt.Sprintf("%s/dag/edges/%d", ptr, i)
			eo, ok := e.(*jsvalue.Object)
			if !ok {
				return nil, invalidAt(at, "is not an object")
			}
			for _, f := range []string{"from", "to"} {
				if s, _ := eo.Get(f); !isString(s) {
					return nil, invalidAt(at+"/"+f, "is not a string")
				}
			}
			ch.Edges = append(ch.Edges, eo)
		}
	}
	if cv, ok := o.Get("capabilities"); ok && cv != nil {
		caps, ok := cv.([]any)
		if !ok {
			return nil, invalidAt(ptr+"/capabilities", "is not an array")
		}
		ch.Capabilities = caps
	}
	if sv, ok := o.Get("subChains"); ok && sv != nil {
		subs, ok := sv.([]any)
		if !ok {
			return nil, invalidAt(ptr+"/subChains", "is not an array")
		}
		for i, s := range subs {
			so, ok := s.(*jsvalue.Object)
			if !ok {
				return nil, invalidAt(fmt.Sprintf("%s/subChains/%d", ptr, i), "is not an object")
			}
			ref, _ := so.Get("ref")
			if ro, ok := ref.(*jsvalue.Object); ok {
				ref, _ = ro.Get("chainId")
			}
			r, ok := ref.(string)
			if !ok {
				return nil, invalidAt(fmt.Sprintf("%s/subChains/%d/ref", ptr, i), "is neither a chainId nor an object with a chainId")
			}
			ch.SubChains = append(ch.SubChains, r)
		}
	}
	return ch, nil
}

// mem is one member of an object the expansion builds.
func mem(key string, v any) jsvalue.Member { return jsvalue.Member{Key: key, Value: v} }

func isString(v any) bool { _, ok := v.(string); return ok }

func invalidAt(ptr, what string) *Error {
	return refusal(CodeChainInvalid, details("path", ptr),
		"run `wopkit validate` on the pack: its chain does not have the shape the spec defines",
		"the chain cannot be expanded: %s %s", ptr, what)
}

// Options are the expansion's context (the library's ExpansionContext).
type Options struct {
	// ExpansionID tags this expansion: node ids get
	// <chainId with "." as "_">_<ExpansionID>_ in front.
	ExpansionID string
	// Params are the parameter values, substituted as they are (no schema
	// defaults are added here: see WithDefaults).
	Params *jsvalue.Object
	// Resolvable says whether a host resolves a typeId (step 3).
	Resolvable func(typeID string) bool
}

// Fragment is an expansion: the nodes and edges a host splices into a
// workflow and the map from each original node id to its new id.
type Fragment struct {
	Nodes []*jsvalue.Object
	Edges []*jsvalue.Object
	IDMap *jsvalue.Object
}

// Value is the fragment as the library returns it: {nodes, edges, idMap}.
func (f *Fragment) Value() *jsvalue.Object {
	nodes := make([]any, len(f.Nodes))
	for i, n := range f.Nodes {
		nodes[i] = n
	}
	edges := make([]any, len(f.Edges))
	for i, e := range f.Edges {
		edges[i] = e
	}
	return &jsvalue.Object{Members: []jsvalue.Member{mem("nodes", nodes), mem("edges", edges), mem("idMap", f.IDMap)}}
}

// Resolve is step 3: every node's typeId resolves, or the first that does
// not (in node order) is refused with chain_unresolvable_typeid.
func Resolve(ch *Chain, resolvable func(string) bool) error {
	for _, n := range ch.Nodes {
		t, _ := n.Get("typeId")
		typeID := t.(string)
		if resolvable == nil || !resolvable(typeID) {
			return refusal(CodeUnresolvableTypeID, details("typeId", typeID, "chainId", ch.ID),
				"the host must resolve every typeId: a reserved core.* one, one of a node pack it knows (--packs DIR|TGZ), or one --host-types lists",
				"chain_unresolvable_typeid: '%s' in chain '%s'", typeID, ch.ID)
		}
	}
	return nil
}

// Expand is the library's expandChain: steps 3, 5, 6 and 8. It checks no
// parameters (CheckParams does, before).
func Expand(ch *Chain, opts Options) (*Fragment, error) {
	if err := Resolve(ch, opts.Resolvable); err != nil {
		return nil, err
	}
	prefix := strings.ReplaceAll(ch.ID, ".", "_") + "_" + opts.ExpansionID + "_"
	f := &Fragment{IDMap: &jsvalue.Object{}, Nodes: make([]*jsvalue.Object, 0, len(ch.Nodes)), Edges: make([]*jsvalue.Object, 0, len(ch.Edges))}
	ids := make(map[string]bool, len(ch.Nodes))
	for _, n := range ch.Nodes {
		v, _ := n.Get("id")
		id := v.(string)
		if !ids[id] {
			ids[id] = true
			f.IDMap.Set(id, prefix+id)
		}
	}
	for _, n := range ch.Nodes {
		idV, _ := n.Get("id")
		typeID, _ := n.Get("typeId")
		out := &jsvalue.Object{Members: make([]jsvalue.Member, 0, 7)}
		out.Members = append(out.Members, mem("id", prefix+idV.(string)), mem("typeId", typeID))
		if v, ok := n.Get("name"); ok {
			out.Members = append(out.Members, mem("name", v))
		}
		if v, ok := n.Get("position"); ok {
			out.Members = append(out.Members, mem("position", v))
		}
		if v, ok := n.Get("config"); ok {
			out.Members = append(out.Members, mem("config", substitute(v, opts.Params)))
		}
		if v, ok := n.Get("inputs"); ok {
			out.Members = append(out.Members, mem("inputs", substitute(v, opts.Params)))
		}
		if len(ch.Capabilities) > 0 {
			out.Members = append(out.Members, mem("capabilities", append([]any(nil), ch.Capabilities...)))
		}
		f.Nodes = append(f.Nodes, out)
	}
	for _, e := range ch.Edges {
		from, _ := e.Get("from")
		to, _ := e.Get("to")
		out := &jsvalue.Object{Members: make([]jsvalue.Member, 0, 4)}
		out.Members = append(out.Members,
			mem("from", rewriteRef(from.(string), ids, prefix)),
			mem("to", rewriteRef(to.(string), ids, prefix)))
		if v, ok := e.Get("condition"); ok {
			out.Members = append(out.Members, mem("condition", v))
		}
		if v, ok := e.Get("triggerRule"); ok {
			out.Members = append(out.Members, mem("triggerRule", v))
		}
		f.Edges = append(f.Edges, out)
	}
	return f, nil
}

// rewriteRef prefixes an edge end ("node" or "node.port", split at the
// first ".") that names a node of the fragment; any other end is kept.
func rewriteRef(ref string, ids map[string]bool, prefix string) string {
	node, _, _ := strings.Cut(ref, ".")
	if ids[node] {
		return prefix + ref
	}
	return ref
}

// substitute is step 5 inside config and inputs: strings are substituted,
// arrays and objects walked (keys are not substituted), anything else kept.
func substitute(v any, params *jsvalue.Object) any {
	switch t := v.(type) {
	case string:
		if name, ok := wholeToken(t); ok {
			if p, ok := params.Get(name); ok {
				return p
			}
			return ""
		}
		return substituteEmbedded(t, params)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = substitute(e, params)
		}
		return out
	case *jsvalue.Object:
		out := &jsvalue.Object{Members: make([]jsvalue.Member, len(t.Members))}
		for i, m := range t.Members {
			out.Members[i] = mem(m.Key, substitute(m.Value, params))
		}
		return out
	}
	return v
}

const tokenOpen = "{{params."

// wholeToken reports whether s is exactly one `{{params.<name>}}` token, and
// its name.
func wholeToken(s string) (string, bool) {
	if !strings.HasPrefix(s, tokenOpen) {
		return "", false
	}
	n := nameLen(s[len(tokenOpen):])
	if n == 0 || len(s) != len(tokenOpen)+n+2 || !strings.HasSuffix(s, "}}") {
		return "", false
	}
	return s[len(tokenOpen) : len(tokenOpen)+n], true
}

// nameLen is the length of the parameter name ([a-zA-Z_][a-zA-Z0-9_]*) at
// the start of s, 0 when there is none.
func nameLen(s string) int {
	i := 0
	for i < len(s) {
		c := s[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			break
		}
		i++
	}
	return i
}

// substituteEmbedded replaces each token in s, left to right and without
// overlap, by its parameter's JavaScript String form ("" when missing), in
// one pass: what a value brings in is not looked at again, and "$" in it
// is literal.
func substituteEmbedded(s string, params *jsvalue.Object) string {
	i := strings.Index(s, tokenOpen)
	if i < 0 {
		return s
	}
	var sb strings.Builder
	for i >= 0 {
		rest := s[i+len(tokenOpen):]
		n := nameLen(rest)
		if n == 0 || !strings.HasPrefix(rest[n:], "}}") {
			// Not a token here: look again one byte on (a token may start
			// inside this one, as in "{{{{params.a}}").
			j := strings.Index(s[i+1:], tokenOpen)
			if j < 0 {
				break
			}
			sb.WriteString(s[:i+1+j])
			s = s[i+1+j:]
			i = 0
			continue
		}
		sb.WriteString(s[:i])
		if p, ok := params.Get(rest[:n]); ok {
			sb.WriteString(jsvalue.JSString(p))
		}
		s = rest[n+2:]
		i = strings.Index(s, tokenOpen)
	}
	sb.WriteString(s)
	return sb.String()
}
