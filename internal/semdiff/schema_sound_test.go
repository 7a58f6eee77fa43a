package semdiff

import (
	"fmt"
	"strings"
	"testing"
)

// configResult compares a node's config schema (schemas/c.json, other
// files beside it) between two versions, 1.0.0 → 1.0.1, and returns the
// result.
func configResult(t testing.TB, oldFiles, newFiles map[string]any) *Result {
	t.Helper()
	mk := func(v string, files map[string]any) *Pack {
		m := obj{"name": "acme.x", "version": v, "nodes": arr{obj{"typeId": "acme.x.a", "configSchemaRef": "schemas/c.json"}}}
		return mkPack(t, packFiles(m, files, nil))
	}
	return Compare(mk("1.0.0", oldFiles), mk("1.0.1", newFiles))
}

// TestNarrowingBehindEveryKeyword: the shapes the review found (issue 33):
// a definition narrowed (or, under `not`, widened) behind a reference in
// a keyword the comparison did not follow, or behind a reference it could
// not resolve, was "no change"; each is now breaking, and 1.0.0 → 1.0.1
// is refused.
func TestNarrowingBehindEveryKeyword(t *testing.T) {
	t.Parallel()
	narrow := obj{"type": "string", "maxLength": 3}
	wide := obj{"type": "string"}
	cases := []struct {
		name   string
		schema any    // schemas/c.json, with the definition at #/$defs/T
		ref    string // how the schema names it
		widen  bool   // the definition widens instead (under not)
	}{
		{"not", obj{"not": obj{"$ref": "#/$defs/T"}}, "", true},
		{"if", obj{"if": obj{"$ref": "#/$defs/T"}, "then": obj{"maxLength": 1}}, "", false},
		{"patternProperties", obj{"type": "object", "patternProperties": obj{"^x": obj{"$ref": "#/$defs/T"}}}, "", false},
		{"propertyNames", obj{"type": "object", "propertyNames": obj{"$ref": "#/$defs/T"}}, "", false},
		{"dependentSchemas", obj{"type": "object", "dependentSchemas": obj{"a": obj{"properties": obj{"b": obj{"$ref": "#/$defs/T"}}}}}, "", false},
		{"unevaluatedProperties", obj{"type": "object", "unevaluatedProperties": obj{"$ref": "#/$defs/T"}}, "", false},
		{"contains", obj{"type": "array", "contains": obj{"$ref": "#/$defs/T"}}, "", false},
		{"prefixItems", obj{"type": "array", "prefixItems": arr{obj{"$ref": "#/$defs/T"}}}, "", false},
		{"draft-07 tuple items", obj{"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": arr{obj{"$ref": "#/definitions/T"}}}, "definitions", false},
		{"$anchor", obj{"$ref": "#txt"}, "anchor", false},
		{"percent-encoded pointer", obj{"$ref": "#/$defs/my%20text"}, "my text", false},
		{"escaped pointer", obj{"$ref": "#/$defs/a~1b~0c"}, "a/b~c", false},
		{"other file by $id base", obj{"$id": "https://packs.example/acme.x/c.json", "$ref": "t.json"}, "file", false},
		{"allOf", obj{"allOf": arr{obj{"$ref": "#/$defs/T"}, obj{"minLength": 1}}}, "", false},
		{"anyOf", obj{"anyOf": arr{obj{"$ref": "#/$defs/T"}, obj{"type": "null"}}}, "", false},
		{"oneOf", obj{"oneOf": arr{obj{"$ref": "#/$defs/T"}, obj{"type": "null"}}}, "", false},
		{"additionalProperties", obj{"type": "object", "additionalProperties": obj{"$ref": "#/$defs/T"}}, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			build := func(def any) map[string]any {
				s := canonCopy(tc.schema).(map[string]any)
				files := obj{}
				switch tc.ref {
				case "":
					s["$defs"] = obj{"T": def}
				case "definitions":
					s["definitions"] = obj{"T": def}
				case "anchor":
					d := canonCopy(def).(map[string]any)
					d["$anchor"] = "txt"
					s["$defs"] = obj{"T": d}
				case "file":
					files["schemas/t.json"] = obj{"$id": "https://packs.example/acme.x/t.json", "type": def.(map[string]any)["type"], "maxLength": def.(map[string]any)["maxLength"]}
					if def.(map[string]any)["maxLength"] == nil {
						delete(files["schemas/t.json"].(map[string]any), "maxLength")
					}
				default:
					s["$defs"] = obj{tc.ref: def}
				}
				files["schemas/c.json"] = s
				return files
			}
			o, n := wide, narrow
			if tc.widen {
				o, n = narrow, wide
			}
			r := configResult(t, build(o), build(n))
			if len(r.Breaking()) == 0 || r.VersionOK {
				t.Errorf("not breaking: %s; %+v", r.Verdict, r.Changes)
			}
			// The same on both sides is no change at all.
			if r := configResult(t, build(o), build(o)); len(r.Changes) != 0 {
				t.Errorf("unchanged: %+v", r.Changes)
			}
		})
	}
}

