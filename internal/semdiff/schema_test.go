package semdiff

import (
	"fmt"
	"maps"
	"math/rand/v2"
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

// widening is a rewrite of a schema object (a copy) that accepts the same
// values or more: ok is false where it does not apply.
type widening struct {
	name  string
	apply func(s map[string]any) bool
}

// equivalentRewrites are the widenings that accept the same values: they
// are tried at any place, the others only where a wider subschema makes
// a wider whole (not under not, if or a oneOf branch).
var equivalentRewrites = map[string]bool{"enum of one → const": true, "enum reordered": true,
	"integer minimum k → exclusiveMinimum k-1": true, "allOf inlined": true, "split into allOf": true,
	"type list reordered": true, "anyOf/oneOf reordered": true, "required reordered": true}

// monotone reports whether a subschema at ptr accepting more makes the
// whole accept more.
func monotone(ptr string) bool {
	for _, tok := range strings.Split(ptr, "/") {
		if tok == "not" || tok == "if" || tok == "oneOf" {
			return false
		}
	}
	return true
}

// underUnevaluated reports whether the place ptr of root is in, or under,
// an object with unevaluatedProperties or unevaluatedItems: what they
// accept depends on what the other keywords evaluate, which a rewrite may
// change however it widens (docs/RULES.md: could not prove).
func underUnevaluated(root any, ptr string) bool {
	toks := strings.Split(ptr, "/")
	for i := range toks {
		v, _ := pointerGet(root, strings.Join(toks[:i+1], "/"))
		if m, ok := v.(map[string]any); ok && (m["unevaluatedProperties"] != nil || m["unevaluatedItems"] != nil) {
			return true
		}
	}
	return false
}

var widenings = []widening{
	{"const → enum", func(s map[string]any) bool {
		c, ok := s["const"]
		if !ok || s["enum"] != nil {
			return false
		}
		delete(s, "const")
		s["enum"] = []any{c, "zzWider"}
		return true
	}},
	{"enum of one → const", func(s map[string]any) bool {
		e, ok := s["enum"].([]any)
		if !ok || len(e) != 1 || s["const"] != nil {
			return false
		}
		delete(s, "enum")
		s["const"] = e[0]
		return true
	}},
	{"enum gains a value", func(s map[string]any) bool {
		e, ok := s["enum"].([]any)
		if !ok {
			return false
		}
		s["enum"] = append(append([]any(nil), e...), "zzWider")
		return true
	}},
	{"enum reordered", func(s map[string]any) bool {
		e, ok := s["enum"].([]any)
		if !ok || len(e) < 2 {
			return false
		}
		s["enum"] = append([]any{e[len(e)-1]}, e[:len(e)-1]...)
		return true
	}},
	{"integer exclusiveMinimum k → minimum k", func(s map[string]any) bool {
		x, ok := s["exclusiveMinimum"].(float64)
		if !ok || s["type"] != "integer" || s["minimum"] != nil {
			return false
		}
		delete(s, "exclusiveMinimum")
		s["minimum"] = x
		return true
	}},
	{"integer minimum k → exclusiveMinimum k-1", func(s map[string]any) bool {
		x, ok := s["minimum"].(float64)
		if !ok || s["type"] != "integer" || s["exclusiveMinimum"] != nil {
			return false
		}
		delete(s, "minimum")
		s["exclusiveMinimum"] = x - 1
		return true
	}},
	{"allOf inlined", func(s map[string]any) bool {
		l, ok := s["allOf"].([]any)
		if !ok {
			return false
		}
		merged := map[string]any{}
		for k, v := range s {
			if k != "allOf" {
				merged[k] = v
			}
		}
		for _, e := range l {
			em, ok := e.(map[string]any)
			if !ok {
				return false
			}
			for k, v := range em {
				if _, dup := merged[k]; dup || strings.HasPrefix(k, "$") || strings.HasPrefix(k, "unevaluated") || len(readsOthers[k]) > 0 || k == "allOf" {
					return false
				}
				merged[k] = v
			}
		}
		clear(s)
		maps.Copy(s, merged)
		return true
	}},
	{"split into allOf", func(s map[string]any) bool {
		var moved []string
		for _, k := range unionKeys(s, nil) {
			switch k {
			case "type", "minLength", "maxLength", "minimum", "maximum", "required", "pattern", "enum", "const", "minItems", "maxProperties":
				moved = append(moved, k)
			}
		}
		if len(moved) < 2 || s["allOf"] != nil || s["unevaluatedProperties"] != nil {
			return false
		}
		a, b := map[string]any{}, map[string]any{}
		for i, k := range moved {
			if i%2 == 0 {
				a[k] = s[k]
			} else {
				b[k] = s[k]
			}
			delete(s, k)
		}
		s["allOf"] = []any{a, b}
		return true
	}},
	{"type gains null", func(s map[string]any) bool {
		t, ok := s["type"].(string)
		if !ok || t == "null" {
			return false
		}
		s["type"] = []any{t, "null"}
		return true
	}},
	{"type list reordered", func(s map[string]any) bool {
		t, ok := s["type"].([]any)
		if !ok || len(t) < 2 {
			return false
		}
		s["type"] = append([]any{t[len(t)-1]}, t[:len(t)-1]...)
		return true
	}},
	{"anyOf/oneOf reordered", func(s map[string]any) bool {
		for _, kw := range []string{"anyOf", "oneOf"} {
			if l, ok := s[kw].([]any); ok && len(l) > 1 {
				s[kw] = append([]any{l[len(l)-1]}, l[:len(l)-1]...)
				return true
			}
		}
		return false
	}},
	{"anyOf gains a branch", func(s map[string]any) bool {
		l, ok := s["anyOf"].([]any)
		if !ok {
			return false
		}
		s["anyOf"] = append(append([]any(nil), l...), map[string]any{"const": "zzWider"})
		return true
	}},
	{"required reordered", func(s map[string]any) bool {
		r, ok := s["required"].([]any)
		if !ok || len(r) < 2 {
			return false
		}
		s["required"] = append([]any{r[len(r)-1]}, r[:len(r)-1]...)
		return true
	}},
	{"required loses a member", func(s map[string]any) bool {
		r, ok := s["required"].([]any)
		if !ok || len(r) == 0 {
			return false
		}
		s["required"] = r[1:]
		return true
	}},
	{"bound loosened", func(s map[string]any) bool {
		for kw, d := range map[string]float64{"maxLength": 1, "maximum": 1, "maxItems": 1, "maxProperties": 1, "minimum": -1, "minLength": -1, "minItems": -1} {
			if x, ok := s[kw].(float64); ok && x+d >= 0 {
				s[kw] = x + d
				return true
			}
		}
		return false
	}},
	{"pattern or format removed", func(s map[string]any) bool {
		for _, kw := range []string{"pattern", "format"} {
			if _, ok := s[kw]; ok {
				delete(s, kw)
				return true
			}
		}
		return false
	}},
	{"additionalProperties false removed", func(s map[string]any) bool {
		if s["additionalProperties"] != false {
			return false
		}
		delete(s, "additionalProperties")
		return true
	}},
}

// widenPair is one generated widening, the validator's check of it, and
// diff's verdict on it for an input (config) schema.
type widenPair struct {
	name     string
	old, new map[string]any // files
}

// samplesFor are values to check a pair on: the fuzz values, each const
// and enum value of either side, a sample of each, and objects holding
// each of those as each member either side names.
func samplesFor(files ...map[string]any) []any {
	atoms := append([]any(nil), fuzzValues...)
	atoms = append(atoms, "zzWider", 4.0, 5.0, 6.0, 1.5, []any{"a", "b"})
	names := map[string]bool{"a": true, "b": true}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if c, ok := x["const"]; ok {
				atoms = append(atoms, c)
			}
			if e, ok := x["enum"].([]any); ok {
				atoms = append(atoms, e...)
			}
			if p, ok := x["properties"].(map[string]any); ok {
				for k := range p {
					names[k] = true
				}
			}
			for _, vv := range x {
				walk(vv)
			}
		case []any:
			for _, vv := range x {
				walk(vv)
			}
		}
	}
	for _, f := range files {
		for _, v := range f {
			walk(v)
			atoms = append(atoms, sample(v, 0))
		}
	}
	out := append([]any(nil), atoms...)
	for _, k := range sorted(names) {
		for _, a := range atoms[:min(len(atoms), 60)] {
			out = append(out, map[string]any{k: a})
		}
	}
	return out
}

