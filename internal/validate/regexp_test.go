package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// promptRefWithPattern is a validator whose v1 prompt-ref schema (an
// override through SchemaDir) is a string matching pattern.
func promptRefWithPattern(t *testing.T, pattern string) func(value string) []Problem {
	t.Helper()
	check := promptRefWithSchema(t, map[string]any{"type": "string", "pattern": pattern})
	return func(value string) []Problem { return check(value) }
}

// promptRefWithSchema is promptRefWithPattern for any schema (its $schema
// and $id are set here).
func promptRefWithSchema(t *testing.T, sch map[string]any) func(value any) []Problem {
	t.Helper()
	dir := t.TempDir()
	sch["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	sch["$id"] = "https://openwop.dev/spec/v1/prompt-ref.schema.json"
	schema, _ := json.Marshal(sch)
	if err := os.WriteFile(filepath.Join(dir, "prompt-ref.schema.json"), schema, 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{SchemaDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return func(value any) []Problem {
		b, _ := json.Marshal(value)
		doc, err := jsondoc.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		return v.SchemaProblemsFor(kinds.V1, kinds.PromptRef, doc, "")
	}
}

// Issue 42.1: patterns are ECMA-262 (as ajv reads them), not RE2: \s takes
// U+00A0, lookbehind and back-references work, `.` refuses U+2028.
func TestPatternsAreECMA262(t *testing.T) {
	t.Parallel()
	check := promptRefWithPattern(t, `^(\w)\s(?<=\s)\1.$`)
	for value, want := range map[string]bool{"a\u00a0ax": true, "a\tab": true, "a ba": false, "a a\u2028": false, "aa ax": false} {
		if ps := check(value); (len(ps) == 0) != want {
			t.Errorf("%q: valid %v, want %v (%v)", value, len(ps) == 0, want, ps)
		}
	}
}

// A pattern that backtracks past ecmare.Timeout refuses the value with a
// message that says the check could not be decided (never a hang).
func TestUndecidedPatternIsAClearError(t *testing.T) {
	t.Parallel()
	check := promptRefWithPattern(t, `^(a+)+$`)
	if ps := check("aaaa"); len(ps) != 0 {
		t.Fatalf("a match refused: %v", ps)
	}
	ps := check(strings.Repeat("a", 60) + "!")
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "could not be checked") || ps[0].Rule != "schema/pattern" {
		t.Errorf("want one schema/pattern problem saying it could not be checked, got %v", ps)
	}
}

// A property name whose patternProperties match backtracks past
// ecmare.Timeout is a clear problem at that property, not a miss (which
// additionalProperties: false would call a property "not allowed").
func TestUndecidedPatternPropertyIsAClearError(t *testing.T) {
	t.Parallel()
	check := promptRefWithSchema(t, map[string]any{"type": "object",
		"patternProperties": map[string]any{`^(a+)+$`: map[string]any{"type": "string"}}, "additionalProperties": false})
	if ps := check(map[string]any{"aaaa": "x"}); len(ps) != 0 {
		t.Fatalf("a matching name refused: %v", ps)
	}
	if ps := check(map[string]any{"aaaa": 1}); len(ps) != 1 || ps[0].Rule != "schema/type" {
		t.Errorf("a matching name's schema not applied: %v", ps)
	}
	long := strings.Repeat("a", 60) + "!"
	ps := check(map[string]any{long: "x"})
	if len(ps) != 1 || ps[0].Rule != "schema/patternProperties" || !strings.Contains(ps[0].Message, "could not be checked") ||
		ps[0].Pointer != "/"+long {
		t.Errorf("want one schema/patternProperties problem at /%s saying it could not be checked, got %+v", long, ps)
	}
}