// canonCopy is a deep copy of a JSON value.
func canonCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, vv := range x {
			m[k] = canonCopy(vv)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, vv := range x {
			l[i] = canonCopy(vv)
		}
		return l
	}
	return v
}

// TestUnresolvedIsNotProven: a reference that leads nowhere in the pack
// (an anchor or pointer it does not hold, a file above the pack) is not
// "the same schema" because it is spelled the same: could not prove.
func TestUnresolvedIsNotProven(t *testing.T) {
	t.Parallel()
	for _, ref := range []string{"#nowhere", "#/$defs/missing", "../../outside.json", "missing.json"} {
		s := obj{"schemas/c.json": obj{"type": "object", "properties": obj{"a": obj{"$ref": ref}, "b": obj{"type": "string"}}}}
		s2 := obj{"schemas/c.json": obj{"type": "object", "properties": obj{"a": obj{"$ref": ref}, "b": obj{"type": "string", "description": "B."}}}}
		r := configResult(t, s, s2)
		found := false
		for _, c := range r.Changes {
			if c.Rule == RuleSchemaUndecided && strings.Contains(c.Message, "leads to nothing the pack holds") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %+v", ref, r.Changes)
		}
	}
}

// TestUnknownKeywordNotProven: a keyword wopkit does not read, added,
// removed or changed, is "could not prove compatible", in either role.
func TestUnknownKeywordNotProven(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]any{
		{obj{"type": "string"}, obj{"type": "string", "nullable": true}},
		{obj{"type": "string", "nullable": true}, obj{"type": "string"}},
		{obj{"type": "string", "discriminator": "a"}, obj{"type": "string", "discriminator": "b"}},
	} {
		got := schemaChanges(t, "outputSchemaRef", obj{"schemas/c.json": pair[0]}, obj{"schemas/c.json": pair[1]})
		if len(got) != 1 || got[0].Rule != RuleSchemaUndecided {
			t.Errorf("%v → %v: %+v", pair[0], pair[1], got)
		}
	}
}

// quadratic is the review's shape: a recursive definition of n members
// (old) against a chain of n distinct definitions (new).
func quadratic(n int) (old, new map[string]any) {
	members := obj{}
	for i := range n {
		members[fmt.Sprintf("member%04d", i)] = obj{"$ref": "#/$defs/R"}
	}
	old = obj{"schemas/c.json": obj{"$ref": "#/$defs/R", "$defs": obj{"R": obj{"type": "object", "properties": members}}}}
	defs := obj{}
	for i := range n {
		defs[fmt.Sprintf("D%04d", i)] = obj{"type": "object", "properties": obj{"member0000": obj{"$ref": fmt.Sprintf("#/$defs/D%04d", (i+1)%n)}}}
	}
	new = obj{"schemas/c.json": obj{"$ref": "#/$defs/D0000", "$defs": defs}}
	return old, new
}

