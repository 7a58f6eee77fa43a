package semdiff

import "testing"

const (
	d2019 = "https://json-schema.org/draft/2019-09/schema"
	d07   = "http://json-schema.org/draft-07/schema#"
)

// Issue 42.3: a schema is read with its own dialect's keywords. Draft
// 2019-09's $recursiveRef is followed (a narrowing behind it is found) and,
// where its target has $recursiveAnchor, could not be proved; each witness
// is confirmed by the validator.
func TestDialect2019RecursiveRef(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		old, new obj
		witness  any
	}{
		{"behind $recursiveRef",
			obj{"$schema": d2019, "properties": obj{"a": obj{"$recursiveRef": "#/$defs/T"}}, "$defs": obj{"T": obj{"type": "string"}}},
			obj{"$schema": d2019, "properties": obj{"a": obj{"$recursiveRef": "#/$defs/T"}}, "$defs": obj{"T": obj{"type": "string", "maxLength": 3}}},
			obj{"a": "abcd"}},
		{"a recursive tree",
			obj{"$schema": d2019, "$recursiveAnchor": true, "type": "object", "properties": obj{"kids": obj{"type": "array", "items": obj{"$recursiveRef": "#"}}, "n": obj{"$ref": "#/$defs/N"}}, "$defs": obj{"N": obj{"type": "integer"}}},
			obj{"$schema": d2019, "$recursiveAnchor": true, "type": "object", "properties": obj{"kids": obj{"type": "array", "items": obj{"$recursiveRef": "#"}}, "n": obj{"$ref": "#/$defs/N"}}, "$defs": obj{"N": obj{"type": "integer", "maximum": 5}}},
			obj{"kids": arr{obj{"n": 7.0}}}},
	}
	for _, tc := range cases {
		o, n := obj{"schemas/c.json": tc.old}, obj{"schemas/c.json": tc.new}
		os, err1 := validatorFor(o)
		ns, err2 := validatorFor(n)
		if err1 != nil || err2 != nil || os.Validate(tc.witness) != nil || ns.Validate(tc.witness) == nil {
			t.Fatalf("%s: the validator does not confirm the witness (%v %v)", tc.name, err1, err2)
		}
		if r := roleResult(t, "configSchemaRef", o, n); len(r.Breaking()) == 0 {
			t.Errorf("%s: NEW refuses %s, which OLD accepts, but diff says %s: %+v", tc.name, canon(tc.witness), r.Verdict, r.Changes)
		}
		if r := roleResult(t, "configSchemaRef", o, o); len(r.Changes) != 0 {
			t.Errorf("%s: unchanged, but %+v", tc.name, r.Changes)
		}
	}
}

// A keyword beside $ref in draft-07 is ignored (no change when it is added
// or removed); a keyword the dialect does not define is not read as the
// other dialects' (prefixItems in draft-07 changed: could not prove); a
// draft wopkit does not read (draft-04) is could-not-prove when it changed.
func TestDialectsReadTheirOwnKeywords(t *testing.T) {
	t.Parallel()
	ref07 := func(extra obj) obj {
		a := obj{"$ref": "#/definitions/T"}
		for k, v := range extra {
			a[k] = v
		}
		return obj{"$schema": d07, "properties": obj{"a": a}, "definitions": obj{"T": obj{"type": "string"}}}
	}
	if got := schemaChanges(t, "configSchemaRef", obj{"schemas/c.json": ref07(nil)}, obj{"schemas/c.json": ref07(obj{"maxLength": 2.0})}); len(got) != 0 {
		t.Errorf("draft-07: a keyword beside $ref is ignored, but %+v", got)
	}
	got := schemaChanges(t, "configSchemaRef", obj{"schemas/c.json": obj{"$schema": d07, "prefixItems": arr{obj{"type": "string"}}}},
		obj{"schemas/c.json": obj{"$schema": d07, "prefixItems": arr{obj{"type": "integer"}}}})
	if len(got) != 1 || got[0].Rule != RuleSchemaUndecided || got[0].Pointer != "/prefixItems" {
		t.Errorf("draft-07 prefixItems: %+v", got)
	}
	d04 := "http://json-schema.org/draft-04/schema#"
	got = schemaChanges(t, "configSchemaRef", obj{"schemas/c.json": obj{"$schema": d04, "maximum": 5.0, "exclusiveMaximum": true}},
		obj{"schemas/c.json": obj{"$schema": d04, "maximum": 5.0, "exclusiveMaximum": false}})
	if len(got) != 1 || got[0].Rule != RuleSchemaUndecided {
		t.Errorf("draft-04: %+v", got)
	}
}
