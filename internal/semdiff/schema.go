package semdiff

import (
	"encoding/json"
	"fmt"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Role is how consumers use what a schema describes, which decides whether
// accepting more or less breaks them.
type Role int

// The roles.
const (
	// Input: consumers send it (a node's config and input, an agent's
	// task, a chain's parameters): accepting less breaks them.
	Input Role = iota + 1
	// Output: consumers read it (a node's output, an agent's return):
	// returning more or different breaks them.
	Output
	// Both: consumers write and read it (an artifact type's shape): any
	// change of what is valid breaks someone.
	Both
)

// way is what one schema difference does to the set of valid values: a
// set of the bits below (one bit when found; a context such as a `not` or
// a oneOf branch maps it to what it does to the whole schema).
type way uint8

const (
	more    way = 1 << iota // the new schema accepts more
	less                    // the new schema accepts less
	unknown                 // could not prove either way
	wording                 // an annotation: nothing is accepted differently
	member                  // an optional member added where the old schema left the name open (accepts less, by policy a feature)
	nWays   = 5
)

// xform is what the contexts around a subschema do to a way found in it:
// the set each single bit becomes. It is comparable, so the memo of pairs
// compared can hold it.
type xform [nWays]way

var identity = xform{more, less, unknown, wording, member}

// apply maps the way w (a set) through x.
func (x xform) apply(w way) way {
	var out way
	for i := range nWays {
		if w&(1<<i) != 0 {
			out |= x[i]
		}
	}
	return out
}

// inner is x with the context f inside it: a way found under f is mapped
// by f first, then by x.
func (x xform) inner(f func(way) way) xform {
	var y xform
	for i := range nWays {
		y[i] = x.apply(f(1 << i))
	}
	return y
}

// negated is what `not` does: accepting more inside accepts less outside.
func negated(w way) way {
	switch w {
	case more:
		return less
	case less, member:
		return more
	}
	return w
}

// oneOfBranch is what a change of one oneOf branch does to the oneOf: a
// value that matched two branches is refused, so a branch accepting more
// may refuse a value (could not prove), and one accepting less may accept
// a value that now matches only one branch (less and more).
func oneOfBranch(w way) way {
	switch w {
	case more:
		return unknown
	case less:
		return less | more
	case member:
		return member | more
	}
	return w
}

// node is a schema value at a place: the file it is in and its JSON pointer
// there (a schema reached through $ref moves to the target's place).
type node struct {
	p    *Pack
	file string
	ptr  string
	v    any
}

func (x node) place() loc { return loc{x.file, x.ptr} }

// loc is a place in a pack: a file and a JSON pointer in it.
type loc struct{ file, ptr string }

// pairKey is a pair of places compared under a context.
type pairKey struct {
	o, n int32 // placeID
	x    xform
}

// schemaCmp compares two schemas for one consumer-facing thing.
type schemaCmp struct {
	d    *differ
	what string // "node core.flow.merge config"
	role Role
	seen map[pairKey]bool
	// x is what the contexts around the pair being compared (a `not`, a
	// oneOf branch) do to a difference found in it.
	x xform
	// oneOf counts the oneOf branches being compared (for the words).
	oneOf int
	// old is the old side of the pair being compared: a change found
	// from two paths at the same old place is listed once.
	old node
	// path is the tokens same has walked down from the pair it compares.
	path []string
}

// compareSchemas compares the schemas o and n (nil: no schema, which
// accepts anything) describing what, used in role.
func (d *differ) compareSchemas(what string, role Role, o, n node) {
	if o.v == nil {
		o.v = true
	}
	if n.v == nil {
		n.v = true
	}
	if d.over {
		return
	}
	c := &schemaCmp{d: d, what: what, role: role, seen: map[pairKey]bool{}, x: identity}
	// The whole of both sides the same (every reference followed): nothing
	// changed, whatever the keywords mean.
	if c.sameRoot(o, n) {
		return
	}
	c.cmp(o, n)
	if d.over && !d.overSaid {
		d.overSaid = true
		d.add(Breaking, RuleSchemaUndecided, n.file, n.ptr, "%s: could not prove compatible: the schemas are too large to compare", what)
	}
}

// emit reports one difference found at n, in words of the schema.
func (c *schemaCmp) emit(raw way, at node, kw, words string) {
	if c.d.spend(16) {
		return
	}
	w := c.x.apply(raw)
	ptr := at.ptr
	if kw != "" {
		ptr += "/" + escape(kw)
	}
	lv, rule, verb := c.levelOf(w)
	switch {
	case c.oneOf > 0 && raw&more != 0 && w&unknown != 0:
		words += " (in a oneOf branch: a value may now match two branches and be refused)"
	case c.oneOf > 0 && raw&(less|member) != 0 && w&more != 0 && rule == RuleOutputWidened:
		words += " (in a oneOf branch: a value that matched two branches may now match only this one and be accepted)"
	}
	// A change reached by several paths (one old definition against many
	// new ones, or the other way round) is listed once.
	oldKey := emitKey{c.d.placeID(c.old.p, c.old.place()), true, kw, rule, c.what, words}
	newKey := emitKey{c.d.placeID(at.p, at.place()), false, kw, rule, c.what, words}
	if c.d.emitted[oldKey] || c.d.emitted[newKey] {
		return
	}
	c.d.emitted[oldKey], c.d.emitted[newKey] = true, true
	msg := c.what + " " + verb + ": " + words
	if rule == RuleSchemaUndecided {
		msg = c.what + ": could not prove compatible: " + words
	}
	c.d.add(lv, rule, at.file, ptr, "%s", msg)
}

// emitKey is a change listed, by the old place it was found from or the
// new place it is at.
type emitKey struct {
	place             int32
	old               bool
	kw, rule, what, w string
}

// levelOf is the level, rule and verb of the way w (a set: the most
// serious of its bits).
func (c *schemaCmp) levelOf(w way) (Level, string, string) {
	switch {
	case w&unknown != 0:
		return Breaking, RuleSchemaUndecided, ""
	case w&less != 0 && c.role != Output:
		return Breaking, RuleInputNarrowed, "accepts less"
	case w&more != 0 && c.role != Input:
		return Breaking, RuleOutputWidened, map[bool]string{true: "may return more or different values", false: "accepts more"}[c.role == Output]
	case w&less != 0:
		return Feature, RuleOutputNarrowed, "returns less"
	case w&member != 0:
		return Feature, RuleMemberAdded, "gained an optional member"
	case w&more != 0:
		return Feature, RuleInputWidened, "accepts more"
	}
	return Fix, RuleTextChanged, "wording changed"
}

// annotations change no value's validity. $id, $anchor and $dynamicAnchor
// change where references lead, which the comparison follows.
var annotations = map[string]bool{"title": true, "description": true, "$comment": true, "examples": true, "default": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$id": true, "$anchor": true, "$dynamicAnchor": true,
	"$vocabulary": true, "contentEncoding": true, "contentMediaType": true, "contentSchema": true,
	"$defs": true, "definitions": true, "markdownDescription": true}

// lower and upper bounds: raising a lower bound or lowering an upper one
// accepts less.
var lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
var upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}

