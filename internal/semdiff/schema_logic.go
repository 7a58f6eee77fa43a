// The keywords that combine schemas: not, allOf, anyOf, oneOf, if/then/else.

package semdiff

import (
	"fmt"
	"strings"
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
	case !c.same(o.at("if").with(oi), n.at("if").with(ni), false) && !c.equivalent(o.at("if").with(oi), n.at("if").with(ni), nil, nil):
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

// allOfDiffers reports whether the allOf of om and nm differ: in length,
// or in a schema at the same index (references followed).
func (c *schemaCmp) allOfDiffers(o, n node, om, nm map[string]any) bool {
	ol, _ := om["allOf"].([]any)
	nl, _ := nm["allOf"].([]any)
	if len(ol) != len(nl) {
		return true
	}
	for i := range ol {
		if !c.same(o.at("allOf", itoa(i)).with(ol[i]), n.at("allOf", itoa(i)).with(nl[i]), false) {
			return true
		}
	}
	return false
}

// hasUnevaluated reports whether m holds unevaluatedProperties or
// unevaluatedItems (which read what allOf's schemas evaluate).
func hasUnevaluated(m map[string]any) bool {
	_, p := m["unevaluatedProperties"]
	_, i := m["unevaluatedItems"]
	return p || i
}

// inlined is m with its allOf merged into it where that means the same
// schema (keywords calls it when the two sides' allOf differ: two sides
// whose allOf holds the same schemas compare them pair by pair): `{allOf: [A, B]}` and A's and
// B's keywords written in the object itself are one schema, so inlining an
// allOf (nested ones too), or splitting an object into one, is no change.
// An allOf is inlined only when no keyword is met twice, none reads a
// keyword that comes from another of the schemas (additionalProperties
// reads properties, items prefixItems, then if…), and none holds a
// reference, a resource or unevaluated*; its findings then point at the
// object.
func inlined(m map[string]any) map[string]any {
	list, ok := m["allOf"].([]any)
	if !ok {
		return m
	}
	out := make(map[string]any, len(m)+len(list))
	from := map[string]int{}
	for k, v := range m {
		if k != "allOf" {
			out[k], from[k] = v, -1
		}
	}
	next := 0
	if !mergeAll(out, from, list, &next) {
		return m
	}
	for k := range out {
		for _, dep := range readsOthers[k] {
			if src, ok := from[dep]; ok && src != from[k] {
				return m
			}
		}
	}
	return out
}

// readsOthers are the keywords whose meaning depends on other keywords of
// their object.
var readsOthers = map[string][]string{
	"additionalProperties": {"properties", "patternProperties"}, "items": {"prefixItems"},
	"additionalItems": {"items"}, "then": {"if"}, "else": {"if"}, "minContains": {"contains"}, "maxContains": {"contains"},
}

// mergeAll merges the schemas of list (and of their own allOf) into out,
// each numbered in from; false when one cannot be.
func mergeAll(out map[string]any, from map[string]int, list []any, next *int) bool {
	for _, e := range list {
		em, ok := e.(map[string]any)
		if !ok {
			if e == true {
				continue
			}
			return false
		}
		src := *next
		*next++
		for k, v := range em {
			switch k {
			case "$ref", "$dynamicRef", "$recursiveRef", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$schema",
				"$defs", "definitions", "unevaluatedProperties", "unevaluatedItems":
				return false
			case "allOf":
				sub, ok := v.([]any)
				if !ok || !mergeAll(out, from, sub, next) {
					return false
				}
				continue
			}
			if _, dup := out[k]; dup {
				if annotations[k] || strings.HasPrefix(k, "x-") {
					continue
				}
				return false
			}
			out[k], from[k] = v, src
		}
	}
	return true
}
