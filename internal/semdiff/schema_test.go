package semdiff

import (
	"strings"
	"testing"
)

// schemaChanges compares two config schemas (files: path → schema, the
// config at schemas/c.json) of one node, in role.
func schemaChanges(t *testing.T, role string, oldFiles, newFiles map[string]any) []Change {
	t.Helper()
	m := obj{"name": "acme.x", "version": "1.0.0", "nodes": arr{obj{"typeId": "acme.x.a", role: "schemas/c.json"}}}
	r := Compare(mkPack(t, packFiles(m, oldFiles, nil)), mkPack(t, packFiles(m, newFiles, nil)))
	return r.Changes
}

func oneChange(t *testing.T, got []Change, rule, file, ptr, words string) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("got %d changes, want 1 (%s at %s): %+v", len(got), rule, ptr, got)
	}
	c := got[0]
	if c.Rule != rule || c.File != file || c.Pointer != ptr || !strings.Contains(c.Message, words) {
		t.Errorf("got %s %s %s %q, want %s %s %s containing %q", c.Rule, c.File, c.Pointer, c.Message, rule, file, ptr, words)
	}
}

// TestSchemaFollowsRefs: a change in a file the config reaches by $ref
// (relative file, then #/$defs inside it) is found there, at its pointer.
func TestSchemaFollowsRefs(t *testing.T) {
	t.Parallel()
	mk := func(req arr) map[string]any {
		return obj{
			"schemas/c.json":      obj{"type": "object", "properties": obj{"target": obj{"$ref": "defs/t.json#/$defs/T"}}},
			"schemas/defs/t.json": obj{"$defs": obj{"T": obj{"type": "object", "required": req}}},
		}
	}
	got := schemaChanges(t, "configSchemaRef", mk(arr{"a"}), mk(arr{"a", "b"}))
	oneChange(t, got, RuleInputNarrowed, "schemas/defs/t.json", "/$defs/T/required", `member "b" is now required`)
}

// TestSchemaRefByID: a $ref written as another pack schema's $id is
// followed to that file.
func TestSchemaRefByID(t *testing.T) {
	t.Parallel()
	mk := func(max float64) map[string]any {
		return obj{
			"schemas/c.json": obj{"$ref": "https://packs.openwop.dev/acme.x/1.0.0/n.json"},
			"schemas/n.json": obj{"$id": "https://packs.openwop.dev/acme.x/1.0.0/n.json", "type": "integer", "maximum": max},
		}
	}
	got := schemaChanges(t, "inputSchemaRef", mk(10), mk(5))
	oneChange(t, got, RuleInputNarrowed, "schemas/n.json", "/maximum", "maximum went from 10 to 5")
}

// TestSchemaRecursive: a schema that refers to itself is compared once
// per pair of places, not forever.
func TestSchemaRecursive(t *testing.T) {
	t.Parallel()
	mk := func(t string) map[string]any {
		return obj{"schemas/c.json": obj{"type": "object", "properties": obj{"name": obj{"type": t}, "children": obj{"type": "array", "items": obj{"$ref": "#"}}}}}
	}
	got := schemaChanges(t, "outputSchemaRef", mk("string"), mk("string"))
	if len(got) != 0 {
		t.Fatalf("an unchanged recursive schema gave %+v", got)
	}
	got = schemaChanges(t, "outputSchemaRef", mk("string"), mk("integer"))
	if len(got) != 2 {
		t.Fatalf("want type lost and gained, got %+v", got)
	}
}

// TestSchemaPatternsUndecided: two different patterns cannot be compared:
// breaking, "could not prove compatible".
func TestSchemaPatternsUndecided(t *testing.T) {
	t.Parallel()
	mk := func(p string) map[string]any {
		return obj{"schemas/c.json": obj{"type": "string", "pattern": p}}
	}
	for _, role := range []string{"configSchemaRef", "outputSchemaRef"} {
		got := schemaChanges(t, role, mk("^[a-z]+$"), mk("^[a-z0-9]+$"))
		oneChange(t, got, RuleSchemaUndecided, "schemas/c.json", "/pattern", "could not prove compatible")
		if got[0].Level != Breaking {
			t.Errorf("%s: level %s", role, got[0].Level)
		}
	}
}

