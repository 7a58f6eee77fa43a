// The keywords of objects: required, dependentRequired, properties, patternProperties, additionalProperties, propertyNames, dependentSchemas (and draft-07's dependencies).

package semdiff

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/ecmare"
)

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

// applies is what applies to one member name on one side: the schema
// properties gives it (or additionalProperties, when neither properties
// names it nor a pattern matches it; or none), and the patterns of
// patternProperties that match it, all of which must hold.
type applies struct {
	base    node
	named   bool     // properties names it
	fromAP  bool     // base is additionalProperties (absent: true)
	pats    []string // the patterns matching the name, sorted
	unknown string   // a pattern that cannot be read, or decided in time
}

// appliesTo is what applies to the member k in the schema object m at x.
func (c *schemaCmp) appliesTo(x node, m map[string]any, k string) applies {
	props, _ := m["properties"].(map[string]any)
	pats, _ := m["patternProperties"].(map[string]any)
	var a applies
	c.d.spend(len(pats))
	for _, p := range c.d.sortedKeys(x.at("patternProperties"), pats) {
		re := c.d.regexp(p)
		if re == nil {
			a.unknown = p
			return a
		}
		ok, err := re.Match(k)
		if err != nil {
			a.unknown = p
			return a
		}
		if ok {
			a.pats = append(a.pats, p)
		}
	}
	switch v, ok := props[k]; {
	case ok:
		a.base, a.named = x.at("properties", k).with(v), true
	case len(a.pats) > 0:
		a.base = x.at("properties", k).with(true)
	default:
		a.base, a.fromAP = x.at("additionalProperties").with(m["additionalProperties"]), true
	}
	return a
}

// memberPolicy reports whether describing the member k where the old
// schema om left it open is the feature docs/RULES.md counts ("an optional
// member described where the old schema left the name open"): nothing
// named, matched or constrained the name before (not properties,
// patternProperties, a free additionalProperties, propertyNames, a
// dependentSchemas or dependencies entry, nor a required list naming it),
// and the new schema nv admits some value.
func memberPolicy(om map[string]any, a applies, k string, nv any) bool {
	if a.named || !a.fromAP || !free(a.base.v) || !admitsSome(nv) {
		return false
	}
	if _, ok := om["propertyNames"]; ok {
		return false
	}
	if stringSet(om["required"])[k] {
		return false
	}
	for _, kw := range []string{"dependentSchemas", "dependencies", "dependentRequired"} {
		deps, _ := om[kw].(map[string]any)
		if _, ok := deps[k]; ok {
			return false
		}
		for _, v := range deps {
			if stringSet(v)[k] {
				return false
			}
		}
	}
	return true
}

