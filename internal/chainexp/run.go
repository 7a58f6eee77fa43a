package chainexp

import "github.com/openwop/wopkit/internal/jsvalue"

// Request is one `chain expand`: which chain, with what, how.
type Request struct {
	ChainID     string
	Params      *jsvalue.Object
	ExpansionID string
	Resolvable  func(typeID string) bool
	// Tree expands sub-chains as child workflows (ExpandTree); Tenant and
	// MaxDepth are its.
	Tree     bool
	Tenant   string
	MaxDepth int
	// Siblings, when not nil, are the chainIds a sub-chain reference may
	// name; nil is every chain of the pack.
	Siblings []string
}

// Run expands the request's chain of p as a spec-conformant caller of the
// library does: typeIds resolved (step 3, in the library's order: with Tree,
// a child's before its parent's), the parameters checked against the root
// chain's declaration (step 4), and only then the expansion returned. The
// result is the fragment {nodes, edges, idMap}, or with Tree {parent,
// children}.
func Run(p *Pack, r Request) (*jsvalue.Object, error) {
	ch, err := p.Chain(r.ChainID)
	if err != nil {
		return nil, err
	}
	var out *jsvalue.Object
	if !r.Tree {
		f, err := Expand(ch, Options{ExpansionID: r.ExpansionID, Params: r.Params, Resolvable: r.Resolvable})
		if err != nil {
			return nil, err
		}
		out = f.Value()
	} else {
		sibs := p.Siblings()
		if r.Siblings != nil {
			only := map[string]*Chain{}
			for _, id := range r.Siblings {
				if c := sibs[id]; c != nil {
					only[id] = c
				}
			}
			sibs = only
		}
		t, err := ExpandTree(ch, TreeOptions{ExpansionID: r.ExpansionID, Tenant: r.Tenant, Params: r.Params,
			Resolvable: r.Resolvable, Siblings: sibs, MaxDepth: r.MaxDepth})
		if err != nil {
			return nil, err
		}
		out = t.Value()
	}
	// Substitution is pure: the expansion above is only returned once the
	// parameters pass, so nothing expanded with invalid parameters leaves.
	if err := CheckParams(ch, r.Params); err != nil {
		return nil, err
	}
	return out, nil
}
