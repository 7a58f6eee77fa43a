// $ref and $dynamicRef: following references on either side of a pair.

package semdiff

import (
	"fmt"
)

// refs follows $ref on either side and reports whether it has compared
// the pair.
func (c *schemaCmp) refs(o, n node, om, nm map[string]any) bool {
	oref, oHas := om["$ref"].(string)
	nref, nHas := nm["$ref"].(string)
	if !oHas && !nHas {
		return false
	}
	if oHas && c.d.refLoops(o) || nHas && c.d.refLoops(n) {
		c.emit(unknown, n, "$ref", "a $ref leads back to itself before any keyword reads the value: no value can be validated")
		return true
	}
	var ot, nt node
	var or, nr reach
	if oHas {
		ot, or = c.d.resolve(o, oref)
	}
	if nHas {
		nt, nr = c.d.resolve(n, nref)
	}
	switch {
	case oHas && nHas && or == inPack && nr == inPack:
		c.cmp(ot, nt)
	case oHas && nHas && or == outside && nr == outside && ot.ptr == nt.ptr:
		// The same document outside the pack, by its absolute URL.
	case oHas && nHas && (or == outside || nr == outside) && or != unresolved && nr != unresolved:
		c.emit(unknown, n, "$ref", fmt.Sprintf("the reference %q became %q, and one of them is not in the pack", oref, nref))
	case oHas && nHas:
		c.emit(unknown, n, "$ref", unresolvedWords(oref, or, nref, nr))
	case oHas && or == inPack && constraintFree(without(om, "$ref")):
		c.cmp(ot, n)
		return true
	case nHas && nr == inPack && constraintFree(without(nm, "$ref")):
		c.cmp(o, nt)
		return true
	case oHas && or == unresolved, nHas && nr == unresolved:
		c.emit(unknown, n, "$ref", unresolvedWords(oref, or, nref, nr))
		return true
	default:
		c.emit(unknown, n, "$ref", "a $ref was added or removed beside other constraints")
		return true
	}
	c.keywords(o, n, without(om, "$ref"), without(nm, "$ref"))
	return true
}

// refLoops reports whether following $ref from x (and from each target's
// own $ref) comes back to a place already passed: a validator never gets
// to read the value.
func (d *differ) refLoops(x node) bool {
	seen := map[loc]bool{x.place(): true}
	for range 64 {
		m, _ := x.v.(map[string]any)
		ref, ok := m["$ref"].(string)
		if !ok {
			return false
		}
		t, r := d.resolve(x, ref)
		if r != inPack {
			return false
		}
		if seen[t.place()] {
			return true
		}
		seen[t.place()] = true
		x = t
	}
	return true
}

func unresolvedWords(oref string, or reach, nref string, nr reach) string {
	bad := nref
	if or == unresolved {
		bad = oref
	}
	return fmt.Sprintf("the reference %q leads to nothing the pack holds (a file, $id, $anchor or JSON pointer)", bad)
}

func without(m map[string]any, k string) map[string]any {
	out := make(map[string]any, len(m))
	for kk, v := range m {
		if kk != k {
			out[kk] = v
		}
	}
	return out
}

// dynamicRef compares $dynamicRef (kw; or draft 2019-09's $recursiveRef):
// it leads where $ref would unless its target holds a $dynamicAnchor (a
// $recursiveAnchor true), whose meaning depends on where the validation
// started (could not prove).
func (c *schemaCmp) dynamicRef(o, n node, om, nm map[string]any, kw string) {
	oref, oHas := om[kw].(string)
	nref, nHas := nm[kw].(string)
	if !oHas && !nHas {
		return
	}
	if oHas && nHas {
		ot, or := c.d.resolve(o, oref)
		nt, nr := c.d.resolve(n, nref)
		switch {
		case or == inPack && nr == inPack && !dynamic(ot) && !dynamic(nt):
			c.cmp(ot, nt)
			return
		case or == outside && nr == outside && ot.ptr == nt.ptr:
			return
		}
	}
	c.emit(unknown, n, kw, "a "+kw+" changed, or what it reaches did, and where it leads depends on where validation started")
}

// dynamic reports whether the schema at x is a dynamic target: it holds a
// $dynamicAnchor, or a $recursiveAnchor true.
func dynamic(x node) bool {
	m, _ := x.v.(map[string]any)
	_, ok := m["$dynamicAnchor"]
	return ok || m["$recursiveAnchor"] == true
}
