package chainexp

import (
	"strings"

	"github.com/openwop/wopkit/internal/jsvalue"
)

// TreeOptions are the context of a tree expansion (RFC 0133 §1.3; the
// library's CoExpansionContext).
type TreeOptions struct {
	// ExpansionID tags the root's node ids; a child's expansion id is
	// <ExpansionID>_<child chainId with "." as "_">.
	ExpansionID string
	// Tenant scopes the child workflow ids.
	Tenant     string
	Params     *jsvalue.Object
	Resolvable func(typeID string) bool
	// Siblings are the chains a subChainRef may name, by chainId.
	Siblings map[string]*Chain
	// MaxDepth bounds the nesting (the root is at depth 0); 0 is
	// DefaultMaxDepth.
	MaxDepth int
}

// Child is a sub-chain co-registered as a workflow of its own.
type Child struct {
	WorkflowID string
	ChainID    string
	Fragment   *Fragment
}

// Tree is a chain expanded with its sub-chains: the parent fragment, whose
// subChainRef nodes now name their child's workflowId, and each child once.
type Tree struct {
	Parent   *Fragment
	Children []Child
}

// Value is the tree as the library returns it: {parent, children[]}.
func (t *Tree) Value() *jsvalue.Object {
	children := make([]any, len(t.Children))
	for i, c := range t.Children {
		children[i] = &jsvalue.Object{Members: []jsvalue.Member{
			mem("childWorkflowId", c.WorkflowID), mem("chainId", c.ChainID), mem("fragment", c.Fragment.Value()),
		}}
	}
	return &jsvalue.Object{Members: []jsvalue.Member{mem("parent", t.Parent.Value()), mem("children", children)}}
}

// ExpandTree is the library's expandChainTree: the root and, depth first,
// every sub-chain a node's config.subChainRef names (which subChains[] must
// declare and the siblings hold), each child registered once under a
// workflow id minted from the tenant, its chainId and its version. A
// composition cycle is refused with sub_chain_cycle, nesting deeper than
// MaxDepth with sub_chain_max_depth_exceeded.
func ExpandTree(root *Chain, opts TreeOptions) (*Tree, error) {
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	x := &treeExpander{opts: opts, maxDepth: maxDepth, root: root, onStack: map[string]bool{}, seen: map[string]bool{}}
	parent, err := x.expand(root, 0)
	if err != nil {
		return nil, err
	}
	return &Tree{Parent: parent, Children: x.children}, nil
}

type treeExpander struct {
	opts     TreeOptions
	maxDepth int
	root     *Chain
	onStack  map[string]bool
	seen     map[string]bool // child workflow ids registered
	children []Child
}

func (x *treeExpander) expand(ch *Chain, depth int) (*Fragment, error) {
	if depth > x.maxDepth {
		return nil, refusal(CodeSubChainDepth, details("chainId", ch.ID, "maxDepth", float64(x.maxDepth), "httpStatus", float64(400)),
			"nest sub-chains less deeply, or raise the bound with --max-depth (a host advertises its own)",
			"sub_chain_max_depth_exceeded: chain '%s' exceeds maxSubChainDepth %d", ch.ID, x.maxDepth)
	}
	if x.onStack[ch.ID] {
		return nil, refusal(CodeSubChainCycle, details("chainId", ch.ID, "detail", "chain transitively composes itself", "httpStatus", float64(400)),
			"a chain must not compose itself, directly or through its sub-chains",
			"sub_chain_cycle: chain '%s' — chain transitively composes itself", ch.ID)
	}
	x.onStack[ch.ID] = true
	declared := make(map[string]bool, len(ch.SubChains))
	for _, s := range ch.SubChains {
		declared[s] = true
	}
	for _, ref := range subChainRefs(ch) {
		sib := x.opts.Siblings[ref]
		if !declared[ref] || sib == nil {
			return nil, refusal(CodeSubChainUnresolved, details("ref", ref, "chainId", ch.ID, "httpStatus", float64(400)),
				"a node's config.subChainRef must name a chain that subChains[] declares and the same pack holds",
				"sub_chain_unresolved: '%s' referenced from chain '%s'", ref, ch.ID)
		}
		id := MintChildWorkflowID(x.opts.Tenant, ref, sib.Version)
		if !x.seen[id] {
			frag, err := x.expand(sib, depth+1)
			if err != nil {
				return nil, err
			}
			x.seen[id] = true
			x.children = append(x.children, Child{WorkflowID: id, ChainID: ref, Fragment: frag})
		}
	}
	expansionID := x.opts.ExpansionID
	if ch.ID != x.root.ID {
		expansionID += "_" + strings.ReplaceAll(ch.ID, ".", "_")
	}
	f, err := Expand(ch, Options{ExpansionID: expansionID, Params: x.opts.Params, Resolvable: x.opts.Resolvable})
	if err != nil {
		return nil, err
	}
	for i, n := range f.Nodes {
		cv, _ := n.Get("config")
		cfg, ok := cv.(*jsvalue.Object)
		if !ok {
			continue
		}
		rv, _ := cfg.Get("subChainRef")
		ref, ok := rv.(string)
		if !ok {
			continue
		}
		version := "0.0.0"
		if sib := x.opts.Siblings[ref]; sib != nil {
			version = sib.Version
		}
		rest := &jsvalue.Object{Members: make([]jsvalue.Member, 0, len(cfg.Members))}
		for _, m := range cfg.Members {
			if m.Key != "subChainRef" {
				rest.Members = append(rest.Members, m)
			}
		}
		rest.Set("workflowId", MintChildWorkflowID(x.opts.Tenant, ref, version))
		node := &jsvalue.Object{Members: append([]jsvalue.Member(nil), n.Members...)}
		node.Set("config", rest)
		f.Nodes[i] = node
	}
	delete(x.onStack, ch.ID)
	return f, nil
}

// subChainRefs are the distinct string config.subChainRef of the chain's
// nodes as written, in node order.
func subChainRefs(ch *Chain) []string {
	var refs []string
	for _, n := range ch.Nodes {
		cv, _ := n.Get("config")
		cfg, ok := cv.(*jsvalue.Object)
		if !ok {
			continue
		}
		rv, _ := cfg.Get("subChainRef")
		if r, ok := rv.(string); ok && !contains(refs, r) {
			refs = append(refs, r)
		}
	}
	return refs
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// MintChildWorkflowID is the deterministic, tenant-scoped id of a child
// workflow: wfc_<tenant>__<chainId>__<version>, each slugged (a character
// outside [0-9A-Za-z._-] becomes "_", one per UTF-16 unit as in
// JavaScript, then "." becomes "_").
func MintChildWorkflowID(tenant, chainID, version string) string {
	return "wfc_" + slug(tenant) + "__" + slug(chainID) + "__" + slug(version)
}

func slug(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r == '-':
			sb.WriteRune(r)
		default:
			sb.WriteString(strings.Repeat("_", jsvalue.UTF16Len(r)))
		}
	}
	return sb.String()
}
