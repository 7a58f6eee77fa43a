package semdiff

import (
	"encoding/json"
	"fmt"
	"path"
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

// way is what one schema difference does to the set of valid values.
type way int

const (
	more    way = iota + 1 // the new schema accepts more
	less                   // the new schema accepts less
	unknown                // could not prove either way
	wording                // an annotation: nothing is accepted differently
	member                 // an optional member added where the old schema left the name open
)

// node is a schema value at a place: the file it is in and its JSON pointer
// there (a schema reached through $ref moves to the target's place).
type node struct {
	p    *Pack
	file string
	ptr  string
	v    any
}

// schemaCmp compares two schemas for one consumer-facing thing.
type schemaCmp struct {
	d    *differ
	what string // "node core.flow.merge config"
	role Role
	seen map[string]bool
	// oneOf counts the oneOf branches being compared: there, a branch
	// that accepts more may overlap another (a value matching both is
	// refused), so it cannot be proved compatible.
	oneOf int
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
	c := &schemaCmp{d: d, what: what, role: role, seen: map[string]bool{}}
	c.cmp(o, n)
}

// emit reports one difference found at n, in words of the schema.
func (c *schemaCmp) emit(w way, at node, kw, words string) {
	ptr := at.ptr
	if kw != "" {
		ptr += "/" + escape(kw)
	}
	if w == more && c.oneOf > 0 {
		w, words = unknown, words+" (in a oneOf branch: a value may now match two branches and be refused)"
	}
	lv, rule := c.levelOf(w)
	msg := c.what + " " + c.verb(w) + ": " + words
	if w == unknown {
		msg = c.what + ": could not prove compatible: " + words
	}
	c.d.add(lv, rule, at.file, ptr, "%s", msg)
}

func (c *schemaCmp) levelOf(w way) (Level, string) {
	switch {
	case w == wording:
		return Fix, RuleTextChanged
	case w == unknown:
		return Breaking, RuleSchemaUndecided
	case w == member:
		return Feature, RuleMemberAdded
	case w == less && c.role == Output:
		return Feature, RuleOutputNarrowed
	case w == less:
		return Breaking, RuleInputNarrowed
	case c.role == Input:
		return Feature, RuleInputWidened
	}
	return Breaking, RuleOutputWidened
}

func (c *schemaCmp) verb(w way) string {
	switch {
	case w == wording:
		return "wording changed"
	case w == member:
		return "gained an optional member"
	case w == less && c.role == Output:
		return "returns less"
	case w == less:
		return "accepts less"
	case c.role == Output:
		return "may return more or different values"
	}
	return "accepts more"
}

// annotations change no value's validity.
var annotations = map[string]bool{"title": true, "description": true, "$comment": true, "examples": true, "default": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$schema": true, "$id": true, "$anchor": true,
	"contentEncoding": true, "contentMediaType": true, "$defs": true, "definitions": true, "markdownDescription": true}

// lower and upper bounds: raising a lower bound or lowering an upper one
// accepts less.
var lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
var upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}

// handled are the keywords cmp compares by their meaning; the others are
// compared as constraints it cannot read (added: less; removed: more;
// changed: could not prove).
var handled = map[string]bool{"$ref": true, "type": true, "enum": true, "const": true, "required": true, "properties": true,
	"additionalProperties": true, "items": true, "prefixItems": true, "pattern": true, "format": true, "multipleOf": true,
	"uniqueItems": true, "allOf": true, "anyOf": true, "oneOf": true, "if": true, "then": true, "else": true, "not": true}

