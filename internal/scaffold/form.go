package scaffold

import (
	"errors"
	"strconv"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/validate"
)

func init() {
	k := declKind(KindFormContent, 60, "A form-content pack (form templates with typed fields, no code)",
		"pack/form-README.md.tmpl", FormPackAnswers{}.Defaults, func(a *FormPackAnswers) *Identity { return &a.Identity }, PlanFormPack)
	k.Aliases = map[string]string{"form.": "templates.0."}
	k.Pointers = formPointers
	registerKind(k)
}

// KindFormContent is the pack.json "kind" of a form-content pack.
const KindFormContent = kinds.FormContentName

// FormPackAnswers describe a new form-content pack: a declarative pack (no
// runtime) of form templates a host instantiates through its normal create
// path (spec v2 form-content-packs.md).
type FormPackAnswers struct {
	Identity
	Templates []FormTemplateAnswers `json:"templates"` // at least one
}

// FormTemplateAnswers describe one form template.
type FormTemplateAnswers struct {
	// ID is the templateId, or, without a dot, a suffix appended to the pack name.
	ID          string             `json:"id" doc:"templateId,derived"`
	Version     string             `json:"version"`
	Label       string             `json:"label"` // the picker's name; default: the id's last part, title-cased
	Title       string             `json:"title"` // the form's heading; default: the label
	Description string             `json:"description"`
	Category    string             `json:"category"`
	Fields      []FormFieldAnswers `json:"fields"` // at least one, in presentation order
}

// FormFieldAnswers describe one typed field.
type FormFieldAnswers struct {
	ID          string   `json:"id"`
	Type        string   `json:"type"`   // FormFieldTypes(), or a vendor.<org>.<kind> / x-<kind> extension
	Label       string   `json:"label"`  // required by the schema; default: the id title-cased
	Format      string   `json:"format"` // FormFieldFormats() ("" omits it)
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Default     string   `json:"default" doc:"default,derived"` // "" omits it; read as the field's type
	Options     []string `json:"options"`                       // the choices of a select or multiselect
}

// Defaults returns the answers of a new form-content pack: one contact form.
func (FormPackAnswers) Defaults() FormPackAnswers {
	return FormPackAnswers{Identity: newIdentity(KindFormContent), Templates: []FormTemplateAnswers{FormTemplateAnswers{}.Defaults()}}
}

// Defaults returns the answers of a first form: name, email and a message.
func (FormTemplateAnswers) Defaults() FormTemplateAnswers {
	return FormTemplateAnswers{
		ID: "contact", Version: "0.1.0", Label: "Contact", Title: "Get in touch",
		Description: "A name, an email address and a message.", Category: "contact",
		Fields: []FormFieldAnswers{
			{ID: "name", Type: "text", Label: "Your name", Required: true, Options: []string{}},
			{ID: "email", Type: "text", Label: "Email", Format: "email", Required: true},
			{ID: "message", Type: "longtext", Label: "Message", Required: true, Description: "What can we help with?"},
		},
	}
}

// FormFieldTypes lists the portable field types (the plain alternatives of
// the schema's type pattern).
func FormFieldTypes() []string { return formFieldTypes() }

// FormFieldFormats lists the field formats (the plain alternatives of the
// schema's format pattern; x-<format> extensions are accepted too).
func FormFieldFormats() []string { return formFieldFormats() }

// FormFormatOther is the format choice of a host's own format, typed apart
// (the schema's x-<format>).
const FormFormatOther = "x-"

// FormFormatChoices are the choices of a form field's format: none, each
// format every host knows (FormFieldFormats), or a host's own.
func FormFormatChoices() []Choice {
	out := []Choice{{Value: "", About: "none"}}
	for _, f := range FormFieldFormats() {
		out = append(out, Choice{Value: f, About: f})
	}
	return append(out, Choice{Value: FormFormatOther, About: "a host's own format (x-…)"})
}

// hostFormat is the schema's form of a host's own format.
var hostFormat = lazyre.New(`^x-[a-z][a-z0-9-]*$`)

// CheckHostFormat says in words why s is not a host's own format (nil when
// it is one): the schema's pattern is not for authors to read.
func CheckHostFormat(s string) error {
	if hostFormat.MatchString(s) {
		return nil
	}
	if s == "" || s == FormFormatOther {
		return errors.New("no host format typed: write x- then the format's name in lower-case letters, digits and dashes, e.g. x-phone")
	}
	return errors.New(strconv.Quote(s) + " is not a host's own format: write x- then lower-case letters, digits and dashes, e.g. x-phone")
}

