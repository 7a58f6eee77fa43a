package semdiff

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/ecmare"
	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/third_party/jsonschema"
)

// The oracle: real schemas, narrowed in place and behind references in
// every subschema keyword, the truth of each pair told by the validator
// (third_party/jsonschema, santhosh-tekuri/jsonschema/v6) on a witness
// value, never by the comparer under test.

// realSchemas are the JSON Schemas wopkit's scaffold writes (always
// present) and, when ../shared/fixtures is there, the fixture packs'.
func realSchemas(t *testing.T) map[string]any {
	t.Helper()
	out := map[string]any{}
	a := scaffold.PackAnswers{}.Defaults()
	a.Name = "vendor.acme.oracle"
	ag := scaffold.AgentAnswers{}.Defaults()
	a.Agents = []scaffold.AgentAnswers{ag}
	p, err := scaffold.PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Files {
		addSchema(out, "scaffold:"+f.Path, f.Data)
	}
	if len(out) == 0 {
		t.Fatal("the scaffold wrote no schema")
	}
	fx := filepath.Join("..", "..", "..", "shared", "fixtures")
	if _, err := os.Stat(fx); err != nil {
		t.Logf("../shared/fixtures is absent (%v): the scaffold's schemas only", err)
		return out
	}
	paths, _ := filepath.Glob(filepath.Join(fx, "history", "*", "*.tgz"))
	more, _ := filepath.Glob(filepath.Join(fx, "registry", "v1", "packs", "*", "-", "*.tgz"))
	for _, tgz := range append(paths, more...) {
		pk, err := Load(tgz, LoadOptions{})
		if err != nil {
			continue
		}
		for name, data := range pk.Files {
			if strings.HasPrefix(name, "schemas/") {
				addSchema(out, filepath.Base(tgz)+":"+name, data)
			}
		}
	}
	return out
}

func addSchema(out map[string]any, name string, data []byte) {
	if !strings.HasSuffix(name, ".json") {
		return
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return
	}
	m, ok := v.(map[string]any)
	if !ok || m["$schema"] == nil && m["type"] == nil {
		return
	}
	delete(m, "$id") // the wrappers place it in a pack of their own
	if strings.Contains(string(data), `"$ref"`) {
		return // its references lead to files of its own pack
	}
	out[name] = m
}

