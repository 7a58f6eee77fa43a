package scaffold

import (
	"fmt"
	"strconv"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

func init() {
	k := declKind(KindPrompt, 30, "A prompt pack (prompt templates with variables, no code)",
		"pack/prompt-README.md.tmpl", PromptPackAnswers{}.Defaults, func(a *PromptPackAnswers) *Identity { return &a.Identity }, PlanPromptPack)
	k.Pointers = promptPointers
	k.Full = func() any {
		p := PromptPackAnswers{}.Defaults()
		p.Prompts = []PromptAnswers{PromptAnswers{}.Defaults()} // the template with variables
		return &p
	}
	registerKind(k)
}

// KindPrompt is the pack.json "kind" of a prompt pack.
const KindPrompt = kinds.PromptName

// PromptPackAnswers describe a new prompt pack: a declarative pack (no
// runtime) of versioned prompt templates that hosts install into their
// prompt library (spec v2 prompts, RFC 0027/0028).
type PromptPackAnswers struct {
	Identity
	Dependencies map[string]string `json:"dependencies"` // packs whose templates these reference
	Prompts      []PromptAnswers   `json:"prompts"`      // at least one
}

// PromptAnswers describe one prompt template.
type PromptAnswers struct {
	ID          string            `json:"id" doc:"templateId"` // the templateId (written as given: "writer-system")
	Version     string            `json:"version"`
	Kind        string            `json:"kind"` // PromptKinds(): system, user, few-shot, schema-hint
	Name        string            `json:"name"` // display name; default: the id title-cased
	Description string            `json:"description"`
	Text        string            `json:"text"` // the body; {{varName}} placeholders
	Variables   []VariableAnswers `json:"variables"`
	Tags        []string          `json:"tags"`
	ModelClass  string            `json:"modelClass" doc:"modelHints/modelClass"` // modelHints.modelClass ("" omits)
	// Temperature is modelHints.temperature (0..2); negative omits it.
	Temperature float64 `json:"temperature" doc:"modelHints/temperature"`
}

// VariableAnswers describe one {{varName}} slot of a template.
type VariableAnswers struct {
	Name        string `json:"name"`
	Type        string `json:"type"`   // PromptVariableTypes()
	Source      string `json:"source"` // PromptVariableSources(), "" omits it
	Required    bool   `json:"required"`
	Default     string `json:"default" doc:"defaultValue"` // defaultValue of an optional string variable ("" omits it)
	Description string `json:"description"`
}

// Defaults returns the answers of a new prompt pack: a system template and
// a user template whose {{text}} and {{tone}} are declared variables.
func (PromptPackAnswers) Defaults() PromptPackAnswers {
	return PromptPackAnswers{
		Identity:     newIdentity(KindPrompt),
		Dependencies: map[string]string{},
		Prompts: []PromptAnswers{
			{ID: "summarizer-system", Version: "0.1.0", Kind: "system", Name: "Summarizer (system)",
				Description: "System prompt of a careful summarizer.",
				Text:        "You are a careful summarizer. Keep to what the text says, do not invent facts, and say when the text is too short to summarize.",
				Variables:   []VariableAnswers{}, Tags: []string{"summary"}, ModelClass: "writing", Temperature: 0.3},
			PromptAnswers{}.Defaults(),
		},
	}
}

// Defaults returns the answers of a user template with two variables.
func (PromptAnswers) Defaults() PromptAnswers {
	return PromptAnswers{
		ID: "summarize-user", Version: "0.1.0", Kind: "user", Name: "Summarize (user)",
		Description: "Asks for a summary of the text, in the tone given.",
		Text:        "Summarize the following text in a {{tone}} tone.\n\n{{text}}",
		Variables: []VariableAnswers{
			{Name: "text", Type: "string", Source: "input", Required: true, Description: "The text to summarize."},
			{Name: "tone", Type: "string", Source: "input", Default: "neutral", Description: "The tone of the summary."},
		},
		Tags: []string{"summary"}, Temperature: -1,
	}
}

// PromptKinds lists the roles a template may play (the schema's enum).
func PromptKinds() []string { return promptKinds() }

// PromptVariableTypes lists the types of a template variable (the schema's enum).
func PromptVariableTypes() []string { return promptVariableTypes() }

// PromptVariableSources lists where a variable's binding comes from (the schema's enum).
func PromptVariableSources() []string { return promptVariableSources() }

var (
	promptKinds           = schemaEnum(kinds.PromptPack, "/prompts/0/kind")
	promptVariableTypes   = schemaEnum(kinds.PromptPack, "/prompts/0/variables/0/type")
	promptVariableSources = schemaEnum(kinds.PromptPack, "/prompts/0/variables/0/source")
)

// Normalize fills the spec's engines range and the kind.
func (a *PromptPackAnswers) Normalize() error { return a.normalize(KindPrompt) }

// Check returns every problem of the answers, as PlanPromptPack would
// refuse them (nil when the pack can be written). v may be nil.
func (a PromptPackAnswers) Check(v *validate.Validator) FieldErrors {
	_, err := PlanPromptPack(a, v)
	return asFieldErrors(err)
}

// PlanPromptPack computes the files of a new prompt pack: pack.json (the
// templates inline, as the registry publishes them), README.md, LICENSE
// and .openwopignore, validated in strict mode (the PR lint rules apply).
// Nothing is written.
func PlanPromptPack(a PromptPackAnswers, v *validate.Validator) (*Plan, error) {
	if err := a.Normalize(); err != nil {
		return nil, err
	}
	doc := promptPackDoc{
		packHead: a.head(a.Dependencies),
		Prompts:  []promptDoc{}, // none is "at least 1 item", not "not null"
	}
	for _, pr := range a.Prompts {
		doc.Prompts = append(doc.Prompts, pr.doc())
	}
	return planDeclarative(&a.Identity, v, declarative{kind: KindPrompt, hint: "use the answers of the other kind",
		doc: doc, view: a.view(), errs: a.precheck(), fieldOf: promptPointers.Field})
}

// precheck refuses what the schemas cannot see in the answers.
func (a *PromptPackAnswers) precheck() FieldErrors {
	var errs FieldErrors
	for i, pr := range a.Prompts {
		if pr.Temperature > 2 {
			errs = append(errs, FieldError{Field: "prompts." + strconv.Itoa(i) + ".temperature", Message: fmt.Sprintf("temperature %g is above 2", pr.Temperature),
				Hint: "give a sampling temperature from 0 to 2, or a negative number to leave it out"})
		}
		for j, va := range pr.Variables {
			if va.Default != "" && va.Required {
				errs = append(errs, FieldError{Field: "prompts." + strconv.Itoa(i) + ".variables." + strconv.Itoa(j) + ".default",
					Message: fmt.Sprintf("variable %q is required and has a default, which is never used", va.Name),
					Hint:    "make the variable not required, so that the default applies, or remove the default"})
			}
		}
	}
	return errs
}

// doc builds a template's pack.json entry.
func (pr PromptAnswers) doc() promptDoc {
	name := pr.Name
	if name == "" {
		name = Title(suffix(pr.ID))
	}
	d := promptDoc{TemplateID: pr.ID, Version: pr.Version, Kind: pr.Kind, Text: pr.Text, Name: name,
		Description: pr.Description, Tags: pr.Tags}
	for _, va := range pr.Variables {
		vd := variableDoc{Name: va.Name, Type: va.Type, Required: va.Required, Source: va.Source, Description: va.Description}
		if va.Default != "" {
			vd.DefaultValue = va.Default
		}
		d.Variables = append(d.Variables, vd)
	}
	if pr.ModelClass != "" || pr.Temperature >= 0 {
		d.ModelHints = &modelHintsDoc{ModelClass: pr.ModelClass}
		if pr.Temperature >= 0 {
			t := pr.Temperature
			d.ModelHints.Temperature = &t
		}
	}
	return d
}

// promptPointers maps the answers to pack.json and back.
var promptPointers = pointerMap(PromptPackAnswers{})

// promptView is what templates/pack/prompt-README.md.tmpl sees.
type promptView struct {
	declView
	Prompts []promptItemView
}

type promptItemView struct {
	ID, Version, Kind, Name, Description string
	Variables                            []VariableAnswers
}

func (a *PromptPackAnswers) view() promptView {
	vw := promptView{declView: a.Identity.view()}
	for _, pr := range a.Prompts {
		d := pr.doc()
		vw.Prompts = append(vw.Prompts, promptItemView{ID: pr.ID, Version: pr.Version, Kind: pr.Kind, Name: d.Name,
			Description: pr.Description, Variables: pr.Variables})
	}
	return vw
}

// The pack.json of a prompt pack, as ordered Go values (the registry
// sample's key order).

type promptPackDoc struct {
	packHead
	Prompts []promptDoc `json:"prompts"`
}

type promptDoc struct {
	TemplateID  string         `json:"templateId"`
	Version     string         `json:"version"`
	Kind        string         `json:"kind"`
	Text        string         `json:"text"`
	Name        string         `json:"name,omitempty"`
	Description string         `json:"description,omitempty"`
	Variables   []variableDoc  `json:"variables,omitempty"`
	Tags        []string       `json:"tags,omitempty"`
	ModelHints  *modelHintsDoc `json:"modelHints,omitempty"`
}

type variableDoc struct {
	Name         string `json:"name"`
	Type         string `json:"type"`
	Required     bool   `json:"required"`
	Source       string `json:"source,omitempty"`
	DefaultValue any    `json:"defaultValue,omitempty"`
	Description  string `json:"description,omitempty"`
}

type modelHintsDoc struct {
	ModelClass  string   `json:"modelClass,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
}

// PromptFieldPointer returns the JSON pointer in pack.json of a prompt
// pack answer field ("prompts.1.variables.0.default" is
// "/prompts/1/variables/0/defaultValue"), for checking a value as it is
// typed (CheckField with kinds.PromptPack); "" for answers that are not
// one value of the document.
func PromptFieldPointer(field string) string { return promptPointers.Pointer(field) }