// handled are the keywords cmp compares by their meaning (draft 2020-12,
// and draft-07's definitions, dependencies, tuple items and
// additionalItems). Any other keyword is one wopkit does not read: a
// change of it could not be proved compatible.
var handled = map[string]bool{"$ref": true, "$dynamicRef": true, "$schema": true, "type": true, "enum": true, "const": true,
	"required": true, "dependentRequired": true, "properties": true, "patternProperties": true, "additionalProperties": true,
	"propertyNames": true, "items": true, "prefixItems": true, "additionalItems": true, "contains": true, "pattern": true,
	"format": true, "multipleOf": true, "uniqueItems": true, "allOf": true, "anyOf": true, "oneOf": true, "if": true,
	"then": true, "else": true, "not": true, "dependentSchemas": true, "dependencies": true,
	"unevaluatedProperties": true, "unevaluatedItems": true}

func (c *schemaCmp) cmp(o, n node) {
	if c.d.spend(1) {
		return
	}
	key := pairKey{c.d.placeID(o.p, o.place()), c.d.placeID(n.p, n.place()), c.x}
	if c.seen[key] {
		return // compared already, or being compared (a recursive schema)
	}
	c.seen[key] = true
	if c.same(o, n, false) {
		return
	}
	saved := c.old
	c.old = o
	defer func() { c.old = saved }()
	ob, oIsBool := o.v.(bool)
	nb, nIsBool := n.v.(bool)
	om, _ := o.v.(map[string]any)
	nm, _ := n.v.(map[string]any)
	switch {
	case oIsBool && nIsBool:
		if ob != nb {
			c.emit(map[bool]way{true: more, false: less}[nb], n, "", fmt.Sprintf("the schema was %v and is now %v", ob, nb))
		}
		return
	case oIsBool || nIsBool || om == nil || nm == nil:
		c.boolAndObject(o, n)
		return
	}
	if c.refs(o, n, om, nm) {
		return
	}
	c.keywords(o, n, om, nm)
}