// sample is a value the schema s probably accepts (the validator says).
func sample(s any, depth int) any {
	m, ok := s.(map[string]any)
	if !ok || depth > 6 {
		return nil
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if d, ok := m["default"]; ok {
		return d
	}
	ty := m["type"]
	if l, ok := ty.([]any); ok && len(l) > 0 {
		ty = l[0]
	}
	switch ty {
	case "object":
		out := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		for _, k := range unionKeys(props, nil) {
			out[k] = sample(props[k], depth+1)
		}
		return out
	case "array":
		if it, ok := m["items"]; ok {
			return []any{sample(it, depth+1)}
		}
		return []any{}
	case "string":
		n := 1
		if f, ok := m["minLength"].(float64); ok {
			n = int(f)
		}
		if m["format"] == "uri" {
			return "https://example.com/a"
		}
		return strings.Repeat("a", n)
	case "integer", "number":
		if f, ok := m["minimum"].(float64); ok {
			return f
		}
		return 1.0
	case "boolean":
		return true
	case "null":
		return nil
	}
	return "a"
}

// mutation narrows the schema object s (a copy) and returns the value
// (in place of a value s accepted) that it should now refuse.
type mutation struct {
	name  string
	apply func(s map[string]any) (violator any, ok bool)
}

var mutations = []mutation{
	{"required added", func(s map[string]any) (any, bool) {
		if s["type"] != "object" {
			return nil, false
		}
		v := sample(s, 0).(map[string]any)
		req := stringSet(s["required"])
		props, _ := s["properties"].(map[string]any)
		for _, k := range unionKeys(props, nil) {
			if !req[k] {
				s["required"] = append(anyList(s["required"]), k)
				delete(v, k)
				return v, true
			}
		}
		s["required"] = append(anyList(s["required"]), "zzNew")
		return v, true
	}},
	{"enum value removed", func(s map[string]any) (any, bool) {
		e, ok := s["enum"].([]any)
		if !ok || len(e) < 2 {
			return nil, false
		}
		s["enum"] = e[1:]
		return e[0], true
	}},
	{"type narrowed", func(s map[string]any) (any, bool) {
		switch ty := s["type"].(type) {
		case []any:
			if len(ty) < 2 {
				return nil, false
			}
			s["type"] = ty[1:]
			return sample(map[string]any{"type": ty[0]}, 0), true
		case string:
			if ty == "number" {
				s["type"] = "integer"
				return 1.5, true
			}
		case nil:
			v := sample(s, 0)
			s["type"] = "null"
			return v, v != nil
		}
		return nil, false
	}},
	{"bound tightened", func(s map[string]any) (any, bool) {
		switch s["type"] {
		case "string":
			v := sample(s, 0)
			str, _ := v.(string)
			s["minLength"] = float64(len(str) + 1)
			return str, true
		case "integer", "number":
			v, _ := sample(s, 0).(float64)
			s["minimum"] = v + 1
			return v, true
		case "array":
			s["maxItems"] = 0.0
			return sample(s, 0), true
		case "object":
			s["maxProperties"] = 0.0
			v := sample(s, 0).(map[string]any)
			v["zzOne"] = 1.0
			return v, true
		}
		return nil, false
	}},
	{"pattern added", func(s map[string]any) (any, bool) {
		if s["type"] != "string" || s["pattern"] != nil {
			return nil, false
		}
		s["pattern"] = "^zz"
		return sample(s, 0), true
	}},
	{"additionalProperties closed", func(s map[string]any) (any, bool) {
		if s["type"] != "object" || s["additionalProperties"] == false {
			return nil, false
		}
		v := sample(s, 0).(map[string]any)
		s["additionalProperties"] = false
		v["zzExtra"] = 1.0
		return v, true
	}},
	{"const", func(s map[string]any) (any, bool) {
		if _, has := s["const"]; has {
			return nil, false
		}
		v := sample(s, 0)
		s["const"] = "zzOnly"
		return v, v != "zzOnly"
	}},
	{"ECMA-262 pattern added", func(s map[string]any) (any, bool) {
		// \S refuses U+00A0 for ECMA-262 (ajv), not for Go's RE2.
		if s["type"] != "string" || s["pattern"] != nil || s["format"] != nil {
			return nil, false
		}
		v, _ := sample(s, 0).(string)
		s["pattern"] = `^(?=.)\S*$`
		return v + "\u00a0", true
	}},
	{"not added", func(s map[string]any) (any, bool) {
		v := sample(s, 0)
		s["not"] = map[string]any{"const": v}
		return v, true
	}},
}

func anyList(v any) []any { l, _ := v.([]any); return append([]any(nil), l...) }

// positions are the subschema places in s a mutation is tried at (the
// root, each property, the items), with the path of the value they
// describe.
func positions(s any, ptr string, data []string, out *[]position) {
	m, ok := s.(map[string]any)
	if !ok || len(*out) > 12 {
		return
	}
	*out = append(*out, position{ptr, data})
	props, _ := m["properties"].(map[string]any)
	for _, k := range unionKeys(props, nil) {
		positions(props[k], ptr+"/properties/"+escape(k), append(clone(data), k), out)
	}
	if it, ok := m["items"].(map[string]any); ok {
		positions(it, ptr+"/items", append(clone(data), "0"), out)
	}
}

func clone(s []string) []string { return append([]string(nil), s...) }

type position struct {
	ptr  string
	data []string // members and item indexes down to the value
}

// setAt replaces the value at path in v (a copy) with x.
func setAt(v any, path []string, x any) (any, bool) {
	if len(path) == 0 {
		return x, true
	}
	switch c := v.(type) {
	case map[string]any:
		sub, ok := setAt(c[path[0]], path[1:], x)
		c[path[0]] = sub
		return c, ok
	case []any:
		if len(c) == 0 {
			return v, false
		}
		sub, ok := setAt(c[0], path[1:], x)
		c[0] = sub
		return c, ok
	}
	return v, false
}

// wrapper places the real schema (a file of the pack, named by ref) under
// one subschema keyword of the config schema, and lifts a value of the
// real schema to one of the config.
type wrapper struct {
	name     string
	schema   func(ref string) any
	lift     func(v any) (any, bool)
	monotone bool // a narrowing inside is a narrowing outside, and wopkit proves the reverse a widening
}

func asIs(v any) (any, bool)    { return v, true }
func inArray(v any) (any, bool) { return []any{v}, true }
func ref(r string) any          { return map[string]any{"$ref": r} }

var wrappers = []wrapper{
	{"$ref", func(r string) any { return ref(r) }, asIs, true},
	{"$recursiveRef (2019-09)", func(r string) any {
		return obj{"$schema": "https://json-schema.org/draft/2019-09/schema", "properties": obj{"x": obj{"$recursiveRef": r}}}
	}, func(v any) (any, bool) { return obj{"x": v}, true }, true},
	{"allOf", func(r string) any { return obj{"allOf": arr{ref(r), obj{}}} }, asIs, true},
	{"anyOf", func(r string) any { return obj{"anyOf": arr{ref(r), obj{"const": "zzAny"}}} }, asIs, true},
	{"oneOf", func(r string) any { return obj{"oneOf": arr{ref(r), obj{"const": "zzOne"}}} }, asIs, false},
	{"not", func(r string) any { return obj{"not": ref(r)} }, asIs, false},
	{"if", func(r string) any { return obj{"if": ref(r), "then": false} }, asIs, false},
	{"then", func(r string) any { return obj{"if": true, "then": ref(r)} }, asIs, true},
	{"else", func(r string) any { return obj{"if": false, "else": ref(r)} }, asIs, true},
	{"properties", func(r string) any { return obj{"properties": obj{"x": ref(r)}} }, func(v any) (any, bool) { return obj{"x": v}, true }, true},
	{"patternProperties", func(r string) any { return obj{"patternProperties": obj{"^x": ref(r)}} }, func(v any) (any, bool) { return obj{"xa": v}, true }, true},
	{"patternProperties (ECMA-262 \\s)", func(r string) any { return obj{"patternProperties": obj{`^\s`: ref(r)}} }, func(v any) (any, bool) { return obj{"\u00a0x": v}, true }, true},
	{"additionalProperties", func(r string) any { return obj{"properties": obj{"a": true}, "additionalProperties": ref(r)} }, func(v any) (any, bool) { return obj{"zz": v}, true }, true},
	{"propertyNames", func(r string) any { return obj{"type": "object", "propertyNames": ref(r)} }, func(v any) (any, bool) {
		s, ok := v.(string)
		return obj{s: 1.0}, ok
	}, true},
	{"dependentSchemas", func(r string) any { return obj{"dependentSchemas": obj{"zzKey": ref(r)}} }, func(v any) (any, bool) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		c := canonCopy(m).(map[string]any)
		c["zzKey"] = true
		return c, true
	}, false},
	{"prefixItems", func(r string) any { return obj{"prefixItems": arr{ref(r)}} }, inArray, true},
	{"items", func(r string) any { return obj{"items": ref(r)} }, inArray, true},
	{"contains", func(r string) any { return obj{"contains": ref(r)} }, inArray, true},
	{"unevaluatedProperties", func(r string) any { return obj{"unevaluatedProperties": ref(r)} }, func(v any) (any, bool) { return obj{"zz": v}, true }, false},
	{"unevaluatedItems", func(r string) any { return obj{"unevaluatedItems": ref(r)} }, inArray, false},
}

