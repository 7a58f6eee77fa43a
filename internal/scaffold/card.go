package scaffold

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/validate"
)

func init() {
	k := declKind(KindCard, 50, "A card pack (AI chat cards with typed inputs, no code)",
		"pack/card-README.md.tmpl", CardPackAnswers{}.Defaults, func(a *CardPackAnswers) *Identity { return &a.Identity }, PlanCardPack)
	k.Aliases = map[string]string{"card.": "cards.0."}
	k.Pointers = cardPointers
	registerKind(k)
}

// KindCard is the pack.json "kind" of an AI chat card pack.
const KindCard = kinds.CardName

// CardPackAnswers describe a new card pack: a declarative pack (no
// runtime) of AI chat cards, each a prompt template with typed inputs the
// host collects (RFC 0071).
type CardPackAnswers struct {
	Identity
	Cards []CardAnswers `json:"cards"` // at least one
}

// CardAnswers describe one card. Each input is mapped to the template slot
// of its id ("source": "inputs.source"), so every input is used as
// {{id}} in the template and every slot names an input.
type CardAnswers struct {
	// ID is the cardTypeId, or, without a dot, a suffix appended to the pack name.
	ID            string             `json:"id" doc:"cardTypeId,derived"`
	SchemaVersion int                `json:"schemaVersion"`                          // negative omits it
	SystemPrompt  string             `json:"systemPrompt" doc:"prompt/systemPrompt"` // "" omits it
	Template      string             `json:"template" doc:"prompt/template"`         // the prompt body, {{inputId}} slots
	Temperature   float64            `json:"temperature" doc:"prompt/temperature"`   // 0..2; negative omits it
	Output        string             `json:"outputArtifactType"`
	Inputs        []CardInputAnswers `json:"inputs"`
}

// CardInputAnswers describe one typed input of a card.
type CardInputAnswers struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"` // CardInputTypes(), or a vendor.<org>.<kind> / x-<kind> extension
	Label    string   `json:"label"`
	Required bool     `json:"required"`
	Default  string   `json:"default" doc:"default,derived"` // "" omits it; read as the input's type (number, boolean, a comma list)
	Options  []string `json:"options"`                       // the choices of a select or multiselect
}

// Defaults returns the answers of a new card pack: one summarize card.
func (CardPackAnswers) Defaults() CardPackAnswers {
	return CardPackAnswers{Identity: newIdentity(KindCard), Cards: []CardAnswers{CardAnswers{}.Defaults()}}
}

// Defaults returns the answers of a first card: a summary of a long text
// at a chosen length.
func (CardAnswers) Defaults() CardAnswers {
	return CardAnswers{
		ID: "summarize", SchemaVersion: 1, Temperature: 0.3,
		SystemPrompt: "You summarize text faithfully: keep its facts and decisions, add nothing it does not say.",
		Template:     "Summarize this text in a {{length}} form.\n\n{{source}}",
		Inputs: []CardInputAnswers{
			{ID: "source", Type: "longtext", Label: "Text to summarize", Required: true, Options: []string{}},
			{ID: "length", Type: "select", Label: "Length", Default: "short", Options: []string{"one-line", "short", "detailed"}},
		},
	}
}

// CardInputTypes lists the portable input types (the alternatives the
// schema's type pattern spells out; vendor.<org>.<kind> and x-<kind> host
// extensions are accepted too).
func CardInputTypes() []string { return cardInputTypes() }

var cardInputTypes = schemaPatternWords(kinds.CardPack, "/cards/0/inputs/0/type")

// Normalize fills the spec's engines range and the kind.
func (a *CardPackAnswers) Normalize() error { return a.normalize(KindCard) }

// Check returns every problem of the answers, as PlanCardPack would refuse
// them (nil when the pack can be written). v may be nil.
func (a CardPackAnswers) Check(v *validate.Validator) FieldErrors {
	_, err := PlanCardPack(a, v)
	return asFieldErrors(err)
}