// boolAndObject compares a boolean schema with an object schema (or a
// value that is no schema).
func (c *schemaCmp) boolAndObject(o, n node) {
	ob, oIsBool := o.v.(bool)
	nb, nIsBool := n.v.(bool)
	switch {
	case oIsBool && ob && constraintFree(n.v):
	case nIsBool && nb && constraintFree(o.v):
	case oIsBool && ob, nIsBool && !nb:
		c.emit(less, n, "", "constraints were added where any value was accepted")
	case oIsBool && !ob, nIsBool && nb:
		c.emit(more, n, "", "constraints were removed")
	default:
		c.emit(unknown, n, "", "the value is not a schema on one side")
	}
}

// constraintFree reports whether a schema object holds only annotations.
func constraintFree(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		if !annotations[k] && !strings.HasPrefix(k, "x-") {
			return false
		}
	}
	return true
}

// free reports whether v is a schema that accepts anything (absent, true,
// or annotations only).
func free(v any) bool { return v == nil || v == true || constraintFree(v) }

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

// keywords compares two schema objects keyword by keyword: each keyword
// of a schema object constrains the value on its own (all must hold), so
// a keyword that accepts more (or less) makes the object accept more (or
// less); the keywords that read each other (properties,
// patternProperties and additionalProperties; prefixItems and items;
// contains and its bounds; if, then and else) are compared together.
func (c *schemaCmp) keywords(o, n node, om, nm map[string]any) {
	if c.d.spend(len(om) + len(nm)) {
		return
	}
	c.wording(n, om, nm)
	c.dialect(n, om, nm)
	c.types(n, om, nm)
	c.enums(n, om, nm)
	c.required(n, om, nm, "required")
	c.required(n, om, nm, "dependentRequired")
	c.properties(o, n, om, nm)
	c.bounds(n, om, nm)
	c.arrays(o, n, om, nm)
	c.contains(o, n, om, nm)
	c.not(o, n, om, nm)
	c.lists(o, n, om, nm)
	c.conditional(o, n, om, nm)
	c.dependents(o, n, om, nm)
	c.monotone(o, n, om, nm, "propertyNames")
	c.dynamicRef(o, n, om, nm)
	for _, kw := range []string{"unevaluatedProperties", "unevaluatedItems"} {
		if _, oHas := om[kw]; oHas {
			c.emit(unknown, n, kw, kw+" depends on what every other keyword evaluates, and the schema changed")
		} else if _, nHas := nm[kw]; nHas {
			c.emit(unknown, n, kw, kw+" depends on what every other keyword evaluates, and the schema changed")
		}
	}
	for _, kw := range []string{"pattern", "format", "multipleOf"} {
		c.constraint(n, om, nm, kw)
	}
	if ou, nu := om["uniqueItems"] == true, nm["uniqueItems"] == true; ou != nu {
		c.emit(map[bool]way{true: less, false: more}[nu], n, "uniqueItems", map[bool]string{true: "items must now be unique", false: "items need no longer be unique"}[nu])
	}
	for _, kw := range unionKeys(om, nm) {
		if handled[kw] || annotations[kw] || strings.HasPrefix(kw, "x-") || slices.Contains(lowerBounds, kw) || slices.Contains(upperBounds, kw) {
			continue
		}
		ov, oHas := om[kw]
		nv, nHas := nm[kw]
		switch {
		case oHas && nHas && c.canon(ov) == c.canon(nv):
		case !oHas:
			c.emit(unknown, n, kw, fmt.Sprintf("%s %s was added, a keyword wopkit does not read", kw, short(nv)))
		case !nHas:
			c.emit(unknown, n, kw, fmt.Sprintf("%s %s was removed, a keyword wopkit does not read", kw, short(ov)))
		default:
			c.emit(unknown, n, kw, fmt.Sprintf("%s changed from %s to %s, a keyword wopkit does not read", kw, short(ov), short(nv)))
		}
	}
}

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

// required compares the required members (kw "required"), or those a
// member requires (kw "dependentRequired", by member).
func (c *schemaCmp) required(n node, om, nm map[string]any, kw string) {
	if kw == "dependentRequired" {
		od, _ := om[kw].(map[string]any)
		nd, _ := nm[kw].(map[string]any)
		for _, k := range unionKeys(od, nd) {
			c.names(n.at(kw), k, od[k], nd[k], fmt.Sprintf("when member %q is present, ", k))
		}
		return
	}
	c.names(n, kw, om[kw], nm[kw], "")
}

