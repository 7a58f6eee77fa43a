package semdiff

import (
	"fmt"
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
	dropped                 // a described member removed where no other is allowed (accepts less; in an output, by policy breaking: consumers read it)
	nWays   = 6
)

// xform is what the contexts around a subschema do to a way found in it:
// the set each single bit becomes. It is comparable, so the memo of pairs
// compared can hold it.
type xform [nWays]way

var identity = xform{more, less, unknown, wording, member, dropped}

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
	case less, member, dropped:
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
	case dropped:
		return dropped | more
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
	// probe, when set, collects the ways found instead of listing them
	// (equivalent).
	probe *way
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
	if c.probe != nil {
		*c.probe |= raw
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
	case c.oneOf > 0 && raw&(less|member|dropped) != 0 && w&more != 0 && rule == RuleOutputWidened:
		words += " (in a oneOf branch: a value that matched two branches may now match only this one and be accepted)"
	case rule == RuleOfferRemoved:
		words += " (consumers that read it get nothing now)"
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
	case w&(less|dropped) != 0 && c.role != Output:
		return Breaking, RuleInputNarrowed, "accepts less"
	case w&more != 0 && c.role != Input:
		return Breaking, RuleOutputWidened, map[bool]string{true: "may return more or different values", false: "accepts more"}[c.role == Output]
	case w&dropped != 0:
		return Breaking, RuleOfferRemoved, "no longer returns a member"
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
	od, nd := c.d.dialectOf(o), c.d.dialectOf(n)
	if od == dialectOther || nd == dialectOther {
		c.emit(unknown, n, "", "the schema is written in a draft of JSON Schema wopkit does not read, and it changed")
		return
	}
	// draft-07 ignores every keyword beside $ref.
	if ref, ok := om["$ref"]; ok && od == dialect07 {
		om = map[string]any{"$ref": ref}
	}
	if ref, ok := nm["$ref"]; ok && nd == dialect07 {
		nm = map[string]any{"$ref": ref}
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
	od, nd := c.d.dialectOf(o), c.d.dialectOf(n)
	all, allN := om, nm
	om, nm = inDialect(od, om), inDialect(nd, nm)
	if !hasUnevaluated(om) && !hasUnevaluated(nm) && c.allOfDiffers(o, n, om, nm) {
		om, nm = inlined(om), inlined(nm)
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
	c.dynamicRef(o, n, om, nm, "$dynamicRef")
	c.dynamicRef(o, n, om, nm, "$recursiveRef")
	c.unevaluated(o, n, om, nm, "unevaluatedProperties")
	c.unevaluated(o, n, om, nm, "unevaluatedItems")
	for _, kw := range []string{"pattern", "format", "multipleOf"} {
		c.constraint(n, om, nm, kw)
	}
	if ou, nu := om["uniqueItems"] == true, nm["uniqueItems"] == true; ou != nu {
		c.emit(map[bool]way{true: less, false: more}[nu], n, "uniqueItems", map[bool]string{true: "items must now be unique", false: "items need no longer be unique"}[nu])
	}
	c.notRead(n, all, allN, od, nd)
}

// evaluators are the keywords whose evaluation unevaluatedProperties
// (unevaluatedItems) reads: the members (items) they evaluated.
var evaluators = map[string][]string{
	"unevaluatedProperties": {"properties", "patternProperties", "additionalProperties", "allOf", "anyOf", "oneOf",
		"if", "then", "else", "not", "dependentSchemas", "dependencies", "$ref", "$dynamicRef", "$recursiveRef"},
	"unevaluatedItems": {"prefixItems", "items", "additionalItems", "contains", "allOf", "anyOf", "oneOf",
		"if", "then", "else", "not", "dependentSchemas", "$ref", "$dynamicRef", "$recursiveRef"},
}

// unevaluated compares unevaluatedProperties (kw; or unevaluatedItems):
// where every keyword whose evaluation it reads is the same schema on both
// sides (references followed), it applies to the same members and is
// compared as a schema; otherwise it could not be proved.
func (c *schemaCmp) unevaluated(o, n node, om, nm map[string]any, kw string) {
	ov, oHas := om[kw]
	nv, nHas := nm[kw]
	if !oHas && !nHas {
		return
	}
	pick := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for _, k := range evaluators[kw] {
			if v, ok := m[k]; ok {
				out[k] = v
			}
		}
		return out
	}
	saved := c.path
	c.path = nil
	same, _ := c.sameVal(o, n, pick(om), pick(nm), false, posSchema)
	c.path = saved
	if !same {
		c.emit(unknown, n, kw, kw+" depends on what the other keywords evaluate, and they changed")
		return
	}
	c.cmp(o.at(kw).with(ov), n.at(kw).with(nv))
}

// equivalent reports whether comparing o and n (their objects om and nm
// when given) finds no difference in what they accept, wording aside,
// listing nothing.
func (c *schemaCmp) equivalent(o, n node, om, nm map[string]any) bool {
	var found way
	saved, seen, x, oneOf := c.probe, c.seen, c.x, c.oneOf
	c.probe, c.seen, c.x, c.oneOf = &found, map[pairKey]bool{}, identity, 0
	if om == nil && nm == nil {
		c.cmp(o, n)
	} else {
		c.keywords(o, n, om, nm)
	}
	c.probe, c.seen, c.x, c.oneOf = saved, seen, x, oneOf
	return found&^wording == 0 && !c.d.over
}

// notRead compares the keywords wopkit does not read (not defined by the
// side's dialect, not an annotation, not x-*) as JSON: one added,
// removed or changed could not be proved compatible.
func (c *schemaCmp) notRead(n node, om, nm map[string]any, od, nd dialect) {
	for _, kw := range unionKeys(om, nm) {
		if od.reads(kw) && nd.reads(kw) || annotations[kw] || strings.HasPrefix(kw, "x-") || kw == "$recursiveAnchor" {
			continue
		}
		ov, oHas := om[kw]
		nv, nHas := nm[kw]
		why := "a keyword wopkit does not read"
		if known := od.reads(kw) || nd.reads(kw) || dialect2020.reads(kw) || dialect2019.reads(kw) || dialect07.reads(kw); known {
			why = "a keyword " + od.String() + " does not define (a validator ignores it; wopkit does not read it)"
		}
		switch {
		case oHas && nHas && c.canon(ov) == c.canon(nv):
		case !oHas:
			c.emit(unknown, n, kw, fmt.Sprintf("%s %s was added, %s", kw, short(nv), why))
		case !nHas:
			c.emit(unknown, n, kw, fmt.Sprintf("%s %s was removed, %s", kw, short(ov), why))
		default:
			c.emit(unknown, n, kw, fmt.Sprintf("%s changed from %s to %s, %s", kw, short(ov), short(nv), why))
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
