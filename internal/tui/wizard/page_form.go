package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"fmt"
	"slices"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// A form-content pack: the pack's identity (the identity page), then for
// each form template its page, its fields (a page per field and a list
// page), then the list of templates. The scaffold's FormPackAnswers hold
// the templates; the identity answers are the pack's.

func init() {
	askKind(scaffold.KindFormContent, "form")
	registerList("forms", func(a *answers) int {
		if a.What != scaffold.KindFormContent {
			return 0
		}
		return len(a.formPack().Templates)
	})
	form := func(a *answers, i int) *scaffold.FormTemplateAnswers { return &a.formPack().Templates[i] }
	register(&page{id: "form", title: "form template", order: declOrder, doc: docPack, each: "forms",
		owns: paths("templates.%d"), groups: formGroups})
	register(&page{id: "field", title: "form field", order: declOrder, doc: docPack, each: "forms",
		sub:  func(a *answers, i int) int { return len(a.formPack().Templates[i].Fields) },
		owns: paths("templates.%d.fields.%d"), groups: formFieldGroups})
	register(&page{id: "fields", title: "form fields", order: declOrder, doc: docPack, each: "forms",
		owns: paths("templates.%d.fields"), groups: listGroups,
		list: entryList("field", "fields", "field", 1, form,
			func(t *scaffold.FormTemplateAnswers) int { return len(t.Fields) },
			func(t *scaffold.FormTemplateAnswers, k int) string {
				return t.Fields[k].ID + " (" + t.Fields[k].Type + ")"
			},
			func(t *scaffold.FormTemplateAnswers) {
				t.Fields = append(t.Fields, scaffold.FormFieldAnswers{ID: fmt.Sprintf("field%d", len(t.Fields)+1),
					Type: scaffold.FormFieldTypes()[0], Options: []string{}})
			},
			func(t *scaffold.FormTemplateAnswers, k int) { t.Fields = removeAt(t.Fields, k) })})
	register(&page{id: "forms", title: "form templates", order: declOrder, doc: docPack, owns: paths("templates"),
		when: func(a *answers, _ pos) bool { return a.What == scaffold.KindFormContent }, groups: listGroups,
		list: &listSpec{noun: "form", plural: "forms", min: 1,
			count: func(a *answers, _ pos) int { return len(a.formPack().Templates) },
			label: func(a *answers, _ pos, k int) string { return a.formPack().Templates[k].ID },
			add: func(a *answers, _ pos) {
				t := scaffold.FormTemplateAnswers{}.Defaults()
				t.ID = fmt.Sprintf("form%d", len(a.formPack().Templates)+1)
				a.formPack().Templates = append(a.formPack().Templates, t)
			},
			remove: func(a *answers, _ pos, k int) { a.formPack().Templates = removeAt(a.formPack().Templates, k) },
			entry:  entryOf("form")}})
}

// formPack is the answers of a form pack.
func (a *answers) formPack() *scaffold.FormPackAnswers {
	return declaredOf[scaffold.FormPackAnswers](a, scaffold.KindFormContent)
}

func formGroups(w *wizard, at pos) []*huh.Group {
	k, t := w.k, &w.a.formPack().Templates[at.i]
	key := func(f string) string { return fmt.Sprintf("templates.%d.%s", at.i, f) }
	text := ask.Pointed(k, kinds.FormContentPack, scaffold.FormFieldPointer)
	return []*huh.Group{w.k.Group(
		qualified(w, kinds.FormContentPack, key("id"), "Form id", ask.Str{P: &t.ID, Def: t.ID}, fmt.Sprintf("/templates/%d/templateId", at.i)).
			Description(k.Fit("appended to the pack name to form the templateId", ask.DescInset)),
		text(key("version"), "Form version", ask.Str{P: &t.Version, Def: t.Version}),
		k.Derived(key("label"), "Label", &t.Label, kinds.FormContentPack, scaffold.FormFieldPointer(key("label"))),
		k.Optional(key("title"), "Title", &t.Title, kinds.FormContentPack, scaffold.FormFieldPointer(key("title"))).Placeholder("(the label)"),
		text(key("description"), "Description", ask.Str{P: &t.Description, Def: t.Description}),
		text(key("category"), "Category", ask.Str{P: &t.Category, Def: t.Category}),
	)}
}

func formFieldGroups(w *wizard, at pos) []*huh.Group {
	k, f := w.k, &w.a.formPack().Templates[at.i].Fields[at.j]
	key := func(s string) string { return fmt.Sprintf("templates.%d.fields.%d.%s", at.i, at.j, s) }
	text := ask.Pointed(k, kinds.FormContentPack, scaffold.FormFieldPointer)
	format, other := w.formatChoice(key("format"), &f.Format)
	return []*huh.Group{
		w.k.Group(
			text(key("id"), "Field id", ask.Str{P: &f.ID, Def: f.ID}),
			k.Choose(ask.Choice{Key: key("type"), Title: "Type",
				Desc: k.Help(kinds.FormContentPack, scaffold.FormFieldPointer(key("type"))),
				Opts: huh.NewOptions(ask.WithCurrent(scaffold.FormFieldTypes(), f.Type)...),
				Acc:  huh.NewPointerAccessor(&f.Type)}),
			k.Derived(key("label"), "Label", &f.Label, kinds.FormContentPack, scaffold.FormFieldPointer(key("label"))),
			format,
		),
		other,
		w.k.Group(
			text(key("description"), "Description", ask.Str{P: &f.Description, Def: f.Description}),
			k.Yes(key("required"), "Required?", huh.NewPointerAccessor(&f.Required)),
			k.Optional(key("default"), "Default", &f.Default, "", "").Placeholder("(optional, read as the type: a number, true, a, b)"),
			text(key("options"), "Options", ask.List{P: &f.Options, Def: f.Options}).Description(k.Fit("a select's choices, comma-separated", ask.DescInset)),
		),
	}
}

// formatChoice asks a form field's format as a choice: none, one of the
// formats every host knows, or a host's own x-… format typed on a page of
// its own (shown only when chosen). The schema's pattern is never shown:
// a typed format that does not fit is said in words.
func (w *wizard) formatChoice(key string, v *string) (huh.Field, *huh.Group) {
	k := w.k
	chosen := *v
	switch {
	case chosen == "", slices.Contains(scaffold.FormFieldFormats(), chosen):
	default:
		chosen = scaffold.FormFormatOther
	}
	// The answer holds the choice (an "x-" started when a host's own is
	// chosen), so that a page built again (accessible mode builds it after
	// each question, going back builds it too) still asks the host format.
	w.onSync(func() {
		if chosen != scaffold.FormFormatOther {
			*v = chosen
		} else if !strings.HasPrefix(*v, scaffold.FormFormatOther) {
			*v = scaffold.FormFormatOther
		}
	})
	var opts []huh.Option[string]
	for _, c := range scaffold.FormFormatChoices() {
		opts = append(opts, huh.NewOption(c.About, c.Value))
	}
	list := k.Choose(ask.Choice{Key: key, Title: "Format",
		Desc: k.Help(kinds.FormContentPack, scaffold.FormFieldPointer(key)), Opts: opts,
		Acc: huh.NewPointerAccessor(&chosen)})
	in := k.Reg(k.Text(key+".other", "Host format", ask.Str{P: v, Def: scaffold.FormFormatOther}, "", "").Placeholder("x-phone").
		Description("a format a host of yours knows: x- then lower-case letters, digits and dashes"),
		scaffold.CheckHostFormat)
	return list, w.hideWhen(w.k.Group(in), func() bool { return chosen != scaffold.FormFormatOther })
}
