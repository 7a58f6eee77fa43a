package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/validate"
)

// TestFormPackDefaults: the default form-content pack is strictly valid,
// with its templateId under the pack name and the lists from the schema.
func TestFormPackDefaults(t *testing.T) {
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
		if fr.Kind != validate.FormContentPack || fr.Spec != validate.V2 || len(fr.Errors)+len(fr.Warnings) > 0 {
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
	cases := []struct {
		name, field, msg string
		edit             func(a *FormPackAnswers)
	}{
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := FormPackAnswers{}.Defaults()
			a.Name = "vendor.acme.forms"
			c.edit(&a)
			errs := a.Check(nil)
			if len(errs.For(c.field)) == 0 {
				t.Fatalf("no problem for %s; got %v", c.field, errs)
			}
			if !strings.Contains(errs.For(c.field).Error(), c.msg) {
				t.Errorf("%s: %v, want %q", c.field, errs.For(c.field), c.msg)
			}
		})
	}
}

// TestFormScaffoldAjv: ajv accepts the default form-content pack under the
// v2 and the registry's v1 schemas, and refuses a bad field format.
func TestFormScaffoldAjv(t *testing.T) {
	for _, c := range []struct{ spec, set string }{{SpecV2, "v2"}, {SpecV1, "registry-v1"}} {
		t.Run(c.spec, func(t *testing.T) {
			check := ajvSchemas(t, c.set)
			a := FormPackAnswers{}.Defaults()
			a.Name, a.Spec = "vendor.acme.forms", c.spec
			a.Templates[0].Fields = append(a.Templates[0].Fields, FormFieldAnswers{ID: "topic", Type: "select", Label: "Topic",
				Options: []string{"sales", "support"}, Default: "support"})
			p, err := PlanFormPack(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := p.Write(dir, false); err != nil {
				t.Fatal(err)
			}
			pj := filepath.Join(dir, "pack.json")
			if ok, out := check("form-content-pack-manifest.schema.json", pj); !ok {
				t.Errorf("ajv refuses the %s form pack:\n%s\n%s", c.spec, out, p.File("pack.json").Data)
			}
			broken := strings.Replace(string(p.File("pack.json").Data), `"format": "email"`, `"format": "phone"`, 1)
			if err := os.WriteFile(pj, []byte(broken), 0o644); err != nil {
				t.Fatal(err)
			}
			if ok, _ := check("form-content-pack-manifest.schema.json", pj); ok {
				t.Error("ajv accepts format phone")
			}
		})
	}
}
