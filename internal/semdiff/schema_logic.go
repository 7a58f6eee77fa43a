// The keywords that combine schemas: not, allOf, anyOf, oneOf, if/then/else.

package semdiff

import (
	"fmt"
)

// not compares `not`: what accepts more inside accepts less outside.
func (c *schemaCmp) not(o, n node, om, nm map[string]any) {
	ov, oHas := om["not"]
	nv, nHas := nm["not"]
	switch {
	case oHas && nHas:
		saved := c.x
		c.x = c.x.inner(negated)
		c.cmp(o.at("not").with(ov), n.at("not").with(nv))
		c.x = saved
	case nHas:
		c.emit(less, n, "not", "the schema they must not match was added")
	case oHas:
		c.emit(more, n, "not", "the schema they must not match was removed")
	}
}

// lists compares allOf, anyOf and oneOf: the schemas that are the same on
// both sides (references followed) are set aside, the others compared
// pairwise when as many remain on each side, otherwise by which were added
// or removed.
func (c *schemaCmp) lists(o, n node, om, nm map[string]any) {
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		ol, _ := om[kw].([]any)
		nl, _ := nm[kw].([]any)
		if len(ol) == 0 && len(nl) == 0 {
			continue
		}
		used := make([]bool, len(ol))
		var added, removed []int
		for j := range nl {
			found := false
			for i := range ol {
				if !used[i] && c.same(o.at(kw, fmt.Sprint(i)).with(ol[i]), n.at(kw, fmt.Sprint(j)).with(nl[j]), false) {
					used[i], found = true, true
					break
				}
			}
			if !found {
				added = append(added, j)
			}
		}
		for i := range ol {
			if !used[i] {
				removed = append(removed, i)
			}
		}
		if len(added) == 0 && len(removed) == 0 {
			continue
		}
		if len(added) == len(removed) {
			saved := c.x
			if kw == "oneOf" {
				c.x = c.x.inner(oneOfBranch)
				c.oneOf++
			}
			for k := range added {
				i, j := removed[k], added[k]
				c.cmp(o.at(kw, fmt.Sprint(i)).with(ol[i]), n.at(kw, fmt.Sprint(j)).with(nl[j]))
			}
			if kw == "oneOf" {
				c.x = saved
				c.oneOf--
			}
			continue
		}
		// Adding a schema to allOf accepts less, to anyOf more; but an
		// anyOf that appears (or disappears) as a whole is a constraint
		// added (or removed).
		grow, shrink := less, more
		if kw == "anyOf" && len(ol) > 0 && len(nl) > 0 {
			grow, shrink = more, less
		}
		switch {
		case kw == "oneOf" && len(ol) > 0 && len(nl) > 0, len(added) > 0 && len(removed) > 0:
			c.emit(unknown, n, kw, fmt.Sprintf("%s went from %d to %d schemas", kw, len(ol), len(nl)))
		case len(added) > 0:
			c.emit(grow, n.at(kw), fmt.Sprint(added[0]), fmt.Sprintf("%s gained %d schema(s) (%s)", kw, len(added), listWords(kw)))
		default:
			c.emit(shrink, n, kw, fmt.Sprintf("%s lost %d schema(s) (%s)", kw, len(removed), listWords(kw)))
		}
	}
}

func listWords(kw string) string {
	switch kw {
	case "allOf":
		return "every value must match all of them"
	case "oneOf":
		return "a value must match exactly one of them"
	}
	return "a value must match one of them"
}

// conditional compares if/then/else: with the same "if" (references
// followed), then and else compare as schemas; a condition added accepts
// less.
func (c *schemaCmp) conditional(o, n node, om, nm map[string]any) {
	oi, oHas := om["if"]
	ni, nHas := nm["if"]
	switch {
	case !oHas && !nHas:
	case !oHas:
		c.emit(less, n, "if", "a condition (if/then/else) was added")
	case !nHas:
		c.emit(more, n, "if", "a condition (if/then/else) was removed")
	case !c.same(o.at("if").with(oi), n.at("if").with(ni), false):
		c.emit(unknown, n, "if", "the condition (if) changed")
	default:
		for _, kw := range []string{"then", "else"} {
			ov, nv := om[kw], nm[kw]
			if ov == nil && nv == nil {
				continue
			}
			c.cmp(o.at(kw).with(ov), n.at(kw).with(nv))
		}
	}
}
