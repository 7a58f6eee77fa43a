// The keywords that constrain a value itself: type, enum and const, the bounds, pattern, format and multipleOf, the dialect and the annotations.

package semdiff

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/openwop/wopkit/third_party/semver"
)

// wording reports changed annotations (one finding per keyword).
func (c *schemaCmp) wording(n node, om, nm map[string]any) {
	for _, kw := range unionKeys(om, nm) {
		if (!annotations[kw] && !strings.HasPrefix(kw, "x-")) || kw == "$defs" || kw == "definitions" {
			continue
		}
		if c.canon(om[kw]) != c.canon(nm[kw]) && (kw != "$id" || !c.d.followsVersion(om[kw], nm[kw])) {
			c.emit(wording, n, kw, kw+" changed")
		}
	}
}

// idBase is where the registry serves a pack's schemas (OW013): a schema
// the pack owns has the $id idBase<name>/<version>/<file>.
const idBase = "https://packs.openwop.dev/"

// followsVersion reports whether the $id o became n only by following the
// pack's version, as `wopkit bump` rewrites the $ids a pack owns (a stale
// one of an earlier version too): both under the pack's own name with a
// version segment and the same file, the new segment the new version. No
// consumer meets it (references by $id are followed either way).
func (d *differ) followsVersion(o, n any) bool {
	own := func(v any, name string) (version, rest string, ok bool) {
		s, _ := v.(string)
		tail, found := strings.CutPrefix(s, idBase+name+"/")
		if !found || name == "" {
			return "", "", false
		}
		version, rest, found = strings.Cut(tail, "/")
		if _, err := semver.StrictNewVersion(version); err != nil || !found || rest == "" {
			return "", "", false
		}
		return version, rest, true
	}
	ov, orest, ok1 := own(o, d.old.Name)
	nv, nrest, ok2 := own(n, d.new.Name)
	return ok1 && ok2 && d.old.Name == d.new.Name && orest == nrest && ov != nv && nv == d.new.Version
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

// enums compares enum and const together, as the set of values they
// admit (absent: any value; both: the values in both): `const: 1` and
// `enum: [1]` are the same, and `const: 1` → `enum: [1, 2]` accepts more.
func (c *schemaCmp) enums(n node, om, nm map[string]any) {
	oe, oHas := c.valueSet(om)
	ne, nHas := c.valueSet(nm)
	// The finding points at the new side's keyword (the old one's when
	// the new has neither), enum before const.
	kw := "const"
	_, oEnum := om["enum"]
	if _, nEnum := nm["enum"]; nEnum || !nHas && oEnum {
		kw = "enum"
	}
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

// valueSet is the set of values (canonical JSON) enum and const of m
// admit together, and whether either is there.
func (c *schemaCmp) valueSet(m map[string]any) (map[string]bool, bool) {
	cv, hasConst := m["const"]
	ev, hasEnum := m["enum"]
	if !hasConst && !hasEnum {
		return nil, false
	}
	s := map[string]bool{}
	if hasEnum {
		list, _ := ev.([]any)
		for _, x := range list {
			s[c.canon(x)] = true
		}
	}
	if hasConst {
		k := c.canon(cv)
		if !hasEnum || s[k] {
			s = map[string]bool{k: true}
		} else {
			s = map[string]bool{}
		}
	}
	return s, true
}

// bounds compares minimum/maximum and their kin, as exact numbers. A
// number's lower bound is minimum and exclusiveMinimum together (the
// tighter holds), its upper bound maximum and exclusiveMaximum; where the
// side's type admits integers only, a bound is read as the integer it
// allows (exclusiveMinimum 5 is minimum 6), so that rewriting one as the
// other is no change.
func (c *schemaCmp) bounds(n node, om, nm map[string]any) {
	c.bound(n, om, nm, "minimum", "exclusiveMinimum", false)
	c.bound(n, om, nm, "maximum", "exclusiveMaximum", true)
	for _, kw := range []string{"minLength", "minItems", "minProperties", "minContains"} {
		c.bound(n, om, nm, kw, "", false)
	}
	for _, kw := range []string{"maxLength", "maxItems", "maxProperties", "maxContains"} {
		c.bound(n, om, nm, kw, "", true)
	}
}

// limit is one side's bound: the keyword it comes from, its value (nil:
// none) and whether it is exclusive.
type limit struct {
	kw   string
	v    *big.Rat
	excl bool
}

// limitOf is the bound of m given by the keywords incl and excl (excl may
// be ""); ok is false when one of them is not a number.
func limitOf(m map[string]any, incl, excl string, upper bool) (l limit, ok bool) {
	for _, kw := range []string{incl, excl} {
		v, has := m[kw]
		if kw == "" || !has {
			continue
		}
		r, isNum := num(v)
		if !isNum {
			return limit{}, false
		}
		cand := limit{kw, r, kw == excl}
		if l.v == nil || tighter(cand, l, upper) > 0 {
			l = cand
		}
	}
	if ts := typeSet(m["type"]); l.v != nil && excl != "" && ts != nil && !ts["number"] {
		// Integers only: the bound is the integer it allows.
		l.v = integerBound(l.v, l.excl, upper)
		l.excl = false
	}
	return l, true
}

// integerBound is the first integer past the bound v (the last below it
// when upper), inclusive.
func integerBound(v *big.Rat, excl, upper bool) *big.Rat {
	q, m := new(big.Int).DivMod(v.Num(), v.Denom(), new(big.Int)) // q = floor(v)
	exact := m.Sign() == 0
	switch {
	case !upper && (excl || !exact):
		q.Add(q, big.NewInt(1))
	case upper && excl && exact:
		q.Sub(q, big.NewInt(1))
	}
	return new(big.Rat).SetInt(q)
}

// tighter is 1 when the bound a admits fewer values than b, -1 when more,
// 0 when as many (no bound admits the most).
func tighter(a, b limit, upper bool) int {
	switch {
	case a.v == nil && b.v == nil:
		return 0
	case a.v == nil:
		return -1
	case b.v == nil:
		return 1
	}
	c := a.v.Cmp(b.v)
	if upper {
		c = -c
	}
	if c == 0 && a.excl != b.excl {
		c = map[bool]int{true: 1, false: -1}[a.excl]
	}
	return c
}

// num is v as an exact number (a float64, or a json.Number of a number
// float64 cannot hold).
func num(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(x) == nil {
			return nil, false
		}
		return r, true
	case json.Number:
		return new(big.Rat).SetString(string(x))
	}
	return nil, false
}

// bound compares the bound given by incl and excl.
func (c *schemaCmp) bound(n node, om, nm map[string]any, incl, excl string, upper bool) {
	ol, ook := limitOf(om, incl, excl, upper)
	nl, nok := limitOf(nm, incl, excl, upper)
	if !ook || !nok {
		for _, kw := range []string{incl, excl} {
			if ov, nv := om[kw], nm[kw]; kw != "" && c.canon(ov) != c.canon(nv) {
				c.emit(unknown, n, kw, fmt.Sprintf("%s changed from %s to %s", kw, short(ov), short(nv)))
			}
		}
		return
	}
	w := map[int]way{1: less, -1: more}[tighter(nl, ol, upper)]
	if w == 0 {
		return
	}
	switch {
	case ol.v == nil:
		c.emit(w, n, nl.kw, fmt.Sprintf("%s %s was added", nl.kw, short(nm[nl.kw])))
	case nl.v == nil:
		c.emit(w, n, ol.kw, fmt.Sprintf("%s %s was removed", ol.kw, short(om[ol.kw])))
	case ol.kw == nl.kw:
		c.emit(w, n, nl.kw, fmt.Sprintf("%s went from %s to %s", nl.kw, short(om[nl.kw]), short(nm[nl.kw])))
	default:
		c.emit(w, n, nl.kw, fmt.Sprintf("the %s bound went from %s %s to %s %s", map[bool]string{false: "lower", true: "upper"}[upper], ol.kw, short(om[ol.kw]), nl.kw, short(nm[nl.kw])))
	}
}
