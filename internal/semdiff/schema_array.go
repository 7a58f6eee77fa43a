// The keywords of arrays: prefixItems, items, additionalItems, contains.

package semdiff

import (
	"fmt"
)

// tuple is how a schema constrains array items: the schemas of the first
// items (prefixItems, or draft-07's items array) and the schema of the
// rest (items, or draft-07's additionalItems).
type tuple struct {
	prefix    []any
	prefixKw  string
	rest      any
	restKw    string
	restGiven bool
}

func tupleOf(m map[string]any) tuple {
	if pi, ok := m["prefixItems"].([]any); ok {
		rest, has := m["items"]
		return tuple{pi, "prefixItems", rest, "items", has}
	}
	if it, ok := m["items"].([]any); ok {
		rest, has := m["additionalItems"]
		return tuple{it, "items", rest, "additionalItems", has}
	}
	rest, has := m["items"]
	return tuple{nil, "prefixItems", rest, "items", has}
}

// elem is the schema of item i on the side at x.
func (t tuple) elem(x node, i int) node {
	if i < len(t.prefix) {
		return x.at(t.prefixKw, fmt.Sprint(i)).with(t.prefix[i])
	}
	return x.at(t.restKw).with(t.rest)
}

// arrays compares the items' schemas, item by item where a tuple is
// given on either side.
func (c *schemaCmp) arrays(o, n node, om, nm map[string]any) {
	ot, nt := tupleOf(om), tupleOf(nm)
	for i := range max(len(ot.prefix), len(nt.prefix)) {
		c.cmp(ot.elem(o, i), nt.elem(n, i))
	}
	words := "the items' schema"
	if nt.restKw == "additionalItems" || ot.restKw == "additionalItems" {
		words = "the schema of the items after the tuple"
	}
	switch {
	case ot.restGiven && nt.restGiven:
		c.cmp(o.at(ot.restKw).with(ot.rest), n.at(nt.restKw).with(nt.rest))
	case nt.restGiven && !free(nt.rest):
		c.emit(less, n, nt.restKw, words+" was added")
	case ot.restGiven && !free(ot.rest):
		c.emit(more, n, ot.restKw, words+" was removed")
	}
}

// contains compares contains: some item (minContains of them) must match
// it, so a contains accepting more accepts more arrays; with maxContains
// (at most so many may match) it cannot be proved either way.
func (c *schemaCmp) contains(o, n node, om, nm map[string]any) {
	ov, oHas := om["contains"]
	nv, nHas := nm["contains"]
	_, oMax := om["maxContains"]
	_, nMax := nm["maxContains"]
	oc, nc := o.at("contains").with(ov), n.at("contains").with(nv)
	switch {
	case !oHas && !nHas:
	case oHas && nHas && (oMax || nMax):
		if !c.same(oc, nc, false) {
			c.emit(unknown, n, "contains", "the schema some items must match (contains) changed, and maxContains bounds how many may")
		}
	case oHas && nHas:
		c.cmp(oc, nc)
	case nHas:
		c.emit(less, n, "contains", "a schema some item must match (contains) was added")
	default:
		c.emit(more, n, "contains", "the schema some item had to match (contains) was removed")
	}
}