// names compares two lists of required member names at kw.
func (c *schemaCmp) names(n node, kw string, ov, nv any, when string) {
	or, nr := stringSet(ov), stringSet(nv)
	for _, k := range setDiff(nr, or) {
		c.emit(less, n, kw, fmt.Sprintf("%smember %q is now required", when, k))
	}
	for _, k := range setDiff(or, nr) {
		c.emit(more, n, kw, fmt.Sprintf("%smember %q is no longer required", when, k))
	}
}

// memberRule is what applies to one member name on one side.
type memberRule int

const (
	mNamed   memberRule = iota // properties names it
	mFree                      // nothing but patternProperties constrains it
	mAP                        // additionalProperties (a schema) applies
	mClosed                    // additionalProperties is false
	mUnknown                   // a pattern wopkit cannot compile decides
)

// properties compares the members' schemas: properties,
// patternProperties and additionalProperties together (the last applies
// to the members the other two do not name or match).
func (c *schemaCmp) properties(o, n node, om, nm map[string]any) {
	op, _ := om["properties"].(map[string]any)
	np, _ := nm["properties"].(map[string]any)
	opp, _ := om["patternProperties"].(map[string]any)
	npp, _ := nm["patternProperties"].(map[string]any)
	oa, oaHas := om["additionalProperties"]
	na, naHas := nm["additionalProperties"]
	oOpen, nOpen := free(oa), free(na)
	for _, p := range unionKeys(opp, npp) {
		ov, oHas := opp[p]
		nv, nHas := npp[p]
		switch {
		case oHas && nHas:
			c.cmp(o.at("patternProperties", p).with(ov), n.at("patternProperties", p).with(nv))
		case !oOpen || !nOpen:
			c.emit(unknown, n.at("patternProperties"), p, fmt.Sprintf("pattern %q was added or removed beside additionalProperties: which members each applies to changed", p))
		case nHas && !free(nv):
			c.emit(less, n.at("patternProperties"), p, fmt.Sprintf("members matching %q must now match a schema", p))
		case oHas && !free(ov):
			c.emit(more, n.at("patternProperties"), p, fmt.Sprintf("members matching %q are no longer constrained", p))
		}
	}
	rule := func(props map[string]any, pats map[string]any, ap any, open bool, k string) memberRule {
		if _, ok := props[k]; ok {
			return mNamed
		}
		if open {
			return mFree
		}
		c.d.spend(len(pats))
		for p := range pats {
			re := c.d.regexp(p)
			if re == nil {
				return mUnknown
			}
			if re.MatchString(k) {
				return mFree
			}
		}
		if ap == false {
			return mClosed
		}
		return mAP
	}
	oProps, nProps := o.at("properties"), n.at("properties")
	for k := range c.d.union(oProps, op, nProps, np) {
		if c.d.spend(1 + len(k)/32) {
			return
		}
		ov, nv := op[k], np[k]
		orl, nrl := rule(op, opp, oa, oOpen, k), rule(np, npp, na, nOpen, k)
		switch {
		case orl == mUnknown || nrl == mUnknown:
			c.emit(unknown, nProps, k, fmt.Sprintf("member %q: a pattern of patternProperties cannot be read", k))
		case orl == mNamed && nrl == mNamed:
			c.cmp(oProps.at(k).with(ov), nProps.at(k).with(nv))
		case orl == mClosed:
			if nv != false {
				c.emit(more, nProps, k, fmt.Sprintf("member %q is accepted (the old schema allowed no other members)", k))
			}
		case orl == mFree:
			if !free(nv) {
				c.emit(member, nProps, k, fmt.Sprintf("member %q", k))
			}
		case orl == mAP:
			c.cmp(o.at("additionalProperties").with(oa), nProps.at(k).with(nv))
		case nrl == mClosed:
			c.emit(less, nProps, k, fmt.Sprintf("member %q was removed and is no longer allowed", k))
		case nrl == mFree:
			if !free(ov) {
				c.emit(more, nProps, k, fmt.Sprintf("member %q is no longer described: it may hold any value", k))
			}
		default: // the new additionalProperties applies
			c.cmp(oProps.at(k).with(ov), n.at("additionalProperties").with(na))
		}
	}
	switch {
	case !oaHas && !naHas:
	case oaHas && naHas:
		c.cmp(o.at("additionalProperties").with(oa), n.at("additionalProperties").with(na))
	case !oaHas && na != true:
		c.emit(less, n, "additionalProperties", "members not listed are now constrained")
	case !naHas && oa != true:
		c.emit(more, n, "additionalProperties", "members not listed are now accepted")
	}
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

// monotone compares a keyword holding one schema whose accepting more
// makes the whole accept more (propertyNames); absent is true.
func (c *schemaCmp) monotone(o, n node, om, nm map[string]any, kw string) {
	ov, oHas := om[kw]
	nv, nHas := nm[kw]
	if oHas || nHas {
		c.cmp(o.at(kw).with(ov), n.at(kw).with(nv))
	}
}

// dependents compares dependentSchemas and draft-07's dependencies (a
// member's schema, or the names it requires), member by member.
func (c *schemaCmp) dependents(o, n node, om, nm map[string]any) {
	for _, kw := range []string{"dependentSchemas", "dependencies"} {
		od, _ := om[kw].(map[string]any)
		nd, _ := nm[kw].(map[string]any)
		for _, k := range unionKeys(od, nd) {
			ov, oHas := od[k]
			nv, nHas := nd[k]
			_, oList := ov.([]any)
			_, nList := nv.([]any)
			switch {
			case oList && nList, oList && !nHas, nList && !oHas:
				c.names(n.at(kw), k, ov, nv, fmt.Sprintf("when member %q is present, ", k))
			case oList || nList:
				c.emit(unknown, n.at(kw), k, fmt.Sprintf("what member %q requires changed between a list of names and a schema", k))
			default:
				c.cmp(o.at(kw, k).with(ov), n.at(kw, k).with(nv))
			}
		}
	}
}

// dynamicRef compares $dynamicRef: it leads where $ref would unless its
// target holds a $dynamicAnchor, whose meaning depends on where the
// validation started (could not prove).
func (c *schemaCmp) dynamicRef(o, n node, om, nm map[string]any) {
	oref, oHas := om["$dynamicRef"].(string)
	nref, nHas := nm["$dynamicRef"].(string)
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
	c.emit(unknown, n, "$dynamicRef", "a $dynamicRef changed, and where it leads depends on where validation started")
}

func dynamic(x node) bool {
	m, _ := x.v.(map[string]any)
	_, ok := m["$dynamicAnchor"]
	return ok
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

// at is the node's place one or more members down (its value unset).
func (x node) at(keys ...string) node {
	p := x.ptr
	for _, k := range keys {
		p += "/" + escape(k)
	}
	return node{p: x.p, file: x.file, ptr: p}
}

func (x node) with(v any) node {
	if v == nil {
		v = true
	}
	x.v = v
	return x
}

// regexp is the pattern p compiled (nil when Go's regexp cannot read it),
// once per comparison.
func (d *differ) regexp(p string) *regexp.Regexp {
	if re, ok := d.regexps[p]; ok {
		return re
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil
	}
	d.regexps[p] = re
	return re
}

// canon is v as canonical JSON (encoding/json sorts object keys).
func canon(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// canon is canon(v), its length spent from the work budget.
func (c *schemaCmp) canon(v any) string {
	s := canon(v)
	c.d.spend(len(s) / 64)
	return s
}

func short(v any) string {
	s := canon(v)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func stringSet(v any) map[string]bool {
	s := map[string]bool{}
	list, _ := v.([]any)
	for _, x := range list {
		if str, ok := x.(string); ok {
			s[str] = true
		}
	}
	return s
}

// setDiff is the members of a not in b, sorted.
func setDiff(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func sorted(s map[string]bool) []string { return setDiff(s, nil) }

// union is unionKeys(om, nm) for the objects at the places o and n, their
// sorted keys kept (a definition compared with many others is sorted
// once).
func (d *differ) union(o node, om map[string]any, n node, nm map[string]any) iter.Seq[string] {
	ok, nk := d.sortedKeys(o, om), d.sortedKeys(n, nm)
	return func(yield func(string) bool) {
		i, j := 0, 0
		for i < len(ok) || j < len(nk) {
			var k string
			switch {
			case j == len(nk) || i < len(ok) && ok[i] < nk[j]:
				k = ok[i]
				i++
			case i == len(ok) || nk[j] < ok[i]:
				k = nk[j]
				j++
			default:
				k = ok[i]
				i, j = i+1, j+1
			}
			if !yield(k) {
				return
			}
		}
	}
}

type keysAt struct {
	p *Pack
	l loc
}

func (d *differ) sortedKeys(x node, m map[string]any) []string {
	k := keysAt{x.p, x.place()}
	if ks, ok := d.keys[k]; ok && len(ks) == len(m) {
		return ks
	}
	d.spend(len(m))
	ks := unionKeys(m, nil)
	d.keys[k] = ks
	return ks
}

func unionKeys(a, b map[string]any) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// pointerGet reads the JSON pointer ptr ("" is the whole document) in v.
func pointerGet(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i := -1
			fmt.Sscan(tok, &i)
			if i < 0 || i >= len(x) || fmt.Sprint(i) != tok {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}