// TestSchemaDirections: the same change is a feature or a break depending
// on who uses the schema.
func TestSchemaDirections(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		old, new   any
		input, out string // the rule for an input schema, for an output schema
	}{
		{"type widened", obj{"type": "string"}, obj{"type": arr{"string", "null"}}, RuleInputWidened, RuleOutputWidened},
		{"integer to number", obj{"type": "integer"}, obj{"type": "number"}, RuleInputWidened, RuleOutputWidened},
		{"required removed", obj{"required": arr{"a"}}, obj{}, RuleInputWidened, RuleOutputWidened},
		{"additionalProperties closed", obj{"type": "object"}, obj{"type": "object", "additionalProperties": false}, RuleInputNarrowed, RuleOutputNarrowed},
		{"minLength raised", obj{"minLength": 1}, obj{"minLength": 3}, RuleInputNarrowed, RuleOutputNarrowed},
		{"maxItems removed", obj{"maxItems": 3}, obj{}, RuleInputWidened, RuleOutputWidened},
		{"schema false to true", false, true, RuleInputWidened, RuleOutputWidened},
		{"anyOf gains a branch", obj{"anyOf": arr{obj{"type": "string"}, obj{"type": "null"}}}, obj{"anyOf": arr{obj{"type": "string"}, obj{"type": "null"}, obj{"type": "integer"}}}, RuleInputWidened, RuleOutputWidened},
		{"oneOf branch widened", obj{"oneOf": arr{obj{"type": "string"}, obj{"type": "integer"}}}, obj{"oneOf": arr{obj{"type": "string"}, obj{"type": "number"}}}, RuleSchemaUndecided, RuleSchemaUndecided},
		{"condition added", obj{}, obj{"if": obj{"required": arr{"a"}}, "then": obj{"required": arr{"b"}}}, RuleInputNarrowed, RuleOutputNarrowed},
		{"member accepted where closed", obj{"additionalProperties": false}, obj{"additionalProperties": false, "properties": obj{"x": obj{"type": "string"}}}, RuleInputWidened, RuleOutputWidened},
		{"description only", obj{"description": "a"}, obj{"description": "b"}, RuleTextChanged, RuleTextChanged},
	}
	for _, tc := range cases {
		for role, want := range map[string]string{"configSchemaRef": tc.input, "outputSchemaRef": tc.out} {
			got := schemaChanges(t, role, obj{"schemas/c.json": tc.old}, obj{"schemas/c.json": tc.new})
			if len(got) == 0 {
				t.Errorf("%s (%s): no change", tc.name, role)
				continue
			}
			for _, c := range got {
				if c.Rule != want {
					t.Errorf("%s (%s): got %s (%s), want %s", tc.name, role, c.Rule, c.Message, want)
				}
			}
		}
	}
}

// TestSchemaRefLeavingPack: the same external $ref is the same schema; a
// changed one cannot be proved compatible.
func TestSchemaRefLeavingPack(t *testing.T) {
	t.Parallel()
	mk := func(ref string) map[string]any { return obj{"schemas/c.json": obj{"$ref": ref}} }
	if got := schemaChanges(t, "configSchemaRef", mk("https://example.com/a.json"), mk("https://example.com/a.json")); len(got) != 0 {
		t.Errorf("an unchanged external $ref gave %+v", got)
	}
	got := schemaChanges(t, "configSchemaRef", mk("https://example.com/a.json"), mk("https://example.com/b.json"))
	oneChange(t, got, RuleSchemaUndecided, "schemas/c.json", "/$ref", "could not prove compatible")
}

// TestBumpRules: the bump needed, before and after 1.0.0, and the verdict.
func TestBumpRules(t *testing.T) {
	t.Parallel()
	br := []Change{{Level: Breaking}}
	ft := []Change{{Level: Feature}}
	cases := []struct {
		old, new string
		changes  []Change
		need     string
		ok       bool
	}{
		{"1.2.3", "2.0.0", br, BumpMajor, true},
		{"1.2.3", "1.3.0", br, BumpMajor, false},
		{"1.2.3", "1.3.0", ft, BumpMinor, true},
		{"1.2.3", "1.2.4", ft, BumpMinor, false},
		{"0.2.3", "0.3.0", br, BumpMinor, true},
		{"0.2.3", "0.2.4", br, BumpMinor, false},
		{"0.2.3", "0.2.4", ft, BumpPatch, true},
		{"1.2.3", "1.2.3", nil, BumpNone, true},
		{"1.2.3", "1.2.2", nil, BumpNone, false},
		{"1.2.3", "not-semver", nil, BumpNone, false},
	}
	for _, tc := range cases {
		need := required(tc.old, tc.changes)
		ok, verdict := meets(tc.old, tc.new, need)
		if need != tc.need || ok != tc.ok || verdict == "" {
			t.Errorf("%s → %s: need %s ok %v (%s), want %s %v", tc.old, tc.new, need, ok, verdict, tc.need, tc.ok)
		}
	}
}

// TestRanges: engines ranges compared by the versions they admit.
func TestRanges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		o, n       string
		less, more bool
		ok         bool
	}{
		{">=1.0.0 <2.0.0", ">=1.0.0 <3.0.0", false, true, true},
		{">=1.0.0 <3.0.0", ">=1.0.0 <2.0.0", true, false, true},
		{"^1.2.0", ">=1.2.0 <2.0.0", false, false, true},
		{"~1.2.0", "^1.2.0", false, true, true},
		{"1.x || 2.x", "^2.0.0", true, false, true},
		{">=1.0.0", "not a range", false, false, false},
	}
	for _, tc := range cases {
		l, m, ok := rangeCmp(tc.o, tc.n)
		if (l != "") != tc.less || (m != "") != tc.more || ok != tc.ok {
			t.Errorf("%q → %q: less %q more %q ok %v", tc.o, tc.n, l, m, ok)
		}
	}
}