// refStyles are the ways the config names the real schema: a file, a
// pointer, a percent-encoded and an escaped pointer, an $anchor, an $id.
var refStyles = []struct {
	name  string
	ref   string
	place func(files map[string]any, real any) // puts real where ref leads
}{
	{"file", "real.json", func(f map[string]any, r any) { f["schemas/real.json"] = r }},
	{"pointer", "#/$defs/real", func(f map[string]any, r any) { defs(f)["real"] = r }},
	{"percent-encoded", "#/$defs/my%20real", func(f map[string]any, r any) { defs(f)["my real"] = r }},
	{"escaped", "#/$defs/a~1real~0", func(f map[string]any, r any) { defs(f)["a/real~"] = r }},
	{"anchor", "#real", func(f map[string]any, r any) {
		c := canonCopy(r).(map[string]any)
		c["$anchor"] = "real"
		defs(f)["anchored"] = c
	}},
	{"$id", "https://packs.example/acme.x/real.json", func(f map[string]any, r any) {
		c := canonCopy(r).(map[string]any)
		c["$id"] = "https://packs.example/acme.x/real.json"
		f["schemas/other/real.json"] = c
	}},
}

func defs(f map[string]any) map[string]any {
	c := f["schemas/c.json"].(map[string]any)
	d, ok := c["$defs"].(map[string]any)
	if !ok {
		d = map[string]any{}
		c["$defs"] = d
	}
	return d
}