// widenPairs generates widenings: each base schema (random ones from a
// fixed seed, and the real ones) rewritten by each widening that applies,
// at the first subschema where it does.
func widenPairs(t *testing.T) []widenPair {
	var bases []any
	r := rand.New(rand.NewPCG(42, 42))
	for range 400 {
		data := make([]byte, 64)
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		g := &fuzzGen{data: data}
		bases = append(bases, g.schema(3))
	}
	reals := realSchemas(t)
	for _, k := range unionKeys(reals, nil) {
		bases = append(bases, reals[k])
	}
	// The review's examples.
	bases = append(bases, obj{"type": "integer", "exclusiveMinimum": 5.0}, obj{"const": 1.0}, obj{"enum": arr{"a"}},
		obj{"allOf": arr{obj{"type": "string"}, obj{"maxLength": 3.0}}}, obj{"type": "object", "properties": obj{"n": obj{"type": "integer", "exclusiveMinimum": 0.0}}})
	var out []widenPair
	for bi, b := range bases {
		bm, ok := b.(map[string]any)
		if !ok {
			continue
		}
		for _, w := range widenings {
			nw := canonCopy(bm).(map[string]any)
			var places []string
			subschemas(nw, "", &places)
			for _, at := range places {
				if !equivalentRewrites[w.name] && !monotone(at) || underUnevaluated(nw, at) {
					continue
				}
				target, _ := pointerGet(nw, at)
				if w.apply(target.(map[string]any)) {
					out = append(out, widenPair{fmt.Sprintf("base %d, %s at %q", bi, w.name, at), obj{"schemas/c.json": bm}, obj{"schemas/c.json": nw}})
					break
				}
			}
		}
	}
	return out
}

