package scaffold

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// TestFormPackDefaults: the default form-content pack is strictly valid,
// with its templateId under the pack name and the lists from the schema.
func TestFormPackDefaults(t *testing.T) {
	t.Parallel()
	a := FormPackAnswers{}.Defaults()
	a.Name = "vendor.acme.forms"
	p, err := PlanFormPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	pj := p.File("pack.json").Data
	if !strings.Contains(string(pj), `"templateId": "vendor.acme.forms.contact"`) || !strings.Contains(string(pj), `"format": "email"`) ||
		strings.Contains(string(pj), "runtime") {
		t.Errorf("pack.json:\n%s", pj)
	}
	for _, fr := range orDefault(nil).PackFiles("pack.json", p.FS(nil), pj) {
		if fr.Kind != kinds.FormContentPack || fr.Spec != kinds.V2 || len(fr.Errors)+len(fr.Warnings) > 0 {
			t.Errorf("%s %s: %v %v", fr.Kind, fr.Spec, fr.Errors, fr.Warnings)
		}
	}
	if got := strings.Join(FormFieldTypes(), ","); got != "text,longtext,number,boolean,select,multiselect,file,artifact-ref" {
		t.Errorf("field types %s", got)
	}
	if got := strings.Join(FormFieldFormats(), ","); got != "email,uri,date,date-time,time" {
		t.Errorf("formats %s", got)
	}
}

// TestFormPackCheck: refused answers name the answer, in the validator's
// words (FC001, FC002 and the schema).
func TestFormPackCheck(t *testing.T) {
	t.Parallel()
	checkAnswerCases(t, func() FormPackAnswers {
		a := FormPackAnswers{}.Defaults()
		a.Name = "vendor.acme.forms"
		return a
	}, []answerCase[FormPackAnswers]{
		{"same field ids", "templates.0.fields.1.id", "name", func(a *FormPackAnswers) { a.Templates[0].Fields[1].ID = "name" }},
		{"same template ids", "templates.1.id", "contact", func(a *FormPackAnswers) {
			a.Templates = append(a.Templates, FormTemplateAnswers{}.Defaults())
		}},
		{"bad type", "templates.0.fields.2.type", "textarea", func(a *FormPackAnswers) { a.Templates[0].Fields[2].Type = "textarea" }},
		{"bad format", "templates.0.fields.1.format", "phone", func(a *FormPackAnswers) { a.Templates[0].Fields[1].Format = "phone" }},
		{"bad field id", "templates.0.fields.0.id", "your name", func(a *FormPackAnswers) { a.Templates[0].Fields[0].ID = "your name" }},
		{"bad version", "templates.0.version", "1", func(a *FormPackAnswers) { a.Templates[0].Version = "1" }},
		{"no fields", "templates.0.fields", "", func(a *FormPackAnswers) { a.Templates[0].Fields = nil }},
		{"select without options", "templates.0.fields.0.options", "no options", func(a *FormPackAnswers) { a.Templates[0].Fields[0].Type = "select" }},
		{"long label", "templates.0.label", "", func(a *FormPackAnswers) { a.Templates[0].Label = strings.Repeat("x", 201) }},
	})
}

// TestFormFieldPointer: answer field -> pointer -> the same field, and the
// pointer names a value of the generated pack.json.
func TestFormFieldPointer(t *testing.T) {
	t.Parallel()
	a := FormPackAnswers{}.Defaults()
	a.Name = "vendor.acme.forms"
	p, err := PlanFormPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsondoc.Parse(p.File("pack.json").Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"name", "version", "templates.0.version", "templates.0.label", "templates.0.title",
		"templates.0.description", "templates.0.category", "templates.0.fields.0.id", "templates.0.fields.1.type",
		"templates.0.fields.1.format", "templates.0.fields.2.description", "templates.0.fields.2.label"} {
		ptr := FormFieldPointer(field)
		if ptr == "" || doc.Lookup(ptr) == nil {
			t.Errorf("%s: pointer %q names nothing in pack.json", field, ptr)
			continue
		}
		if back := formPointers.Field(ptr); back != field {
			t.Errorf("%s -> %s -> %s", field, ptr, back)
		}
	}
	if FormFieldPointer("templates.0.id") != "" || FormFieldPointer("templates.0.fields.0.default") != "" {
		t.Error("a pointer for an answer that is not one value as typed")
	}
	if errs := CheckField(nil, kinds.FormContentPack, FormFieldPointer("templates.0.fields.0.type"), "Long Text"); len(errs) == 0 {
		t.Error("CheckField accepts field type Long Text")
	}
}