// validatorFor compiles the pack's config schema with the validator,
// its patterns read as ECMA-262 (internal/ecmare, itself checked against
// ajv's verdicts).
func validatorFor(files map[string]any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := ecmare.Cached(s)
		if err != nil {
			return nil, err
		}
		return re, nil
	})
	for _, name := range unionKeys(files, nil) {
		url := "file:///pack/" + name
		if id, ok := files[name].(map[string]any)["$id"].(string); ok {
			url = id // the validator finds a file by its $id only once it has read it
		}
		if err := c.AddResource(url, canonCopy(files[name])); err != nil {
			return nil, err
		}
	}
	return c.Compile("file:///pack/schemas/c.json")
}

// oraclePair is one pair of config schemas and a value that tells them
// apart.
type oraclePair struct {
	name         string
	narrow, wide map[string]any // the files of the narrowed and of the original pack
	witness      any
	monotone     bool
	mutation     string
}

// oraclePairs builds the pairs: each real schema, narrowed by each
// mutation at each position, placed under each wrapper by each reference
// style (rotating through the styles and wrappers so that every one is
// used with every mutation).
func oraclePairs(t *testing.T) []oraclePair {
	reals := realSchemas(t)
	names := unionKeys(reals, nil)
	var out []oraclePair
	turn := 0
	for _, name := range names {
		real := reals[name]
		var pos []position
		positions(real, "", nil, &pos)
		base := sample(real, 0)
		for _, p := range pos {
			for _, mu := range mutations {
				narrowed := canonCopy(real)
				sv, _ := pointerGet(narrowed, p.ptr)
				viol, ok := mu.apply(sv.(map[string]any))
				if !ok {
					continue
				}
				witness, ok := setAt(canonCopy(base), p.data, viol)
				if !ok {
					continue
				}
				{
					turn++
					w := wrappers[turn%len(wrappers)]
					st := refStyles[(turn/len(wrappers))%len(refStyles)]
					// Every other pair (and every propertyNames one) names
					// the mutated place itself, not the whole schema.
					r, value := st.ref, witness
					if (turn%2 == 1 || w.name == "propertyNames") && st.name != "anchor" && p.ptr != "" {
						r, value = st.ref+strings.TrimPrefix(p.ptr, "#"), viol
						if !strings.Contains(st.ref, "#") {
							r = st.ref + "#" + p.ptr
						}
					}
					lifted, ok := w.lift(value)
					if !ok {
						continue
					}
					build := func(real any) map[string]any {
						files := map[string]any{"schemas/c.json": w.schema(r)}
						st.place(files, canonCopy(real))
						return files
					}
					out = append(out, oraclePair{fmt.Sprintf("%s %s at %q under %s by %s", name, mu.name, p.ptr, w.name, st.name),
						build(narrowed), build(real), lifted, w.monotone, mu.name})
				}
			}
		}
	}
	// Every third pair is kept (the rotation still reaches every wrapper
	// and reference style): the suite stays within seconds.
	kept := out[:0]
	for i, pr := range out {
		if i%3 == 0 || strings.HasPrefix(pr.name, "scaffold:") {
			kept = append(kept, pr)
		}
	}
	return kept
}