// TestQuadraticBounded: the review's quadratic pair (~110 KB schemas)
// gives a verdict within the work budget, each change listed once (not
// once per definition of the chain that reaches it).
func TestQuadraticBounded(t *testing.T) {
	t.Parallel()
	o, n := quadratic(2000)
	if size := len(js(o["schemas/c.json"])) + len(js(n["schemas/c.json"])); size < 150_000 {
		t.Fatalf("the schemas hold %d bytes, want the review's ~2×110 KB", size)
	}
	r := configResult(t, o, n)
	if len(r.Breaking()) == 0 || r.VersionOK {
		t.Fatalf("not breaking: %s", r.Verdict)
	}
	seen := map[string]bool{}
	for _, c := range r.Changes {
		key := c.Message
		if seen[key] {
			t.Errorf("listed twice: %s", key)
		}
		seen[key] = true
	}
	if len(r.Changes) > 2100 {
		t.Errorf("%d changes for 2000 members", len(r.Changes))
	}
	// A small pair of the same shape is compared whole: no budget note.
	o, n = quadratic(40)
	for _, c := range configResult(t, o, n).Changes {
		if strings.Contains(c.Message, "too large") {
			t.Errorf("40 members: %s", c.Message)
		}
	}
}

// BenchmarkQuadratic is the review's quadratic pair: before issue 33, 12 s
// and 314 MB (N² changes listed).
func BenchmarkQuadratic(b *testing.B) {
	o, n := quadratic(2000)
	b.ReportAllocs()
	for b.Loop() {
		configResult(b, o, n)
	}
}

// large is a schema of about 5 MiB (the registry's limit for a file): n
// members, each an object of a few typed members; changed narrows one.
func large(n int, changed bool) map[string]any {
	props := obj{}
	for i := range n {
		props[fmt.Sprintf("member%05d", i)] = obj{"type": "object", "description": "A member of the large schema, described at some length.",
			"properties": obj{"id": obj{"type": "string", "minLength": 1}, "count": obj{"type": "integer", "minimum": 0},
				"kind": obj{"enum": arr{"a", "b", "c"}}, "tags": obj{"type": "array", "items": obj{"$ref": "#/$defs/tag"}}}}
	}
	tag := obj{"type": "string", "maxLength": 64}
	if changed {
		props[fmt.Sprintf("member%05d", n/2)].(map[string]any)["required"] = arr{"id"}
		tag = obj{"type": "string", "maxLength": 32}
	}
	return obj{"schemas/c.json": obj{"type": "object", "properties": props, "$defs": obj{"tag": tag}}}
}

// TestLargeSchemaWithinBudget: a schema at the registry's size limit with
// two narrowings (one in place, one behind a reference every member
// uses) is compared whole: both found, each once, no budget note.
func TestLargeSchemaWithinBudget(t *testing.T) {
	t.Parallel()
	o, n := large(17000, false), large(17000, true)
	if size := len(js(o["schemas/c.json"])); size < 4<<20 || size > 5<<20 {
		t.Fatalf("the schema holds %d bytes, want 4-5 MiB", size)
	}
	r := configResult(t, o, n)
	if len(r.Changes) != 2 {
		t.Fatalf("want 2 changes, got %d: %+v", len(r.Changes), r.Changes[:min(len(r.Changes), 5)])
	}
	for _, c := range r.Changes {
		if c.Rule != RuleInputNarrowed || strings.Contains(c.Message, "too large") {
			t.Errorf("%+v", c)
		}
	}
}

// BenchmarkLargeSchema: a 5 MiB schema against itself narrowed in two
// places.
func BenchmarkLargeSchema(b *testing.B) {
	o, n := large(17000, false), large(17000, true)
	b.ReportAllocs()
	for b.Loop() {
		configResult(b, o, n)
	}
}