// PlanCardPack computes the files of a new card pack: pack.json, README.md,
// LICENSE and .openwopignore, validated in strict mode (the CD rules
// apply). Nothing is written.
func PlanCardPack(a CardPackAnswers, v *validate.Validator) (*Plan, error) {
	if err := a.Normalize(); err != nil {
		return nil, err
	}
	doc := cardPackDoc{packHead: a.head(nil), Cards: []cardDoc{}}
	for _, c := range a.Cards {
		doc.Cards = append(doc.Cards, c.doc(a.Name))
	}
	return planDeclarative(&a.Identity, v, declarative{kind: KindCard, hint: "use the answers of the other kind",
		doc: doc, view: a.view(), errs: a.precheck(), fieldOf: a.fieldOf})
}

// precheck refuses what the schema cannot see in the answers.
func (a *CardPackAnswers) precheck() FieldErrors {
	var errs FieldErrors
	for i, c := range a.Cards {
		if c.Temperature > 2 {
			errs = append(errs, FieldError{Field: "cards." + strconv.Itoa(i) + ".temperature", Message: fmt.Sprintf("temperature %g is above 2", c.Temperature),
				Hint: "give a sampling temperature from 0 to 2, or a negative number to leave it out"})
		}
		for j, in := range c.Inputs {
			errs = append(errs, checkChoices("cards."+strconv.Itoa(i)+".inputs."+strconv.Itoa(j), in.Type, in.Default, in.Options)...)
		}
	}
	return errs
}

// defaultValue returns the input's default as its type reads it.
func (in CardInputAnswers) defaultValue() (any, error) { return typedDefault(in.Type, in.Default) }

// typedDefault reads the default of a card input or form field as its
// type: a number, a boolean, a list for multiselect, else the text.
func typedDefault(typ, def string) (any, error) {
	if def == "" {
		return nil, nil
	}
	switch typ {
	case "number":
		f, err := strconv.ParseFloat(def, 64)
		if err != nil {
			return nil, fmt.Errorf("default %q is not a number", def)
		}
		return f, nil
	case "boolean":
		b, err := strconv.ParseBool(def)
		if err != nil {
			return nil, fmt.Errorf("default %q is not true or false", def)
		}
		return b, nil
	case "multiselect":
		var out []string
		for _, d := range strings.Split(def, ",") {
			out = append(out, strings.TrimSpace(d))
		}
		return out, nil
	}
	return def, nil
}

// checkChoices refuses a select or multiselect without options, a default
// that its type cannot read, and a choice default outside the options.
func checkChoices(field, typ, def string, options []string) FieldErrors {
	var errs FieldErrors
	choice := typ == "select" || typ == "multiselect"
	if choice && len(options) == 0 {
		errs = append(errs, FieldError{Field: field + ".options", Message: fmt.Sprintf("a %s has no options to choose from", typ),
			Hint: "give the choices, comma-separated"})
	}
	if _, err := typedDefault(typ, def); err != nil {
		errs = append(errs, FieldError{Field: field + ".default", Message: err.Error(), Hint: "give a default of the type, or none"})
	} else if choice && def != "" && len(options) > 0 {
		for _, d := range strings.Split(def, ",") {
			if slices.Index(options, strings.TrimSpace(d)) < 0 {
				errs = append(errs, FieldError{Field: field + ".default", Message: fmt.Sprintf("default %q is not one of the options", d),
					Hint: "use one of: " + strings.Join(options, ", ")})
			}
		}
	}
	return errs
}

// patternWords returns the plain-word alternatives of a schema pattern
// such as ^(text|longtext|...|vendor\.[a-z]...|x-[a-z]...)$: the values a
// menu can offer (the extension forms are typed by hand).
func patternWords(p string) []string {
	p = strings.TrimSuffix(strings.TrimPrefix(p, "^("), ")$")
	var out []string
	for _, alt := range strings.Split(p, "|") {
		if plainWord.MatchString(alt) {
			out = append(out, alt)
		}
	}
	return out
}

var plainWord = lazyre.New(`^[a-z][a-z-]*$`)

