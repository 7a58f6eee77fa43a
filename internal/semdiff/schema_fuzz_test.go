package semdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/ecmare"
	"github.com/openwop/wopkit/third_party/jsonschema"
)

// fuzzGen builds JSON Schemas from the fuzzer's bytes.
type fuzzGen struct {
	data []byte
	i    int
}

func (g *fuzzGen) next() int {
	if g.i >= len(g.data) {
		return 0
	}
	g.i++
	return int(g.data[g.i-1])
}

var fuzzValues = []any{nil, true, false, 0.0, 1.0, 2.5, -3.0, "", "a", "abc", "zz", []any{}, []any{1.0}, []any{"a", "a"},
	map[string]any{}, map[string]any{"a": 1.0}, map[string]any{"a": "x"}, map[string]any{"b": nil}, map[string]any{"a": 1.0, "b": "x"},
	map[string]any{"x1": []any{1.0}}, []any{map[string]any{"a": 1.0}}, map[string]any{"a": map[string]any{"a": 1.0}}}

func (g *fuzzGen) value() any { return fuzzValues[g.next()%len(fuzzValues)] }

// schema is a random schema of at most depth levels.
func (g *fuzzGen) schema(depth int) any {
	b := g.next()
	if depth <= 0 || b < 20 {
		return []any{true, false, map[string]any{}, map[string]any{"type": "string"}}[b%4]
	}
	s := map[string]any{}
	for range 1 + b%2 {
		g.keyword(s, depth)
	}
	return s
}

var fuzzTypes = []any{"string", "number", "integer", "object", "array", "null", "boolean", []any{"string", "null"}, []any{"integer", "string"}}

func (g *fuzzGen) keyword(s map[string]any, depth int) {
	sub := func() any { return g.schema(depth - 1) }
	switch g.next() % 26 {
	case 0:
		s["type"] = fuzzTypes[g.next()%len(fuzzTypes)]
	case 1:
		s["enum"] = []any{g.value(), g.value()}
	case 2:
		s["const"] = g.value()
	case 3:
		s["minimum"] = float64(g.next()%4 - 1)
	case 4:
		s["maxLength"] = float64(g.next() % 3)
	case 5:
		s["required"] = []any{[]string{"a", "b"}[g.next()%2]}
	case 6:
		if g.next()%2 == 0 {
			s["properties"] = map[string]any{[]string{"a", "b"}[g.next()%2]: sub()}
		} else {
			s["properties"] = map[string]any{"a": sub(), "b": sub()}
		}
	case 7:
		s["additionalProperties"] = []any{sub(), true, false}[g.next()%3]
	case 8:
		s["items"] = sub()
	case 9:
		s["not"] = sub()
	case 10:
		s["anyOf"] = []any{sub(), sub()}
	case 11:
		s["oneOf"] = []any{sub(), sub()}
	case 12:
		s["allOf"] = []any{sub(), sub()}
	case 13:
		s["$ref"] = "#/$defs/d"
	case 14:
		s["$ref"] = "#d"
	case 15:
		s["if"], s["then"] = sub(), sub()
		if g.next()%2 == 0 {
			s["else"] = sub()
		}
	case 16:
		s["contains"] = sub()
	case 17:
		s["prefixItems"] = []any{sub()}
	case 18:
		s["patternProperties"] = map[string]any{[]string{"^x", "^a", "^\\s"}[g.next()%3]: sub()}
	case 19:
		s["propertyNames"] = sub()
	case 20:
		s["dependentSchemas"] = map[string]any{"a": sub()}
	case 21:
		s["minItems"] = float64(g.next() % 3)
	case 22:
		s["maxProperties"] = float64(g.next() % 3)
	case 23:
		s["pattern"] = []any{"^a", "b", "^z"}[g.next()%3]
	case 24:
		s["unevaluatedProperties"] = sub()
	case 25:
		s["dependentRequired"] = map[string]any{"a": []any{"b"}}
	}
}

// subschemas lists the schema objects in v (their pointers).
func subschemas(v any, ptr string, out *[]string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	*out = append(*out, ptr)
	for _, k := range unionKeys(m, nil) {
		switch x := m[k].(type) {
		case []any:
			if listSub[k] {
				for i, e := range x {
					subschemas(e, fmt.Sprintf("%s/%s/%d", ptr, escape(k), i), out)
				}
			}
		case map[string]any:
			if mapSub[k] {
				for _, kk := range unionKeys(x, nil) {
					subschemas(x[kk], ptr+"/"+escape(k)+"/"+escape(kk), out)
				}
			} else if singleSub[k] {
				subschemas(x, ptr+"/"+escape(k), out)
			}
		}
	}
}

