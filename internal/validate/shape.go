package validate

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/third_party/jsonschema"
	"github.com/openwop/wopkit/third_party/jsonschema/kind"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// shaper turns jsonschema's error tree into a flat list of problems a person
// can act on: oneOf/anyOf failures are reported against the branch the
// document meant, if/then failures carry the schema's title, and each
// message is positioned in the source.
type shaper struct {
	set  *schemaSet
	doc  *jsondoc.Doc
	base string // pointer prefix when the validated value is part of a larger document
	out  []Problem
}

func (s *shaper) walk(e *jsonschema.ValidationError) {
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		s.alternatives(e, false)
		return
	case *kind.OneOf:
		if k.Subschemas == nil {
			s.alternatives(e, true)
			return
		}
	}
	if len(e.Causes) > 0 {
		for _, c := range byLocation(e.Causes) {
			s.walk(c)
		}
		return
	}
	s.leaf(e)
}

// byLocation orders sibling errors by where they are in the document (the
// schema library collects some of them from maps, so their order changes
// from run to run): by instance location, array indexes numerically, ties
// kept in the library's order.
func byLocation(cs []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(cs) < 2 {
		return cs
	}
	out := slices.Clone(cs)
	slices.SortStableFunc(out, func(a, b *jsonschema.ValidationError) int {
		return compareLocation(a.InstanceLocation, b.InstanceLocation)
	})
	return out
}

func compareLocation(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		x, errx := strconv.Atoi(a[i])
		y, erry := strconv.Atoi(b[i])
		if errx == nil && erry == nil {
			return cmp.Compare(x, y)
		}
		return strings.Compare(a[i], b[i])
	}
	return cmp.Compare(len(a), len(b))
}

// leaves flattens an error into its leaf errors (alternatives included).
func leaves(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(out, e)
	}
	for _, c := range e.Causes {
		out = leaves(c, out)
	}
	return out
}

type branch struct {
	err      *jsonschema.ValidationError
	leaves   []*jsonschema.ValidationError
	discKey  string // the discriminator member that ruled the branch out
	discWant any
	wrongTyp bool
}

func (s *shaper) alternatives(e *jsonschema.ValidationError, one bool) {
	loc := e.InstanceLocation
	var live, dead []branch
	for _, c := range e.Causes {
		b := branch{err: c, leaves: leaves(c, nil)}
		for _, l := range b.leaves {
			switch k := l.ErrorKind.(type) {
			case *kind.Const:
				if len(l.InstanceLocation) == len(loc)+1 && isPrefix(loc, l.InstanceLocation) {
					b.discKey, b.discWant = l.InstanceLocation[len(loc)], k.Want
				}
			case *kind.Type:
				if len(l.InstanceLocation) == len(loc) {
					b.wrongTyp = true
				}
			}
		}
		if b.discKey != "" || b.wrongTyp {
			dead = append(dead, b)
		} else {
			live = append(live, b)
		}
	}
	ptr := s.base + jsondoc.Pointer(loc...)
	switch {
	case len(live) == 1:
		s.walk(live[0].err)
	case len(live) == 0 && len(dead) > 0 && dead[0].discKey != "":
		key := dead[0].discKey
		var wants []string
		for _, b := range dead {
			if b.discKey == key {
				wants = append(wants, display(b.discWant))
			}
		}
		got := s.doc.Lookup(ptr + jsondoc.Pointer(key))
		msg := fmt.Sprintf("%s %s is not one of the known values", quoteKey(key), gotText(got))
		if got == nil {
			msg = fmt.Sprintf("missing %s, which says which form this is", quoteKey(key))
		}
		s.add(ptr+jsondoc.Pointer(key), false, "schema/"+alt(one), msg, "use one of: "+strings.Join(wants, ", "))
	case len(live) == 0:
		var types []string
		for _, b := range dead {
			for _, l := range b.leaves {
				if t, ok := l.ErrorKind.(*kind.Type); ok && len(l.InstanceLocation) == len(loc) {
					types = append(types, t.Want...)
				}
			}
		}
		s.add(ptr, false, "schema/type", "this value has the wrong type", "expected "+orList(unique(types)))
	default:
		if props, ok := s.allOfKind(live, loc, "required"); ok {
			verb := "set at least one of"
			if one {
				verb = "set exactly one of"
			}
			s.add(ptr, false, "schema/"+alt(one), "missing one of "+orList(quoteAll(props)), verb+" "+orList(quoteAll(props)))
			return
		}
		if props, ok := s.allOfKind(live, loc, "not"); ok {
			s.add(ptr, false, "schema/"+alt(one), andList(quoteAll(props))+" cannot be used together", "keep exactly one of "+orList(quoteAll(props)))
			return
		}
		best := live[0]
		for _, b := range live[1:] {
			if len(b.leaves) < len(best.leaves) {
				best = b
			}
		}
		s.walk(best.err)
	}
}

// allOfKind reports whether every leaf of every branch is a `required` (or a
// `not: {required: [...]}`) failure at loc, and returns the properties named.
func (s *shaper) allOfKind(bs []branch, loc []string, what string) ([]string, bool) {
	var props []string
	for _, b := range bs {
		for _, l := range b.leaves {
			if len(l.InstanceLocation) != len(loc) {
				return nil, false
			}
			switch k := l.ErrorKind.(type) {
			case *kind.Required:
				if what != "required" {
					return nil, false
				}
				props = append(props, k.Missing...)
			case *kind.Not:
				if what != "not" {
					return nil, false
				}
				sch := s.set.at(l.SchemaURL)
				not, _ := sch["not"].(map[string]any)
				req, _ := not["required"].([]any)
				if len(req) == 0 {
					return nil, false
				}
				for _, r := range req {
					props = append(props, fmt.Sprint(r))
				}
			default:
				return nil, false
			}
		}
	}
	props = unique(props)
	if what == "not" {
		// Each branch forbids the other's property; name each once.
		sort.Strings(props)
	}
	return props, len(props) > 0
}

func (s *shaper) add(ptr string, key bool, rule, msg, hint string) {
	off := s.doc.Locate(ptr, key)
	line, col := s.doc.Position(off)
	s.out = append(s.out, Problem{Pointer: ptr, Line: line, Column: col, Rule: rule, Message: msg, Hint: hint, Severity: Error, off: off})
}

func isPrefix(p, of []string) bool {
	if len(p) > len(of) {
		return false
	}
	for i := range p {
		if p[i] != of[i] {
			return false
		}
	}
	return true
}

func alt(one bool) string {
	if one {
		return "oneOf"
	}
	return "anyOf"
}
