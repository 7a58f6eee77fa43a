// The keywords of objects: required, dependentRequired, properties, patternProperties, additionalProperties, propertyNames, dependentSchemas (and draft-07's dependencies).

package semdiff

import (
	"fmt"
	"regexp"
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