func (c *schemaCmp) cmp(o, n node) {
	key := o.file + "#" + o.ptr + "|" + n.file + "#" + n.ptr
	if c.seen[key] {
		return // a recursive schema: the pair is being compared already
	}
	c.seen[key] = true
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
		if canon(o.v) != canon(n.v) {
			c.emit(unknown, n, "", "the value is not a schema on one side")
		}
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

// refs follows $ref on either side (inside the pack) and reports whether
// it has compared the pair.
func (c *schemaCmp) refs(o, n node, om, nm map[string]any) bool {
	oref, oHas := om["$ref"].(string)
	nref, nHas := nm["$ref"].(string)
	if !oHas && !nHas {
		return false
	}
	ot, oOK := c.resolve(o, oref, oHas)
	nt, nOK := c.resolve(n, nref, nHas)
	switch {
	case oHas && nHas && (!oOK || !nOK):
		// A reference outside the pack: the same one is the same schema.
		if oref != nref || oOK != nOK {
			c.emit(unknown, n, "$ref", fmt.Sprintf("the reference %q became %q, and one of them is not in the pack", oref, nref))
		}
		c.keywords(o, n, without(om, "$ref"), without(nm, "$ref"))
		return true
	case oHas && nHas:
		c.cmp(ot, nt)
		c.keywords(o, n, without(om, "$ref"), without(nm, "$ref"))
		return true
	case oHas && oOK && constraintFree(without(om, "$ref")):
		c.cmp(ot, n)
		return true
	case nHas && nOK && constraintFree(without(nm, "$ref")):
		c.cmp(o, nt)
		return true
	}
	c.emit(unknown, n, "$ref", "a $ref was added or removed beside other constraints")
	return true
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

// resolve finds the target of ref (written at at) in at's pack: "#/ptr"
// in the same file, "file.json" or "file.json#/ptr" relative to it, or an
// absolute URL that is some pack schema's $id. ok is false for a target
// outside the pack.
func (c *schemaCmp) resolve(at node, ref string, has bool) (node, bool) {
	if !has {
		return node{}, false
	}
	file, frag, _ := strings.Cut(ref, "#")
	target := at.file
	switch {
	case file == "":
	case strings.Contains(file, "://"):
		target = at.p.fileWithID(file)
	default:
		target = path.Clean(path.Join(path.Dir(at.file), file))
	}
	doc := at.p.JSON(target)
	if target == "" || doc == nil {
		return node{}, false
	}
	c.d.referenced[target] = true
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return node{}, false // an $anchor: not followed
	}
	v, ok := pointerGet(doc, frag)
	if !ok {
		return node{}, false
	}
	return node{p: at.p, file: target, ptr: frag, v: v}, true
}

// fileWithID is the JSON file of the pack whose $id is id ("" when none).
func (p *Pack) fileWithID(id string) string {
	names := make([]string, 0, len(p.Files))
	for name := range p.Files {
		if strings.HasSuffix(name, ".json") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if m, ok := p.JSON(name).(map[string]any); ok && m["$id"] == id {
			return name
		}
	}
	return ""
}

// keywords compares two schema objects keyword by keyword.
func (c *schemaCmp) keywords(o, n node, om, nm map[string]any) {
	c.wording(o, n, om, nm)
	c.types(n, om, nm)
	c.enums(n, om, nm)
	c.required(n, om, nm)
	c.properties(o, n, om, nm)
	c.bounds(n, om, nm)
	c.sub(o, n, om, nm, "items", "the items' schema")
	c.sub(o, n, om, nm, "not", "the schema they must not match")
	c.lists(o, n, om, nm)
	c.conditional(o, n, om, nm)
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
		c.constraint(n, om, nm, kw)
	}
}