// FuzzSchemaDiff builds a random schema (with a definition reached by
// pointer and by $anchor) and a version of it edited in one place, looks
// for a value the old accepts and the new refuses (the validator says),
// and fails when diff calls the config schema compatible. The one
// exception is the documented policy: an optional member described where
// the old schema left the name open (diff/member-added) is a feature; a
// witness it explains (the new schema without those members accepts it)
// does not count.
func FuzzSchemaDiff(f *testing.F) {
	f.Add([]byte{200, 6, 200, 0, 3, 200, 2, 5, 7, 9, 11, 40, 1, 2, 3})
	f.Add([]byte{100, 13, 50, 0, 1, 30, 9, 99, 200, 0, 2})
	f.Add([]byte{250, 14, 20, 200, 18, 77, 0, 5, 1, 0, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &fuzzGen{data: data}
		def := g.schema(2)
		if m, ok := def.(map[string]any); ok {
			m["$anchor"] = "d"
		} else {
			def = map[string]any{"$anchor": "d", "allOf": []any{def}}
		}
		root := g.schema(3)
		rm, ok := root.(map[string]any)
		if !ok {
			rm = map[string]any{"allOf": []any{root}}
		}
		rm["$defs"] = map[string]any{"d": def}
		old := canonCopy(rm)
		var places []string
		subschemas(rm, "", &places)
		at := places[g.next()%len(places)]
		target, _ := pointerGet(rm, at)
		tm := target.(map[string]any)
		switch g.next() % 3 {
		case 0: // a keyword added (or replaced)
			g.keyword(tm, 2)
		case 1: // a keyword removed
			for _, k := range unionKeys(tm, nil) {
				if k != "$defs" && k != "$anchor" {
					delete(tm, k)
					break
				}
			}
		default: // a keyword replaced by another's value
			g.keyword(tm, 1)
			g.keyword(tm, 1)
		}
		oldFiles := map[string]any{"schemas/c.json": old}
		newFiles := map[string]any{"schemas/c.json": rm}
		os, err1 := validatorFor(oldFiles)
		ns, err2 := validatorFor(newFiles)
		if err1 != nil || err2 != nil {
			return
		}
		var witness any
		found := false
		for _, v := range fuzzValues {
			if os.Validate(v) == nil && ns.Validate(v) != nil {
				witness, found = v, true
				break
			}
		}
		if !found {
			return
		}
		r := roleResult(t, "configSchemaRef", oldFiles, newFiles)
		if len(r.Breaking()) > 0 {
			return
		}
		// The member-added policy, where docs/RULES.md says it holds (checked
		// here on OLD, independently of the comparer): without the members
		// it reported, does the new schema accept the witness?
		stripped := canonCopy(rm)
		policy := false
		for _, c := range r.Changes {
			if c.Rule != RuleMemberAdded {
				continue
			}
			parent, name := c.Pointer[:lastSlash(c.Pointer)], unescape(c.Pointer[lastSlash(c.Pointer)+1:])
			if !policyHolds(old, rm, strings.TrimSuffix(parent, "/properties"), name, c.Pointer) {
				continue
			}
			policy = true
			if pm, ok := pointerGet(stripped, parent); ok {
				delete(pm.(map[string]any), name)
			}
		}
		if policy {
			if ss, err := validatorFor(map[string]any{"schemas/c.json": stripped}); err == nil && ss.Validate(witness) == nil {
				return
			}
		}
		t.Fatalf("old %s\nnew %s\nthe new schema refuses %s, which the old accepts, but diff says %s: %+v", canon(old), canon(rm), canon(witness), r.Verdict, r.Changes)
	})
}

// policyHolds reports whether the member-added policy (docs/RULES.md)
// holds for the member name described at ptr in new, whose object is at
// at in old: the old object neither names nor constrains the name
// (additionalProperties free, not required, no pattern matching it, no
// propertyNames, no dependentSchemas or dependentRequired over it), and
// the new member's schema admits some value the validator accepts.
func policyHolds(old, new any, at, name, ptr string) bool {
	v, ok := pointerGet(old, at)
	om, isObj := v.(map[string]any)
	if !ok || !isObj {
		return false
	}
	props, _ := om["properties"].(map[string]any)
	if _, named := props[name]; named {
		return false
	}
	if ap, has := om["additionalProperties"]; has && ap != true && !(isEmptyObject(ap)) {
		return false
	}
	if stringSet(om["required"])[name] || om["propertyNames"] != nil {
		return false
	}
	pats, _ := om["patternProperties"].(map[string]any)
	for p := range pats {
		re, err := ecmare.Compile(p)
		if err != nil {
			return false
		}
		if ok, err := re.Match(name); ok || err != nil {
			return false
		}
	}
	for _, kw := range []string{"dependentSchemas", "dependentRequired", "dependencies"} {
		deps, _ := om[kw].(map[string]any)
		if _, ok := deps[name]; ok {
			return false
		}
		for _, d := range deps {
			if stringSet(d)[name] {
				return false
			}
		}
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("file:///pack/schemas/c.json", canonCopy(new)); err != nil {
		return false
	}
	s, err := c.Compile("file:///pack/schemas/c.json#" + ptr)
	if err != nil {
		return false
	}
	for _, v := range fuzzValues {
		if s.Validate(v) == nil {
			return true
		}
	}
	return false
}

func isEmptyObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return 0
}

func unescape(tok string) string {
	out := []rune{}
	rs := []rune(tok)
	for i := 0; i < len(rs); i++ {
		if rs[i] == '~' && i+1 < len(rs) {
			out = append(out, map[rune]rune{'0': '~', '1': '/'}[rs[i+1]])
			i++
			continue
		}
		out = append(out, rs[i])
	}
	return string(out)
}
