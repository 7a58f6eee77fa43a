package wizard

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// A form-content pack: the pack's identity (the identity page), then for
// each form template its page, its fields (a page per field and a list
// page), then the list of templates. The scaffold's FormPackAnswers hold
// the templates; the identity answers are the pack's.

func init() {
	askKind(scaffold.KindFormContent)
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
	text := pointed(k, validate.FormContentPack, scaffold.FormFieldPointer)
	return []*huh.Group{w.k.group(
		qualified(w, validate.FormContentPack, key("id"), "Form id", str{p: &t.ID, def: t.ID}, fmt.Sprintf("/templates/%d/templateId", at.i)).
			Description(k.fit("appended to the pack name to form the templateId", descInset)),
		text(key("version"), "Form version", str{p: &t.Version, def: t.Version}),
		k.derived(key("label"), "Label", &t.Label, validate.FormContentPack, scaffold.FormFieldPointer(key("label"))),
		k.optional(key("title"), "Title", &t.Title, validate.FormContentPack, scaffold.FormFieldPointer(key("title"))).Placeholder("(the label)"),
		text(key("description"), "Description", str{p: &t.Description, def: t.Description}),
		text(key("category"), "Category", str{p: &t.Category, def: t.Category}),
	)}
}

func formFieldGroups(w *wizard, at pos) []*huh.Group {
	k, f := w.k, &w.a.formPack().Templates[at.i].Fields[at.j]
	key := func(s string) string { return fmt.Sprintf("templates.%d.fields.%d.%s", at.i, at.j, s) }
	text := pointed(k, validate.FormContentPack, scaffold.FormFieldPointer)
	format, other := w.formatChoice(key("format"), &f.Format)
	return []*huh.Group{
		w.k.group(
			text(key("id"), "Field id", str{p: &f.ID, def: f.ID}),
			k.choose(choice{key: key("type"), title: "Type",
				desc: k.help(validate.FormContentPack, scaffold.FormFieldPointer(key("type"))),
				opts: huh.NewOptions(withCurrent(scaffold.FormFieldTypes(), f.Type)...),
				acc:  huh.NewPointerAccessor(&f.Type)}),
			k.derived(key("label"), "Label", &f.Label, validate.FormContentPack, scaffold.FormFieldPointer(key("label"))),
			format,
		),
		other,
		w.k.group(
			text(key("description"), "Description", str{p: &f.Description, def: f.Description}),
			k.yes(key("required"), "Required?", huh.NewPointerAccessor(&f.Required)),
			k.optional(key("default"), "Default", &f.Default, "", "").Placeholder("(optional, read as the type: a number, true, a, b)"),
			text(key("options"), "Options", list{p: &f.Options, def: f.Options}).Description(k.fit("a select's choices, comma-separated", descInset)),
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
	list := k.choose(choice{key: key, title: "Format",
		desc: k.help(validate.FormContentPack, scaffold.FormFieldPointer(key)), opts: opts,
		acc: huh.NewPointerAccessor(&chosen)})
	in := k.reg(k.text(key+".other", "Host format", str{p: v, def: scaffold.FormFormatOther}, "", "").Placeholder("x-phone").
		Description("a format a host of yours knows: x- then lower-case letters, digits and dashes"),
		scaffold.CheckHostFormat)
	return list, w.hideWhen(w.k.group(in), func() bool { return chosen != scaffold.FormFormatOther })
}
