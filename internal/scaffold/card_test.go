package scaffold

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// TestCardPackDefaults: the default card pack is a v2 card pack without
// runtime whose template slots, mapping and inputs agree (strictly valid).
func TestCardPackDefaults(t *testing.T) {
	t.Parallel()
	a := CardPackAnswers{}.Defaults()
	a.Name = "vendor.acme.cards"
	p, err := PlanCardPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	pj := p.File("pack.json").Data
	var doc struct {
		Kind    string `json:"kind"`
		Runtime any    `json:"runtime"`
		Cards   []struct {
			CardTypeID string `json:"cardTypeId"`
			Prompt     struct {
				PlaceholderMapping map[string]string `json:"placeholderMapping"`
			} `json:"prompt"`
		} `json:"cards"`
	}
	if err := json.Unmarshal(pj, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "card" || doc.Runtime != nil || len(doc.Cards) != 1 || doc.Cards[0].CardTypeID != "vendor.acme.cards.summarize" ||
		doc.Cards[0].Prompt.PlaceholderMapping["length"] != "inputs.length" {
		t.Errorf("pack.json:\n%s", pj)
	}
	for _, fr := range orDefault(nil).PackFiles("pack.json", p.FS(nil), pj) {
		if fr.Kind != kinds.CardPack || fr.Spec != kinds.V2 || len(fr.Errors)+len(fr.Warnings) > 0 {
			t.Errorf("%s %s: %v %v", fr.Kind, fr.Spec, fr.Errors, fr.Warnings)
		}
	}
	if got := strings.Join(CardInputTypes(), ","); got != "text,longtext,number,boolean,select,multiselect,file,artifact-ref" {
		t.Errorf("input types %s", got)
	}
}

// TestCardPackCheck: refused answers name the answer, in the validator's
// words (CD002, CD003, CD005 and the schema).
func TestCardPackCheck(t *testing.T) {
	t.Parallel()
	checkAnswerCases(t, func() CardPackAnswers {
		a := CardPackAnswers{}.Defaults()
		a.Name = "vendor.acme.cards"
		return a
	}, []answerCase[CardPackAnswers]{
		{"slot without input", "cards.0.template", "{{audience}}", func(a *CardPackAnswers) { a.Cards[0].Template += " For {{audience}}." }},
		{"input unused", "cards.0.inputs.1", "never uses", func(a *CardPackAnswers) { a.Cards[0].Template = "Summarize {{source}}." }},
		{"same input ids", "cards.0.inputs.1.id", "source", func(a *CardPackAnswers) { a.Cards[0].Inputs[1].ID = "source" }},
		{"bad input type", "cards.0.inputs.0.type", "textarea", func(a *CardPackAnswers) { a.Cards[0].Inputs[0].Type = "textarea" }},
		{"bad card id", "cards.0.id", "Summarize", func(a *CardPackAnswers) { a.Cards[0].ID = "vendor.acme.Summarize" }},
		{"select without options", "cards.0.inputs.1.options", "no options", func(a *CardPackAnswers) { a.Cards[0].Inputs[1].Options = nil }},
		{"default not an option", "cards.0.inputs.1.default", "long", func(a *CardPackAnswers) { a.Cards[0].Inputs[1].Default = "long" }},
		{"number default", "cards.0.inputs.0.default", "not a number", func(a *CardPackAnswers) {
			a.Cards[0].Inputs[0].Type, a.Cards[0].Inputs[0].Default = "number", "many"
		}},
		{"empty template", "cards.0.template", "", func(a *CardPackAnswers) { a.Cards[0].Template = "" }},
		{"hot", "cards.0.temperature", "above 2", func(a *CardPackAnswers) { a.Cards[0].Temperature = 2.5 }},
		{"no cards", "cards", "", func(a *CardPackAnswers) { a.Cards = nil }},
	})
}

// TestCardFieldPointer: answer field -> pointer -> the same field, and the
// pointer names a value of the generated pack.json.
func TestCardFieldPointer(t *testing.T) {
	t.Parallel()
	a := CardPackAnswers{}.Defaults()
	a.Name = "vendor.acme.cards"
	a.Cards[0].Output = "vendor.acme.summary"
	p, err := PlanCardPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsondoc.Parse(p.File("pack.json").Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"name", "version", "cards.0.systemPrompt", "cards.0.template", "cards.0.temperature",
		"cards.0.outputArtifactType", "cards.0.schemaVersion", "cards.0.inputs.0.id", "cards.0.inputs.1.type",
		"cards.0.inputs.1.label", "cards.0.inputs.1.options"} {
		ptr := CardFieldPointer(field)
		if ptr == "" || doc.Lookup(ptr) == nil {
			t.Errorf("%s: pointer %q names nothing in pack.json", field, ptr)
			continue
		}
		if back := a.fieldOf(ptr); back != field {
			t.Errorf("%s -> %s -> %s", field, ptr, back)
		}
	}
	if CardFieldPointer("cards.0.id") != "" || CardFieldPointer("cards.0.inputs.0.default") != "" {
		t.Error("a pointer for an answer that is not one value as typed")
	}
	if errs := CheckField(nil, kinds.CardPack, CardFieldPointer("cards.0.inputs.0.type"), "Long Text"); len(errs) == 0 {
		t.Error("CheckField accepts input type Long Text")
	}
}