// TestOracleNarrowings: every pair the validator shows to be a narrowing
// (the old schema accepts the witness, the new one refuses it) is
// breaking for a config (input) schema, and its reverse, a widening, is
// breaking for an output schema; a widening under a keyword where
// narrowing inside narrows outside is not breaking for a config.
func TestOracleNarrowings(t *testing.T) {
	t.Parallel()
	pairs := oraclePairs(t)
	checked, widenings := 0, 0
	byWrapper, byMutation := map[string]int{}, map[string]int{}
	for _, pr := range pairs {
		ns, err1 := validatorFor(pr.narrow)
		ws, err2 := validatorFor(pr.wide)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: the validator cannot compile the pair: %v %v", pr.name, err1, err2)
		}
		wideOK, narrowOK := ws.Validate(pr.witness) == nil, ns.Validate(pr.witness) == nil
		var old, new map[string]any
		forward := false
		switch {
		case wideOK && !narrowOK:
			old, new, forward = pr.wide, pr.narrow, true // narrowing from old to new
		case narrowOK && !wideOK:
			old, new = pr.narrow, pr.wide // the wrapper turned it round (not, if)
		default:
			continue // the witness tells nothing
		}
		checked++
		byWrapper[strings.SplitN(pr.name, " under ", 2)[1]]++
		byMutation[pr.mutation]++
		if r := roleResult(t, "configSchemaRef", old, new); len(r.Breaking()) == 0 {
			t.Errorf("%s: the validator refuses %s now, but a config's diff says %s: %+v", pr.name, short(pr.witness), r.Verdict, r.Changes)
		}
		if r := roleResult(t, "outputSchemaRef", new, old); len(r.Breaking()) == 0 {
			t.Errorf("%s (reversed): an output now may return %s, but diff says %s: %+v", pr.name, short(pr.witness), r.Verdict, r.Changes)
		}
		if pr.monotone && forward {
			widenings++
			if r := roleResult(t, "configSchemaRef", new, old); len(r.Breaking()) != 0 {
				t.Errorf("%s (reversed): a config that accepts more is breaking: %+v", pr.name, r.Breaking())
			}
		}
	}
	keys := make([]string, 0, len(byWrapper))
	for k := range byWrapper {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("%d pairs built, %d with a witness the validator confirms, %d widenings checked; by mutation %v; by keyword and reference: %v", len(pairs), checked, widenings, byMutation, keys)
	if _, ok := fixtures.Find(); !ok {
		// The scaffold's schemas alone make too few pairs for the bounds.
		t.Skipf("shared fixtures not found (../shared/fixtures, beside the repository on developer machines and in CI): the %d pairs from the scaffold's schemas were checked; the bounds on how many (300) and under which keywords need the fixtures' schemas", checked)
	}
	if checked < 300 {
		t.Errorf("only %d pairs had a witness", checked)
	}
	for _, mu := range mutations {
		if byMutation[mu.name] == 0 {
			t.Errorf("no confirmed pair of the mutation %s", mu.name)
		}
	}
	for _, w := range wrappers {
		found := false
		for k := range byWrapper {
			found = found || strings.HasPrefix(k, w.name+" by ")
		}
		if !found {
			t.Errorf("no confirmed pair under %s", w.name)
		}
	}
}

// roleResult compares schemas/c.json (and its files) of one node in role.
func roleResult(t *testing.T, role string, oldFiles, newFiles map[string]any) *Result {
	t.Helper()
	mk := func(v string, files map[string]any) *Pack {
		m := obj{"name": "acme.x", "version": v, "nodes": arr{obj{"typeId": "acme.x.a", role: "schemas/c.json"}}}
		return mkPack(t, packFiles(m, files, nil))
	}
	return Compare(mk("1.0.0", oldFiles), mk("1.0.1", newFiles))
}
