package scaffold

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

// TestPromptPackDefaults: the default prompt pack is a v2 prompt pack
// without runtime whose templates validate strictly with no problem, and
// whose variables are declared.
func TestPromptPackDefaults(t *testing.T) {
	t.Parallel()
	a := PromptPackAnswers{}.Defaults()
	a.Name = "vendor.acme.prompts"
	p, err := PlanPromptPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(p.Paths(), " "), "pack.json README.md .openwopignore LICENSE"; got != want {
		t.Errorf("files %q, want %q", got, want)
	}
	pj := p.File("pack.json").Data
	var doc struct {
		Kind    string           `json:"kind"`
		Runtime any              `json:"runtime"`
		Prompts []map[string]any `json:"prompts"`
	}
	if err := json.Unmarshal(pj, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "prompt" || doc.Runtime != nil || len(doc.Prompts) != 2 {
		t.Fatalf("kind %q runtime %v %d prompts", doc.Kind, doc.Runtime, len(doc.Prompts))
	}
	if doc.Prompts[1]["name"] != "Summarize (user)" || doc.Prompts[0]["modelHints"] == nil || doc.Prompts[1]["modelHints"] != nil {
		t.Errorf("prompts: %v", doc.Prompts)
	}
	v, err := validate.New(validate.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, fr := range v.PackFiles("pack.json", p.FS(nil), pj) {
		if fr.Kind != kinds.PromptPack || fr.Spec != kinds.V2 || len(fr.Errors)+len(fr.Warnings) > 0 {
			t.Errorf("%s %s: %v %v", fr.Kind, fr.Spec, fr.Errors, fr.Warnings)
		}
	}
}

// TestPromptPackCheck: refused answers come back naming the answer, in the
// validator's words.
func TestPromptPackCheck(t *testing.T) {
	t.Parallel()
	checkAnswerCases(t, func() PromptPackAnswers {
		a := PromptPackAnswers{}.Defaults()
		a.Name = "vendor.acme.prompts"
		return a
	}, []answerCase[PromptPackAnswers]{
		{"undeclared variable", "prompts.1.variables", "the text uses {{audience}}, which is not one of the template's variables", func(a *PromptPackAnswers) { a.Prompts[1].Text += " For {{audience}}." }},
		{"same template ids", "prompts.1.id", "summarizer-system", func(a *PromptPackAnswers) { a.Prompts[1].ID = "summarizer-system" }},
		{"same variable names", "prompts.1.variables.1.name", "text", func(a *PromptPackAnswers) { a.Prompts[1].Variables[1].Name = "text" }},
		{"bad kind", "prompts.0.kind", "assistant", func(a *PromptPackAnswers) { a.Prompts[0].Kind = "assistant" }},
		{"bad variable type", "prompts.1.variables.0.type", "text", func(a *PromptPackAnswers) { a.Prompts[1].Variables[0].Type = "text" }},
		{"bad variable name", "prompts.1.variables.0.name", "the text", func(a *PromptPackAnswers) { a.Prompts[1].Variables[0].Name = "the text" }},
		{"bad source", "prompts.1.variables.0.source", "file", func(a *PromptPackAnswers) { a.Prompts[1].Variables[0].Source = "file" }},
		{"hot", "prompts.0.temperature", "above 2", func(a *PromptPackAnswers) { a.Prompts[0].Temperature = 3 }},
		{"required default", "prompts.1.variables.1.default", "never used", func(a *PromptPackAnswers) { a.Prompts[1].Variables[1].Required = true }},
		{"empty text", "prompts.0.text", "", func(a *PromptPackAnswers) { a.Prompts[0].Text = strings.Repeat("x", 70000) }},
		{"bad version", "prompts.0.version", "1.0", func(a *PromptPackAnswers) { a.Prompts[0].Version = "1.0" }},
		{"no prompts", "prompts", "", func(a *PromptPackAnswers) { a.Prompts = nil }},
	})
}

// TestPromptPackSet: answers by --set, lists from the schema.
func TestPromptPackSet(t *testing.T) {
	t.Parallel()
	a := PromptPackAnswers{}.Defaults()
	for _, kv := range [][2]string{{"name", "vendor.acme.prompts"}, {"prompts.1.id", "brief-user"}, {"prompts.1.variables.2.name", "audience"},
		{"prompts.1.text", "Brief {{audience}} on {{text}} ({{tone}})."}, {"prompts.0.temperature", "-1"}, {"prompts.0.modelClass", ""}} {
		if err := Set(&a, kv[0], kv[1]); err != nil {
			t.Fatalf("set %s: %v", kv[0], err)
		}
	}
	p, err := PlanPromptPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	pj := string(p.File("pack.json").Data)
	for _, want := range []string{`"templateId": "brief-user"`, `"name": "audience"`} {
		if !strings.Contains(pj, want) {
			t.Errorf("lacks %s:\n%s", want, pj)
		}
	}
	if strings.Contains(pj, `"temperature": 0.3`) {
		t.Errorf("temperature -1 did not omit it")
	}
	if got := strings.Join(PromptKinds(), ","); got != "system,user,few-shot,schema-hint" {
		t.Errorf("kinds %s", got)
	}
	if got := strings.Join(PromptVariableTypes(), ","); got != "string,number,boolean,array,object" {
		t.Errorf("types %s", got)
	}
	if got := strings.Join(PromptVariableSources(), ","); got != "input,variable,secret,context" {
		t.Errorf("sources %s", got)
	}
}

// TestPromptFieldPointer: answer field -> pointer -> the same field, and
// the pointer names a value of the generated pack.json.
func TestPromptFieldPointer(t *testing.T) {
	t.Parallel()
	a := PromptPackAnswers{}.Defaults()
	a.Name = "vendor.acme.prompts"
	p, err := PlanPromptPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsondoc.Parse(p.File("pack.json").Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"name", "version", "engines", "prompts.0.id", "prompts.0.kind", "prompts.0.text", "prompts.0.name",
		"prompts.0.tags", "prompts.0.modelClass", "prompts.0.temperature", "prompts.1.variables.0.name", "prompts.1.variables.0.type",
		"prompts.1.variables.0.source", "prompts.1.variables.1.default", "prompts.1.variables.1.required"} {
		ptr := PromptFieldPointer(field)
		if ptr == "" || doc.Lookup(ptr) == nil {
			t.Errorf("%s: pointer %q names nothing in pack.json", field, ptr)
			continue
		}
		if back := promptPointers.Field(ptr); back != field {
			t.Errorf("%s -> %s -> %s", field, ptr, back)
		}
	}
	if errs := CheckField(nil, kinds.PromptPack, PromptFieldPointer("prompts.0.kind"), "assistant"); len(errs) == 0 {
		t.Error("CheckField accepts prompt kind assistant")
	}
}
