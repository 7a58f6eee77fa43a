// The keywords that constrain a value itself: type, enum and const, the bounds, pattern, format and multipleOf, the dialect and the annotations.

package semdiff

import (
	"fmt"
	"slices"
	"strings"
)

// lower and upper bounds: raising a lower bound or lowering an upper one
// accepts less.
var lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}

var upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}

// wording reports changed annotations (one finding per keyword).
func (c *schemaCmp) wording(n node, om, nm map[string]any) {
	for _, kw := range unionKeys(om, nm) {
		if (!annotations[kw] && !strings.HasPrefix(kw, "x-")) || kw == "$defs" || kw == "definitions" {
			continue
		}
		if c.canon(om[kw]) != c.canon(nm[kw]) {
			c.emit(wording, n, kw, kw+" changed")
		}
	}
}

// draft2020 is the dialect a schema without $schema is read in.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// dialect compares $schema: another dialect may read the same keywords
// otherwise (items as a tuple, $ref beside other keywords).
func (c *schemaCmp) dialect(n node, om, nm map[string]any) {
	ov, oHas := om["$schema"]
	nv, nHas := nm["$schema"]
	if !oHas && !nHas {
		return
	}
	norm := func(v any, has bool) string {
		s, _ := v.(string)
		s = strings.TrimSuffix(s, "#")
		if !has || s == draft2020 {
			return draft2020
		}
		return s
	}
	if os, ns := norm(ov, oHas), norm(nv, nHas); os != ns {
		c.emit(unknown, n, "$schema", fmt.Sprintf("the dialect ($schema) changed from %s to %s: its keywords may mean something else", os, ns))
	} else if c.canon(ov) != c.canon(nv) {
		c.emit(wording, n, "$schema", "$schema changed")
	}
}

// constraint compares a keyword read as an opaque constraint: added
// accepts less, removed more, changed could not be proved.
func (c *schemaCmp) constraint(n node, om, nm map[string]any, kw string) {
	ov, oHas := om[kw]
	nv, nHas := nm[kw]
	switch {
	case !oHas && nHas:
		c.emit(less, n, kw, fmt.Sprintf("%s %s was added", kw, short(nv)))
	case oHas && !nHas:
		c.emit(more, n, kw, fmt.Sprintf("%s %s was removed", kw, short(ov)))
	case oHas && c.canon(ov) != c.canon(nv):
		c.emit(unknown, n, kw, fmt.Sprintf("%s changed from %s to %s", kw, short(ov), short(nv)))
	}
}

// types compares "type" as sets (absent: every type; integer is a number).
func (c *schemaCmp) types(n node, om, nm map[string]any) {
	ot, nt := typeSet(om["type"]), typeSet(nm["type"])
	if ot == nil && nt == nil {
		return
	}
	gained, lost := setDiff(nt, ot), setDiff(ot, nt)
	if ot == nil {
		c.emit(less, n, "type", "the value must now be "+strings.Join(sorted(nt), " or "))
		return
	}
	if nt == nil {
		c.emit(more, n, "type", "the value may now be of any type")
		return
	}
	if len(lost) > 0 {
		c.emit(less, n, "type", "a value of type "+strings.Join(lost, " or ")+" is no longer accepted")
	}
	if len(gained) > 0 {
		c.emit(more, n, "type", "a value of type "+strings.Join(gained, " or ")+" is now accepted")
	}
}

func typeSet(v any) map[string]bool {
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
	default:
		return nil
	}
	s := map[string]bool{}
	for _, x := range names {
		s[x] = true
	}
	if s["number"] {
		s["integer"] = true
	}
	return s
}

// enums compares enum and const as sets of values (absent: any value).
func (c *schemaCmp) enums(n node, om, nm map[string]any) {
	for _, kw := range []string{"enum", "const"} {
		oe, oHas := c.valueSet(om, kw)
		ne, nHas := c.valueSet(nm, kw)
		switch {
		case !oHas && !nHas:
		case !oHas:
			c.emit(less, n, kw, "the value must now be one of "+strings.Join(sorted(ne), ", "))
		case !nHas:
			c.emit(more, n, kw, "the value is no longer limited to "+strings.Join(sorted(oe), ", "))
		default:
			if lost := setDiff(oe, ne); len(lost) > 0 {
				c.emit(less, n, kw, "no longer accepted: "+strings.Join(lost, ", "))
			}
			if gained := setDiff(ne, oe); len(gained) > 0 {
				c.emit(more, n, kw, "new value "+strings.Join(gained, ", "))
			}
		}
	}
}

func (c *schemaCmp) valueSet(m map[string]any, kw string) (map[string]bool, bool) {
	v, ok := m[kw]
	if !ok {
		return nil, false
	}
	s := map[string]bool{}
	if kw == "const" {
		s[c.canon(v)] = true
		return s, true
	}
	list, _ := v.([]any)
	for _, x := range list {
		s[c.canon(x)] = true
	}
	return s, true
}

// bounds compares minimum/maximum and their kin.
func (c *schemaCmp) bounds(n node, om, nm map[string]any) {
	for _, kw := range append(slices.Clone(lowerBounds), upperBounds...) {
		ov, oHas := om[kw]
		nv, nHas := nm[kw]
		of, oNum := ov.(float64)
		nf, nNum := nv.(float64)
		upper := slices.Contains(upperBounds, kw)
		switch {
		case !oHas && !nHas:
		case oHas && !oNum, nHas && !nNum:
			if c.canon(ov) != c.canon(nv) {
				c.emit(unknown, n, kw, fmt.Sprintf("%s changed from %s to %s", kw, short(ov), short(nv)))
			}
		case oHas && nHas && of == nf:
		case !oHas:
			c.emit(less, n, kw, fmt.Sprintf("%s %v was added", kw, nf))
		case !nHas:
			c.emit(more, n, kw, fmt.Sprintf("%s %v was removed", kw, of))
		case (nf > of) != upper:
			c.emit(less, n, kw, fmt.Sprintf("%s went from %v to %v", kw, of, nf))
		default:
			c.emit(more, n, kw, fmt.Sprintf("%s went from %v to %v", kw, of, nf))
		}
	}
}
