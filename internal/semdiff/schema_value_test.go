package semdiff

import (
	"encoding/json"
	"testing"
)

// Issue 42.5: numbers are compared exactly: a const, an enum member or a
// bound that changes past 2^53 (where float64s are equal) is seen.
func TestNumbersPast2To53(t *testing.T) {
	t.Parallel()
	big1, big2 := json.Number("9007199254740993"), json.Number("9007199254740992")
	cases := []struct {
		name     string
		old, new obj
		witness  any
	}{
		{"const", obj{"const": big1}, obj{"const": big2}, big1},
		{"enum", obj{"enum": arr{big1, "a"}}, obj{"enum": arr{big2, "a"}}, big1},
		{"maximum", obj{"type": "integer", "maximum": big1}, obj{"type": "integer", "maximum": big2}, big1},
		{"decimal", obj{"const": json.Number("0.10000000000000000001")}, obj{"const": json.Number("0.1")}, json.Number("0.10000000000000000001")},
	}
	for _, tc := range cases {
		o, n := obj{"schemas/c.json": tc.old}, obj{"schemas/c.json": tc.new}
		os, err1 := validatorFor(o)
		ns, err2 := validatorFor(n)
		if err1 != nil || err2 != nil || os.Validate(tc.witness) != nil || ns.Validate(tc.witness) == nil {
			t.Fatalf("%s: the validator does not confirm the witness (%v %v)", tc.name, err1, err2)
		}
		if r := roleResult(t, "configSchemaRef", o, n); len(r.Breaking()) == 0 {
			t.Errorf("%s: NEW refuses %s, which OLD accepts, but diff says %s: %+v", tc.name, tc.witness, r.Verdict, r.Changes)
		}
		if r := roleResult(t, "configSchemaRef", o, o); len(r.Changes) != 0 {
			t.Errorf("%s: no change, but %+v", tc.name, r.Changes)
		}
	}
}

// Issue 42.6: on an integer, exclusiveMinimum 5 and minimum 6 are the
// same bound, and minimum 5 is a wider one.
func TestIntegerBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		old, new obj
		want     string // "" no change, else the rule
	}{
		{obj{"type": "integer", "exclusiveMinimum": 5}, obj{"type": "integer", "minimum": 6}, ""},
		{obj{"type": "integer", "exclusiveMinimum": 5}, obj{"type": "integer", "minimum": 5}, RuleInputWidened},
		{obj{"type": "integer", "maximum": 9.5}, obj{"type": "integer", "exclusiveMaximum": 10}, ""},
		{obj{"type": "number", "exclusiveMinimum": 5}, obj{"type": "number", "minimum": 6}, RuleInputNarrowed},
		{obj{"type": "number", "minimum": 5}, obj{"type": "number", "exclusiveMinimum": 5}, RuleInputNarrowed},
		{obj{"type": "number", "minimum": 5, "exclusiveMinimum": 6}, obj{"type": "number", "exclusiveMinimum": 6}, ""},
	} {
		got := schemaChanges(t, "configSchemaRef", obj{"schemas/c.json": tc.old}, obj{"schemas/c.json": tc.new})
		switch {
		case tc.want == "" && len(got) != 0, tc.want != "" && (len(got) != 1 || got[0].Rule != tc.want):
			t.Errorf("%v → %v: %+v, want %q", tc.old, tc.new, got, tc.want)
		}
	}
}