// TestWideningsAreQuiet (issue 42.6): equivalent and widening rewrites of
// the common keywords, each confirmed by the validator (NEW accepts every
// sampled value OLD accepts), are never breaking for an input schema. The
// false-alarm rate on them is logged beside the number of pairs.
func TestWideningsAreQuiet(t *testing.T) {
	t.Parallel()
	pairs := widenPairs(t)
	confirmed, wider, alarms := 0, 0, 0
	byRewrite := map[string]int{}
	for _, p := range pairs {
		os, err1 := validatorFor(p.old)
		ns, err2 := validatorFor(p.new)
		if err1 != nil || err2 != nil {
			continue
		}
		sound, more := true, false
		for _, v := range samplesFor(p.old, p.new) {
			oOK, nOK := os.Validate(v) == nil, ns.Validate(v) == nil
			if oOK && !nOK {
				sound = false
				break
			}
			more = more || nOK && !oOK
		}
		if !sound {
			continue // a sampled value tells it is no widening: not counted
		}
		confirmed++
		if more {
			wider++
		}
		name := p.name[strings.Index(p.name, ", ")+2 : strings.LastIndex(p.name, " at ")]
		byRewrite[name]++
		if r := roleResult(t, "configSchemaRef", p.old, p.new); len(r.Breaking()) > 0 {
			alarms++
			t.Errorf("%s: a widening the validator confirms is breaking: old %s new %s: %+v", p.name, canon(p.old["schemas/c.json"]), canon(p.new["schemas/c.json"]), r.Breaking())
		}
	}
	t.Logf("widening generator: %d pairs, %d confirmed by the validator (%d strictly wider, %d equivalent), %d false alarms (%.1f%%); by rewrite %v",
		len(pairs), confirmed, wider, confirmed-wider, alarms, 100*float64(alarms)/float64(max(confirmed, 1)), byRewrite)
	if confirmed < 200 || len(byRewrite) < len(widenings)-2 {
		t.Errorf("only %d confirmed pairs over %d rewrites: the generator proves little", confirmed, len(byRewrite))
	}
}

// Issue 44.4: an owned $id (and a $ref naming it) that changed only by
// following the pack's version, as `wopkit bump` rewrites it, is no
// change; a $id changed otherwise is still wording.
func TestIDFollowingTheVersionIsQuiet(t *testing.T) {
	t.Parallel()
	id := func(v, file string) string { return "https://packs.openwop.dev/acme.x/" + v + "/" + file }
	mk := func(version, cv, nv, nFile string) *Pack {
		m := obj{"name": "acme.x", "version": version, "nodes": arr{obj{"typeId": "acme.x.a", "configSchemaRef": "schemas/c.json"}}}
		return mkPack(t, packFiles(m, obj{
			"schemas/c.json": obj{"$id": id(cv, "schemas/c.json"), "type": "object", "properties": obj{"n": obj{"$ref": id(nv, nFile)}}},
			"schemas/n.json": obj{"$id": id(nv, nFile), "type": "integer"},
			// no manifest references it: compared as a file
			"schemas/x.json": obj{"$id": id(cv, "schemas/x.json"), "items": arr{obj{"$ref": id(nv, nFile) + "#/type"}, nil}},
		}, nil))
	}
	old := mk("0.1.0", "0.1.0", "0.1.0", "schemas/n.json")
	// Raised to 0.2.0 by bump; a stale $id of an earlier version is brought along too.
	for _, stale := range []string{"0.1.0", "0.0.9"} {
		o := mk("0.1.0", "0.1.0", stale, "schemas/n.json")
		if r := Compare(o, mk("0.2.0", "0.2.0", "0.2.0", "schemas/n.json")); len(r.Changes) != 0 || r.Required != BumpNone {
			t.Errorf("$ids from %s that follow the version 0.1.0 → 0.2.0 are listed: %+v", stale, r.Changes)
		}
	}
	// Not just the version: the file part, or a segment that is not the new version.
	for _, n := range []*Pack{mk("0.2.0", "0.2.0", "0.2.0", "schemas/n2.json"), mk("0.2.0", "0.1.5", "0.2.0", "schemas/n.json")} {
		found := false
		for _, c := range Compare(old, n).Changes {
			found = found || c.Rule == RuleTextChanged && strings.HasSuffix(c.Pointer, "/$id")
		}
		if !found || !strings.Contains(fmt.Sprint(Compare(old, n).Changes), "schemas/x.json changed") {
			t.Errorf("a $id changed beyond the version is not listed: %+v", Compare(old, n).Changes)
		}
	}
}