var (
	formFieldTypes   = schemaPatternWords(kinds.FormContentPack, "/templates/0/fields/0/type")
	formFieldFormats = schemaPatternWords(kinds.FormContentPack, "/templates/0/fields/0/format")
)

// Normalize fills the spec's engines range and the kind.
func (a *FormPackAnswers) Normalize() error { return a.normalize(KindFormContent) }

// Check returns every problem of the answers, as PlanFormPack would refuse
// them (nil when the pack can be written). v may be nil.
func (a FormPackAnswers) Check(v *validate.Validator) FieldErrors {
	_, err := PlanFormPack(a, v)
	return asFieldErrors(err)
}

// PlanFormPack computes the files of a new form-content pack: pack.json,
// README.md, LICENSE and .openwopignore, validated in strict mode (the FC
// rules apply). Nothing is written.
func PlanFormPack(a FormPackAnswers, v *validate.Validator) (*Plan, error) {
	if err := a.Normalize(); err != nil {
		return nil, err
	}
	doc := formPackDoc{packHead: a.head(nil), Templates: []formTemplateDoc{}}
	for _, t := range a.Templates {
		doc.Templates = append(doc.Templates, t.doc(a.Name))
	}
	return planDeclarative(&a.Identity, v, declarative{kind: KindFormContent, hint: "use the answers of the other kind",
		doc: doc, view: a.view(), errs: a.precheck(), fieldOf: formPointers.Field})
}

// precheck refuses what the schema cannot see in the answers.
func (a *FormPackAnswers) precheck() FieldErrors {
	var errs FieldErrors
	for i, t := range a.Templates {
		for j, f := range t.Fields {
			errs = append(errs, checkChoices("templates."+strconv.Itoa(i)+".fields."+strconv.Itoa(j), f.Type, f.Default, f.Options)...)
		}
	}
	return errs
}

// doc builds a template's pack.json entry.
func (t FormTemplateAnswers) doc(pack string) formTemplateDoc {
	id := qualify(pack, t.ID)
	label := t.Label
	if label == "" {
		label = Title(suffix(id))
	}
	title := t.Title
	if title == "" {
		title = label
	}
	d := formTemplateDoc{TemplateID: id, Version: t.Version, Label: label, Title: title, Description: t.Description,
		Category: t.Category, Fields: []formFieldDoc{}}
	for _, f := range t.Fields {
		fd := formFieldDoc{ID: f.ID, Type: f.Type, Label: f.Label, Format: f.Format, Description: f.Description, Required: f.Required}
		if fd.Label == "" {
			fd.Label = Title(f.ID)
		}
		fd.Default, _ = typedDefault(f.Type, f.Default)
		if len(f.Options) > 0 {
			fd.Options = f.Options
		}
		d.Fields = append(d.Fields, fd)
	}
	return d
}

// formPointers maps the answers to pack.json and back.
var formPointers = pointerMap(FormPackAnswers{})

// formView is what templates/pack/form-README.md.tmpl sees.
type formView struct {
	declView
	Templates []formTemplateDoc
}

func (a *FormPackAnswers) view() formView {
	vw := formView{declView: a.Identity.view()}
	for _, t := range a.Templates {
		vw.Templates = append(vw.Templates, t.doc(a.Name))
	}
	return vw
}

// The pack.json of a form-content pack, as ordered Go values (the
// registry's starters pack's key order).

type formPackDoc struct {
	packHead
	Templates []formTemplateDoc `json:"templates"`
}

type formTemplateDoc struct {
	TemplateID  string         `json:"templateId"`
	Version     string         `json:"version"`
	Label       string         `json:"label"`
	Description string         `json:"description,omitempty"`
	Category    string         `json:"category,omitempty"`
	Title       string         `json:"title"`
	Fields      []formFieldDoc `json:"fields"`
}

type formFieldDoc struct {
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	Type        string   `json:"type"`
	Format      string   `json:"format,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Description string   `json:"description,omitempty"`
	Default     any      `json:"default,omitempty"`
	Options     []string `json:"options,omitempty"`
}

// FormFieldPointer returns the JSON pointer in pack.json of a form-content
// pack answer field ("templates.0.fields.1.type" is
// "/templates/0/fields/1/type"), for checking a value as it is typed
// (CheckField with kinds.FormContentPack); "" for answers that are not
// one value of the document as typed (an id without a dot is appended to
// the pack name; a default is read as its field's type).
func FormFieldPointer(field string) string { return formPointers.Pointer(field) }