// admitsSome reports whether the schema v plainly admits some value. It is
// sound, not complete: it says true only where the schema's own keywords
// are ones it reads (types, enum and const, bounds, pattern, format,
// members and items, anyOf, annotations) and agree with each other (a
// value of the types within the bounds and among the enum's values, the
// required members' schemas admitting some value); any other schema (a
// reference, oneOf, not, allOf, a condition) counts as admitting none,
// and the member is then compared with what applied to it before.
func admitsSome(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return v == true
	}
	types := typeSet(m["type"])
	if types != nil && len(types) == 0 {
		return false
	}
	for k := range m {
		switch k {
		case "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
			"minItems", "maxItems", "minProperties", "maxProperties", "pattern", "format", "multipleOf", "uniqueItems",
			"properties", "patternProperties", "additionalProperties", "required", "items", "prefixItems", "anyOf":
		default:
			if !annotations[k] && !strings.HasPrefix(k, "x-") {
				return false
			}
		}
	}
	for _, p := range [][2]string{{"minimum", "maximum"}, {"minLength", "maxLength"}, {"minItems", "maxItems"}, {"minProperties", "maxProperties"}} {
		lo, lok := num(m[p[0]])
		hi, hok := num(m[p[1]])
		if lok && hok && lo.Cmp(hi) > 0 {
			return false
		}
	}
	if _, ok := m["exclusiveMinimum"]; ok {
		if _, ok := m["maximum"]; ok {
			return false // not read: could be empty
		}
	}
	if _, ok := m["exclusiveMaximum"]; ok {
		if _, ok := m["minimum"]; ok {
			return false
		}
	}
	// The enum's and const's values must include one of the types, and
	// (not read further) are then taken to meet the other keywords only
	// when there are none.
	values, hasValues := []any(nil), false
	if e, ok := m["enum"]; ok {
		list, _ := e.([]any)
		values, hasValues = list, true
	}
	if c, ok := m["const"]; ok {
		values, hasValues = []any{c}, true
	}
	if hasValues {
		for k := range m {
			if k != "type" && k != "enum" && k != "const" && !annotations[k] && !strings.HasPrefix(k, "x-") {
				return false
			}
		}
		for _, x := range values {
			if types == nil || types[jsonType(x)] || jsonType(x) == "integer" && types["number"] {
				return true
			}
		}
		return false
	}
	req := stringSet(m["required"])
	props, _ := m["properties"].(map[string]any)
	if len(req) > 0 {
		if types != nil && !types["object"] || m["patternProperties"] != nil {
			return false
		}
		for r := range req {
			s, named := props[r]
			if !named && m["additionalProperties"] != nil && m["additionalProperties"] != true {
				return false
			}
			if named && !admitsSome(s) {
				return false
			}
		}
		if mx, ok := num(m["maxProperties"]); ok && mx.Cmp(new(big.Rat).SetInt64(int64(len(req)))) < 0 {
			return false
		}
	}
	if mi, ok := num(m["minItems"]); ok && mi.Sign() > 0 && (types == nil || types["array"]) {
		// Arrays need items the item schema admits; other types need none.
		if it, ok := m["items"]; ok && !admitsSome(it) && (types == nil || len(types) == 1) {
			return false
		}
	}
	if list, ok := m["anyOf"].([]any); ok {
		some := false
		for _, b := range list {
			some = some || admitsSome(b)
		}
		return some
	}
	return true
}

// jsonType is the JSON Schema type of the value x ("integer" for a whole
// number).
func jsonType(x any) string {
	switch v := x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(v)); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	}
	return ""
}

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
		case c.d.regexp(p) == nil:
			c.emit(unknown, n.at("patternProperties"), p, fmt.Sprintf("pattern %q was added or removed, and it is not an ECMA-262 regular expression wopkit can read", p))
		case nHas && !free(nv):
			c.emit(less, n.at("patternProperties"), p, fmt.Sprintf("members matching %q must now match a schema", p))
		case oHas && !free(ov):
			c.emit(more, n.at("patternProperties"), p, fmt.Sprintf("members matching %q are no longer constrained", p))
		}
	}
	oProps, nProps := o.at("properties"), n.at("properties")
	for k := range c.d.union(oProps, op, nProps, np) {
		if c.d.spend(1 + len(k)/32) {
			return
		}
		oa, na := c.appliesTo(o, om, k), c.appliesTo(n, nm, k)
		switch {
		case oa.unknown != "" || na.unknown != "":
			c.emit(unknown, nProps, k, fmt.Sprintf("member %q: the pattern %q of patternProperties cannot be read or decided in time", k, oa.unknown+na.unknown))
		case !slices.Equal(oa.pats, na.pats):
			c.emit(unknown, nProps, k, fmt.Sprintf("member %q: which patterns of patternProperties apply to it changed", k))
		case !oa.named && memberPolicy(om, oa, k, na.base.v):
			if !free(na.base.v) {
				c.emit(member, nProps, k, fmt.Sprintf("member %q", k))
			}
		case oa.fromAP && oa.base.v == false && na.named:
			if na.base.v != false {
				c.emit(more, nProps, k, fmt.Sprintf("member %q is accepted (the old schema allowed no other members)", k))
			}
		case na.fromAP && na.base.v == false && oa.named:
			if oa.base.v != false {
				c.emit(dropped, nProps, k, fmt.Sprintf("member %q was removed and is no longer allowed", k))
			}
		case !na.named && free(na.base.v) && len(na.pats) == 0:
			if !free(oa.base.v) {
				c.emit(more, nProps, k, fmt.Sprintf("member %q is no longer described: it may hold any value", k))
			}
		default:
			c.cmp(oa.base, na.base)
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

// regexp is the pattern p compiled as ECMA-262 (nil when it is not one),
// once per comparison.
func (d *differ) regexp(p string) *ecmare.Regexp {
	if re, ok := d.regexps[p]; ok {
		return re
	}
	re, err := ecmare.Cached(p)
	if err != nil {
		re = nil
	}
	d.regexps[p] = re
	return re
}