// wording reports changed annotations (one finding per keyword).
func (c *schemaCmp) wording(o, n node, om, nm map[string]any) {
	for _, kw := range unionKeys(om, nm) {
		if (!annotations[kw] && !strings.HasPrefix(kw, "x-")) || kw == "$defs" || kw == "definitions" {
			continue
		}
		if canon(om[kw]) != canon(nm[kw]) {
			c.emit(wording, n, kw, kw+" changed")
		}
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
	case oHas && canon(ov) != canon(nv):
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
		oe, oHas := valueSet(om, kw)
		ne, nHas := valueSet(nm, kw)
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

func valueSet(m map[string]any, kw string) (map[string]bool, bool) {
	v, ok := m[kw]
	if !ok {
		return nil, false
	}
	s := map[string]bool{}
	if kw == "const" {
		s[canon(v)] = true
		return s, true
	}
	list, _ := v.([]any)
	for _, x := range list {
		s[canon(x)] = true
	}
	return s, true
}

// required compares the required members.
func (c *schemaCmp) required(n node, om, nm map[string]any) {
	or, nr := stringSet(om["required"]), stringSet(nm["required"])
	for _, k := range setDiff(nr, or) {
		c.emit(less, n, "required", fmt.Sprintf("member %q is now required", k))
	}
	for _, k := range setDiff(or, nr) {
		c.emit(more, n, "required", fmt.Sprintf("member %q is no longer required", k))
	}
}

// properties compares the members' schemas and additionalProperties.
func (c *schemaCmp) properties(o, n node, om, nm map[string]any) {
	op, _ := om["properties"].(map[string]any)
	np, _ := nm["properties"].(map[string]any)
	oClosed, nClosed := om["additionalProperties"] == false, nm["additionalProperties"] == false
	for _, k := range unionKeys(op, np) {
		ov, oHas := op[k]
		nv, nHas := np[k]
		at := n.at("properties", k)
		switch {
		case oHas && nHas:
			c.cmp(o.at("properties", k).with(ov), at.with(nv))
		case nHas && oClosed:
			c.emit(more, at, "", fmt.Sprintf("member %q is accepted (the old schema allowed no other members)", k))
		case nHas:
			if constraintFree(nv) || nv == true {
				continue
			}
			c.emit(member, at, "", fmt.Sprintf("member %q", k))
		case nClosed:
			c.emit(less, n.at("properties"), escape(k), fmt.Sprintf("member %q was removed and is no longer allowed", k))
		default:
			if !constraintFree(ov) && ov != true {
				c.emit(more, n.at("properties"), escape(k), fmt.Sprintf("member %q is no longer described: it may hold any value", k))
			}
		}
	}
	oa, oHas := om["additionalProperties"]
	na, nHas := nm["additionalProperties"]
	switch {
	case !oHas && !nHas:
	case oHas && nHas:
		c.cmp(o.at("additionalProperties").with(oa), n.at("additionalProperties").with(na))
	case !oHas && na != true:
		c.emit(less, n, "additionalProperties", "members not listed are now constrained")
	case !nHas && oa != true:
		c.emit(more, n, "additionalProperties", "members not listed are now accepted")
	}
}

// bounds compares minimum/maximum and their kin.
func (c *schemaCmp) bounds(n node, om, nm map[string]any) {
	for _, kw := range append(slices.Clone(lowerBounds), upperBounds...) {
		ov, oHas := om[kw].(float64)
		nv, nHas := nm[kw].(float64)
		upper := slices.Contains(upperBounds, kw)
		switch {
		case !oHas && !nHas, oHas && nHas && ov == nv:
		case !oHas:
			c.emit(less, n, kw, fmt.Sprintf("%s %v was added", kw, nv))
		case !nHas:
			c.emit(more, n, kw, fmt.Sprintf("%s %v was removed", kw, ov))
		case (nv > ov) != upper:
			c.emit(less, n, kw, fmt.Sprintf("%s went from %v to %v", kw, ov, nv))
		default:
			c.emit(more, n, kw, fmt.Sprintf("%s went from %v to %v", kw, ov, nv))
		}
	}
}

// sub compares a keyword holding one schema (items, not).
func (c *schemaCmp) sub(o, n node, om, nm map[string]any, kw, words string) {
	ov, oHas := om[kw]
	nv, nHas := nm[kw]
	switch {
	case !oHas && !nHas:
	case kw == "not" && oHas && nHas && canon(ov) != canon(nv):
		c.emit(unknown, n, kw, words+" changed")
	case oHas && nHas && kw != "not":
		if _, isList := ov.([]any); isList {
			if canon(ov) != canon(nv) {
				c.emit(unknown, n, kw, words+" changed")
			}
			return
		}
		c.cmp(o.at(kw).with(ov), n.at(kw).with(nv))
	case !oHas && !(kw == "items" && (nv == true || constraintFree(nv))):
		c.emit(less, n, kw, words+" was added")
	case !nHas && !(kw == "items" && (ov == true || constraintFree(ov))):
		c.emit(more, n, kw, words+" was removed")
	}
}

// lists compares allOf, anyOf, oneOf and prefixItems: the same number of
// schemas pairwise, otherwise by which were added or removed.
func (c *schemaCmp) lists(o, n node, om, nm map[string]any) {
	for _, kw := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		ol, _ := om[kw].([]any)
		nl, _ := nm[kw].([]any)
		if canonNoRef(ol) && canon(ol) == canon(nl) {
			continue
		}
		if len(ol) == len(nl) {
			if kw == "oneOf" {
				// A branch that accepts more may overlap another: a value
				// matching both is then refused.
				c.oneOf++
			}
			for i := range ol {
				c.cmp(o.at(kw, fmt.Sprint(i)).with(ol[i]), n.at(kw, fmt.Sprint(i)).with(nl[i]))
			}
			if kw == "oneOf" {
				c.oneOf--
			}
			continue
		}
		added, removed := listDiff(ol, nl)
		// Adding a schema to allOf accepts less, to anyOf more; but an
		// anyOf that appears (or disappears) as a whole is a constraint
		// added (or removed).
		grow, shrink := less, more
		if kw == "anyOf" && len(ol) > 0 && len(nl) > 0 {
			grow, shrink = more, less
		}
		switch {
		case kw == "oneOf" && len(ol) > 0 && len(nl) > 0, kw == "prefixItems", len(added) > 0 && len(removed) > 0:
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

// listDiff is which schemas of nl are not in ol (their indexes in nl) and
// which of ol are not in nl.
func listDiff(ol, nl []any) (added, removed []int) {
	return notIn(nl, ol), notIn(ol, nl)
}

// notIn is the indexes of the schemas of a that b does not hold (counting
// repeats).
func notIn(a, b []any) []int {
	count := map[string]int{}
	for _, v := range b {
		count[canon(v)]++
	}
	var out []int
	for i, v := range a {
		if count[canon(v)] > 0 {
			count[canon(v)]--
			continue
		}
		out = append(out, i)
	}
	return out
}

// conditional compares if/then/else: with the same "if", then and else
// compare as schemas; a condition added accepts less.
func (c *schemaCmp) conditional(o, n node, om, nm map[string]any) {
	_, oHas := om["if"]
	_, nHas := nm["if"]
	switch {
	case !oHas && !nHas:
	case !oHas:
		c.emit(less, n, "if", "a condition (if/then/else) was added")
	case !nHas:
		c.emit(more, n, "if", "a condition (if/then/else) was removed")
	case canon(om["if"]) != canon(nm["if"]):
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

// canon is v as canonical JSON (encoding/json sorts object keys).
func canon(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// canonNoRef reports whether v holds no $ref (so equal text is the same
// schema).
func canonNoRef(v any) bool { return !strings.Contains(canon(v), `"$ref"`) }

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
