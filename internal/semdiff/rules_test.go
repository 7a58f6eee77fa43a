package semdiff

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/tarball"
)

// mkPack builds a pack in memory from files (path → content).
func mkPack(t testing.TB, files map[string]string) *Pack {
	t.Helper()
	a := &tarball.Archive{}
	for name, data := range files {
		a.Files = append(a.Files, tarball.File{Header: tarball.Header{Name: name, Size: int64(len(data)), Mode: 0o644}, Data: []byte(data)})
	}
	p, err := FromArchive("test.tgz", a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// js is v as JSON.
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

type obj = map[string]any
type arr = []any

// base is a node pack with one node (config, input and output schemas)
// and one agent.
func base() map[string]any {
	return obj{
		"name": "acme.x", "version": "1.0.0",
		"engines": obj{"openwop": ">=1.0.0 <3.0.0"},
		"runtime": obj{"language": "javascript", "entry": "index.mjs"},
		"nodes": arr{obj{"typeId": "acme.x.a", "version": "1.0.0", "category": "control", "role": "pure", "description": "A.",
			"capabilities": arr{"cacheable", "streamable"}, "requiresSecrets": arr{"OLD_TOKEN"},
			"configSchemaRef": "schemas/a.config.json", "inputSchemaRef": "schemas/a.input.json", "outputSchemaRef": "schemas/a.output.json"}},
		"agents": arr{obj{"agentId": "acme.x.helper", "persona": "Helper", "modelClass": "fast", "toolAllowlist": arr{"mcp:slack"}}},
	}
}

func schemas() map[string]any {
	return obj{
		"schemas/a.config.json": obj{"type": "object", "additionalProperties": false, "required": arr{"url"},
			"properties": obj{"url": obj{"type": "string", "pattern": "^https://"}, "mode": obj{"enum": arr{"a", "b"}}}},
		"schemas/a.input.json":  obj{"type": "object", "properties": obj{"items": obj{"type": "array"}}},
		"schemas/a.output.json": obj{"type": "object", "required": arr{"status"}, "properties": obj{"status": obj{"enum": arr{"ok", "failed"}}, "id": obj{"type": "string"}}},
	}
}

// packFiles is the files of a pack built from a manifest and schemas.
func packFiles(m map[string]any, sch map[string]any, extra map[string]string) map[string]string {
	files := map[string]string{"pack.json": js(m), "index.mjs": "export default {}\n", "README.md": "# x\n"}
	for k, v := range sch {
		files[k] = js(v)
	}
	maps.Copy(files, extra)
	return files
}

// at reads a member by JSON pointer for a mutation.
func at(v any, ptr string) map[string]any {
	x, ok := pointerGet(v, ptr)
	if !ok {
		panic("no " + ptr)
	}
	return x.(map[string]any)
}

// ruleCases are one or more changes for each rule of docs/RULES.md's diff
// table: each mutates the base pack and names the rule and level it must
// give.
var ruleCases = []struct {
	rule   string
	level  Level
	mutate func(m, sch map[string]any, extra map[string]string)
}{
	{RuleEntryRemoved, Breaking, func(m, _ map[string]any, _ map[string]string) { m["agents"] = arr{} }},
	{RulePackRenamed, Breaking, func(m, _ map[string]any, _ map[string]string) { m["name"] = "acme.y" }},
	{RuleInputNarrowed, Breaking, func(_, sch map[string]any, _ map[string]string) {
		at(sch, "/schemas~1a.config.json")["required"] = arr{"url", "mode"}
	}},
	{RuleOutputWidened, Breaking, func(_, sch map[string]any, _ map[string]string) {
		at(sch, "/schemas~1a.output.json/properties/status")["enum"] = arr{"ok", "failed", "partial"}
	}},
	{RuleSchemaUndecided, Breaking, func(_, sch map[string]any, _ map[string]string) {
		at(sch, "/schemas~1a.config.json/properties/url")["pattern"] = "^https?://"
	}},
	{RuleVariableRequired, Breaking, func(m, _ map[string]any, _ map[string]string) {
		m["prompts"] = arr{obj{"templateId": "acme.x.p", "text": "Hi", "variables": arr{obj{"name": "tone", "type": "string", "required": true}}}}
	}},
	{RuleRangeNarrowed, Breaking, func(m, _ map[string]any, _ map[string]string) {
		m["engines"] = obj{"openwop": ">=2.0.0 <3.0.0"}
	}},
	{RuleConsentWidened, Breaking, func(m, _ map[string]any, _ map[string]string) {
		at(m, "/agents/0")["toolAllowlist"] = arr{"mcp:slack", "mcp:github"}
	}},
	{RuleRequirementAdded, Breaking, func(m, _ map[string]any, _ map[string]string) {
		at(m, "/nodes/0")["requiresSecrets"] = arr{"OLD_TOKEN", "OPENAI_API_KEY"}
	}},
	{RuleOfferRemoved, Breaking, func(m, _ map[string]any, _ map[string]string) {
		at(m, "/nodes/0")["capabilities"] = arr{"cacheable"}
	}},
	{RuleValueChanged, Breaking, func(m, _ map[string]any, _ map[string]string) {
		at(m, "/agents/0")["modelClass"] = "reasoning"
	}},
	{RuleEntryAdded, Feature, func(m, _ map[string]any, _ map[string]string) {
		m["nodes"] = append(m["nodes"].(arr), obj{"typeId": "acme.x.b", "version": "1.0.0", "category": "control", "role": "pure"})
	}},
	{RuleInputWidened, Feature, func(_, sch map[string]any, _ map[string]string) {
		at(sch, "/schemas~1a.config.json/properties/mode")["enum"] = arr{"a", "b", "c"}
	}},
	{RuleOutputNarrowed, Feature, func(_, sch map[string]any, _ map[string]string) {
		at(sch, "/schemas~1a.output.json")["required"] = arr{"status", "id"}
	}},
	{RuleMemberAdded, Feature, func(_, sch map[string]any, _ map[string]string) {
		at(sch, "/schemas~1a.input.json/properties")["timeout"] = obj{"type": "integer"}
	}},
	{RuleRangeWidened, Feature, func(m, _ map[string]any, _ map[string]string) {
		m["engines"] = obj{"openwop": ">=1.0.0 <4.0.0"}
	}},
	{RuleRequirementDrop, Feature, func(m, _ map[string]any, _ map[string]string) {
		at(m, "/nodes/0")["requiresSecrets"] = arr{}
	}},
	{RuleOfferAdded, Feature, func(m, _ map[string]any, _ map[string]string) {
		at(m, "/nodes/0")["capabilities"] = arr{"cacheable", "streamable", "retryable"}
	}},
	{RuleVariableOptional, Feature, func(m, _ map[string]any, _ map[string]string) {
		m["prompts"] = arr{obj{"templateId": "acme.x.p", "text": "Hi", "variables": arr{obj{"name": "lang", "type": "string", "required": true, "default": "en"}}}}
	}},
	{RuleTextChanged, Fix, func(m, _ map[string]any, _ map[string]string) {
		at(m, "/nodes/0")["description"] = "A, reworded."
	}},
	{RuleFileChanged, Fix, func(_, _ map[string]any, extra map[string]string) { extra["README.md"] = "# x, reworded\n" }},
	{RuleConsentNarrowed, Fix, func(m, _ map[string]any, _ map[string]string) {
		at(m, "/agents/0")["toolAllowlist"] = arr{}
	}},
}

// TestRuleCases: each case gives exactly its rule, at its level, and the
// required bump follows from the level.
func TestRuleCases(t *testing.T) {
	t.Parallel()
	for _, tc := range ruleCases {
		t.Run(tc.rule, func(t *testing.T) {
			t.Parallel()
			oldM, oldS := base(), schemas()
			newM, newS, extra := base(), schemas(), map[string]string{}
			if tc.rule == RuleVariableRequired || tc.rule == RuleVariableOptional {
				oldM["prompts"] = arr{obj{"templateId": "acme.x.p", "text": "Hi", "variables": arr{}}}
			}
			tc.mutate(newM, newS, extra)
			newM["version"] = "1.0.1"
			r := Compare(mkPack(t, packFiles(oldM, oldS, nil)), mkPack(t, packFiles(newM, newS, extra)))
			if len(r.Changes) == 0 {
				t.Fatalf("no change found")
			}
			for _, c := range r.Changes {
				if c.Rule != tc.rule || c.Level != tc.level {
					t.Errorf("got %s %s (%s at %s: %s), want only %s %s", c.Level, c.Rule, c.File, c.Pointer, c.Message, tc.level, tc.rule)
				}
				if c.Message == "" || c.File == "" {
					t.Errorf("change without words or file: %+v", c)
				}
			}
			want := map[Level]string{Breaking: BumpMajor, Feature: BumpMinor, Fix: BumpPatch}[tc.level]
			if r.Required != want {
				t.Errorf("required %s, want %s", r.Required, want)
			}
			if ok := tc.level == Fix; r.VersionOK != ok {
				t.Errorf("1.0.0 → 1.0.1 with a %s: versionOK %v, want %v (%s)", tc.level, r.VersionOK, ok, r.Verdict)
			}
		})
	}
}

// TestRulesDocumented keeps Rules(), the test cases and docs/RULES.md's
// diff table in step: every rule has a row with its level, and a case.
func TestRulesDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "RULES.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## What `wopkit diff` counts")
	if !ok {
		t.Fatal("docs/RULES.md has no section \"What `wopkit diff` counts\"")
	}
	rows := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\| (diff/[a-z-]+) \| (\w+) \|`).FindAllStringSubmatch(section, -1) {
		rows[m[1]] = m[2]
	}
	cased := map[string]Level{}
	for _, c := range ruleCases {
		cased[c.rule] = c.level
	}
	for _, r := range Rules() {
		if rows[r.ID] != string(r.Level) {
			t.Errorf("docs/RULES.md: %s has level %q, want %q", r.ID, rows[r.ID], r.Level)
		}
		if cased[r.ID] != r.Level {
			t.Errorf("%s (%s) has no test case at its level", r.ID, r.Level)
		}
		delete(rows, r.ID)
	}
	for id := range rows {
		t.Errorf("docs/RULES.md lists %s, which Rules() does not", id)
	}
}
