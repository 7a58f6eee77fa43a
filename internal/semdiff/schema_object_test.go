package semdiff

import (
	"strings"
	"testing"
)

// Issue 42.4: the member-added policy (an optional member described where
// the old schema left the name open is a feature) holds only where the
// name was open: not required, not matched by patternProperties, not
// constrained by propertyNames or dependentSchemas, and the new member's
// schema admits some value. Elsewhere the member is compared with what
// applied to it before; each witness below is confirmed by the validator.
func TestMemberPolicyOnlyWhereItHolds(t *testing.T) {
	t.Parallel()
	str := obj{"type": "string"}
	cases := []struct {
		name     string
		old, new obj
		witness  any
	}{
		{"required before", obj{"type": "object", "required": arr{"a"}}, obj{"type": "object", "required": arr{"a"}, "properties": obj{"a": str}}, obj{"a": 1.0}},
		{"forbidden now", obj{"type": "object"}, obj{"type": "object", "properties": obj{"a": false}}, obj{"a": 1.0}},
		{"admits nothing", obj{"type": "object"}, obj{"type": "object", "properties": obj{"a": obj{"enum": arr{}}}}, obj{"a": 1.0}},
		{"matched by a pattern", obj{"type": "object", "patternProperties": obj{"^a": obj{"type": "number"}}}, obj{"type": "object", "patternProperties": obj{"^a": obj{"type": "number"}}, "properties": obj{"a": obj{"maximum": 3}}}, obj{"a": 5.0}},
		{"propertyNames", obj{"type": "object", "propertyNames": obj{"maxLength": 3}}, obj{"type": "object", "propertyNames": obj{"maxLength": 3}, "properties": obj{"a": str}}, obj{"a": 1.0}},
		{"dependentSchemas", obj{"type": "object", "dependentSchemas": obj{"a": obj{"required": arr{"b"}}}}, obj{"type": "object", "dependentSchemas": obj{"a": obj{"required": arr{"b"}}}, "properties": obj{"a": str}}, obj{"a": 1.0, "b": 1.0}},
		{"required by another member", obj{"type": "object", "dependentRequired": obj{"b": arr{"a"}}}, obj{"type": "object", "dependentRequired": obj{"b": arr{"a"}}, "properties": obj{"a": str}}, obj{"a": 1.0, "b": 1.0}},
	}
	for _, tc := range cases {
		o, n := obj{"schemas/c.json": tc.old}, obj{"schemas/c.json": tc.new}
		os, err1 := validatorFor(o)
		ns, err2 := validatorFor(n)
		if err1 != nil || err2 != nil || os.Validate(tc.witness) != nil || ns.Validate(tc.witness) == nil {
			t.Fatalf("%s: the validator does not confirm the witness (%v %v)", tc.name, err1, err2)
		}
		r := roleResult(t, "configSchemaRef", o, n)
		if len(r.Breaking()) == 0 {
			t.Errorf("%s: NEW refuses %s, which OLD accepts, but diff says %s: %+v", tc.name, canon(tc.witness), r.Verdict, r.Changes)
		}
	}
	// Where the policy holds it is a feature, as docs/RULES.md says.
	r := roleResult(t, "configSchemaRef", obj{"schemas/c.json": obj{"type": "object", "required": arr{"b"}}},
		obj{"schemas/c.json": obj{"type": "object", "required": arr{"b"}, "properties": obj{"a": str}}})
	if len(r.Changes) != 1 || r.Changes[0].Rule != RuleMemberAdded {
		t.Errorf("an optional member described where the name was open: %+v", r.Changes)
	}
}

// Issue 42.1: which members a pattern of patternProperties covers is
// decided as ECMA-262 reads the pattern (\s takes U+00A0; lookahead works),
// not as Go's RE2: a member described where a pattern already admitted it
// narrows the input; where RE2 saw no match it was "accepts more".
func TestPatternPropertiesAreECMA262(t *testing.T) {
	t.Parallel()
	for _, pat := range []string{`^\s`, `^(?!a)\s`, `^[^\w]`} {
		o := obj{"schemas/c.json": obj{"type": "object", "additionalProperties": false, "patternProperties": obj{pat: true}}}
		n := obj{"schemas/c.json": obj{"type": "object", "additionalProperties": false, "patternProperties": obj{pat: true}, "properties": obj{"\u00a0a": obj{"type": "string"}}}}
		witness := obj{"\u00a0a": 1.0}
		os, err1 := validatorFor(o)
		ns, err2 := validatorFor(n)
		if err1 != nil || err2 != nil || os.Validate(witness) != nil || ns.Validate(witness) == nil {
			t.Fatalf("%s: the validator does not confirm the witness (%v %v)", pat, err1, err2)
		}
		r := roleResult(t, "configSchemaRef", o, n)
		if len(r.Breaking()) == 0 {
			t.Errorf("%s: NEW refuses %s, which OLD accepts, but diff says %s: %+v", pat, canon(witness), r.Verdict, r.Changes)
		}
	}
}

// Issue 44.4: a member removed from an output schema that allowed no
// other members is breaking on its own line (consumers that read it get
// nothing), also when it was optional; removed from a config it is still
// an input narrowed.
func TestOutputMemberRemovedIsBreaking(t *testing.T) {
	t.Parallel()
	str := obj{"type": "string"}
	o := obj{"schemas/c.json": obj{"type": "object", "additionalProperties": false, "properties": obj{"text": str, "summary": str}}}
	n := obj{"schemas/c.json": obj{"type": "object", "additionalProperties": false, "properties": obj{"text": str}}}
	r := roleResult(t, "outputSchemaRef", o, n)
	if len(r.Changes) != 1 {
		t.Fatalf("want one change, got %+v", r.Changes)
	}
	c := r.Changes[0]
	if c.Level != Breaking || c.Rule != RuleOfferRemoved || c.Pointer != "/properties/summary" || !strings.Contains(c.Message, `member "summary" was removed`) || !strings.Contains(c.Message, "consumers that read it") {
		t.Errorf("an output member removed: %+v", c)
	}
	// Required before: the same line is breaking, beside the required one.
	o["schemas/c.json"].(obj)["required"] = arr{"summary"}
	for _, c := range roleResult(t, "outputSchemaRef", o, n).Changes {
		if c.Level != Breaking {
			t.Errorf("a required output member removed: a line is not breaking: %+v", c)
		}
	}
	if got := roleResult(t, "configSchemaRef", o, n).Breaking(); len(got) != 1 || got[0].Rule != RuleInputNarrowed {
		t.Errorf("a config member removed: %+v", got)
	}
}