// doc builds a card's pack.json entry.
func (c CardAnswers) doc(pack string) cardDoc {
	d := cardDoc{CardTypeID: qualify(pack, c.ID), OutputArtifactType: c.Output}
	if c.SchemaVersion >= 0 {
		sv := c.SchemaVersion
		d.SchemaVersion = &sv
	}
	mapping := obj{}
	seen := map[string]bool{}
	for _, in := range c.Inputs {
		id := cardInputDoc{ID: in.ID, Type: in.Type, Label: in.Label, Required: in.Required}
		id.Default, _ = in.defaultValue()
		if len(in.Options) > 0 {
			id.Options = in.Options
		}
		d.Inputs = append(d.Inputs, id)
		if !seen[in.ID] { // a repeated id is CD005's
			seen[in.ID] = true
			mapping = append(mapping, member{in.ID, "inputs." + in.ID})
		}
	}
	d.Prompt = cardPromptDoc{SystemPrompt: c.SystemPrompt, Template: c.Template, PlaceholderMapping: mapping}
	if c.Temperature >= 0 {
		t := c.Temperature
		d.Prompt.Temperature = &t
	}
	return d
}

// cardPointers maps the answers to pack.json and back.
var cardPointers = pointerMap(CardPackAnswers{})

// fieldOf maps a pointer in the generated pack.json to the answer it
// comes from: a placeholderMapping member is the input of its id
// ("/cards/0/prompt/placeholderMapping/length" is "cards.0.inputs.1"),
// which the answers say; else as cardPointers says.
func (a *CardPackAnswers) fieldOf(pointer string) string {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) >= 4 && toks[0] == "cards" && toks[2] == "prompt" && toks[3] == "placeholderMapping" {
		pre := "cards." + toks[1]
		if i, ok := atoi(toks[1]); ok && i < len(a.Cards) && len(toks) >= 5 {
			for j, in := range a.Cards[i].Inputs {
				if in.ID == toks[4] {
					return pre + ".inputs." + strconv.Itoa(j)
				}
			}
		}
		return pre + ".inputs"
	}
	return cardPointers.Field(pointer)
}

// cardView is what templates/pack/card-README.md.tmpl sees.
type cardView struct {
	declView
	Cards []cardItemView
}

type cardItemView struct {
	ID     string
	Inputs []CardInputAnswers
}

func (a *CardPackAnswers) view() cardView {
	vw := cardView{declView: a.Identity.view()}
	for _, c := range a.Cards {
		vw.Cards = append(vw.Cards, cardItemView{ID: qualify(a.Name, c.ID), Inputs: c.Inputs})
	}
	return vw
}

// The pack.json of a card pack, as ordered Go values (the registry
// sample's key order).

type cardPackDoc struct {
	packHead
	Cards []cardDoc `json:"cards"`
}

type cardDoc struct {
	CardTypeID         string         `json:"cardTypeId"`
	SchemaVersion      *int           `json:"schemaVersion,omitempty"`
	Inputs             []cardInputDoc `json:"inputs,omitempty"`
	Prompt             cardPromptDoc  `json:"prompt"`
	OutputArtifactType string         `json:"outputArtifactType,omitempty"`
}

type cardInputDoc struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Label    string   `json:"label,omitempty"`
	Required bool     `json:"required"`
	Default  any      `json:"default,omitempty"`
	Options  []string `json:"options,omitempty"`
}

type cardPromptDoc struct {
	SystemPrompt       string   `json:"systemPrompt,omitempty"`
	Template           string   `json:"template"`
	PlaceholderMapping obj      `json:"placeholderMapping"`
	Temperature        *float64 `json:"temperature,omitempty"`
}

// CardFieldPointer returns the JSON pointer in pack.json of a card pack
// answer field ("cards.0.inputs.1.type" is "/cards/0/inputs/1/type"), for
// checking a value as it is typed (CheckField with kinds.CardPack); ""
// for answers that are not one value of the document as typed (a card id
// without a dot is appended to the pack name; a default is read as its
// input's type).
func CardFieldPointer(field string) string { return cardPointers.Pointer(field) }
