package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"fmt"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// A prompt pack: the pack's identity (the identity page), then for each
// prompt template its page, its variables (a page per variable and a list
// page), then the list of templates. The scaffold's PromptPackAnswers hold
// the templates; the identity answers are the pack's.

func init() {
	askKind(scaffold.KindPrompt, "prompt")
	registerList("prompts", func(a *answers) int {
		if a.What != scaffold.KindPrompt {
			return 0
		}
		return len(a.promptPack().Prompts)
	})
	prompt := func(a *answers, i int) *scaffold.PromptAnswers { return &a.promptPack().Prompts[i] }
	register(&page{id: "prompt", title: "prompt template", order: declOrder, doc: docPack, each: "prompts",
		owns: paths("prompts.%d"), groups: promptGroups})
	register(&page{id: "variable", title: "template variable", order: declOrder, doc: docPack, each: "prompts",
		sub:  func(a *answers, i int) int { return len(a.promptPack().Prompts[i].Variables) },
		owns: paths("prompts.%d.variables.%d"), groups: variableGroups})
	register(&page{id: "variables", title: "template variables", order: declOrder, doc: docPack, each: "prompts",
		owns: paths("prompts.%d.variables"), groups: listGroups,
		list: entryList("variable", "variables", "variable", 0, prompt,
			func(p *scaffold.PromptAnswers) int { return len(p.Variables) },
			func(p *scaffold.PromptAnswers, k int) string { return p.Variables[k].Name },
			func(p *scaffold.PromptAnswers) {
				p.Variables = append(p.Variables, scaffold.VariableAnswers{Name: fmt.Sprintf("var%d", len(p.Variables)+1),
					Type: scaffold.PromptVariableTypes()[0], Source: scaffold.PromptVariableSources()[0]})
			},
			func(p *scaffold.PromptAnswers, k int) { p.Variables = removeAt(p.Variables, k) })})
	register(&page{id: "prompts", title: "prompt templates", order: declOrder, doc: docPack, owns: paths("prompts"),
		when: func(a *answers, _ pos) bool { return a.What == scaffold.KindPrompt }, groups: listGroups,
		list: &listSpec{noun: "template", plural: "templates", min: 1,
			count: func(a *answers, _ pos) int { return len(a.promptPack().Prompts) },
			label: func(a *answers, _ pos, k int) string { return a.promptPack().Prompts[k].ID },
			add: func(a *answers, _ pos) {
				p := scaffold.PromptAnswers{}.Defaults()
				p.ID = fmt.Sprintf("prompt%d", len(a.promptPack().Prompts)+1)
				a.promptPack().Prompts = append(a.promptPack().Prompts, p)
			},
			remove: func(a *answers, _ pos, k int) { a.promptPack().Prompts = removeAt(a.promptPack().Prompts, k) },
			entry:  entryOf("prompt")}})
}

// promptPack is the answers of a prompt pack.
func (a *answers) promptPack() *scaffold.PromptPackAnswers {
	return declaredOf[scaffold.PromptPackAnswers](a, scaffold.KindPrompt)
}

func promptGroups(w *wizard, at pos) []*huh.Group {
	k, pr := w.k, &w.a.promptPack().Prompts[at.i]
	key := func(f string) string { return fmt.Sprintf("prompts.%d.%s", at.i, f) }
	text := ask.Pointed(k, kinds.PromptPack, scaffold.PromptFieldPointer)
	return []*huh.Group{
		w.k.Group(
			text(key("id"), "Template id", ask.Str{P: &pr.ID, Def: pr.ID}).Description(k.Fit("the templateId, e.g. writer-system", ask.DescInset)),
			text(key("version"), "Template version", ask.Str{P: &pr.Version, Def: pr.Version}),
			k.Choose(ask.Choice{Key: key("kind"), Title: "Role",
				Desc: k.Help(kinds.PromptPack, scaffold.PromptFieldPointer(key("kind"))),
				Opts: huh.NewOptions(ask.WithCurrent(scaffold.PromptKinds(), pr.Kind)...),
				Acc:  huh.NewPointerAccessor(&pr.Kind)}),
			k.Derived(key("name"), "Name", &pr.Name, kinds.PromptPack, scaffold.PromptFieldPointer(key("name"))),
			text(key("description"), "Description", ask.Str{P: &pr.Description, Def: pr.Description}),
		),
		w.k.Group(
			k.Long(key("text"), "Text", "the template; {{name}} is a variable's slot",
				ask.Str{P: &pr.Text, Def: pr.Text}, kinds.PromptPack, scaffold.PromptFieldPointer(key("text"))),
			text(key("tags"), "Tags", ask.List{P: &pr.Tags, Def: pr.Tags}).Description(k.Fit("comma-separated (optional)", ask.DescInset)),
			k.Optional(key("modelClass"), "Model class", &pr.ModelClass, kinds.PromptPack, scaffold.PromptFieldPointer(key("modelClass"))).
				Placeholder("(optional)"),
			ask.Omittable(k, key("temperature"), "Temperature", &pr.Temperature, kinds.PromptPack, scaffold.PromptFieldPointer(key("temperature"))),
		),
	}
}

func variableGroups(w *wizard, at pos) []*huh.Group {
	k, va := w.k, &w.a.promptPack().Prompts[at.i].Variables[at.j]
	key := func(f string) string { return fmt.Sprintf("prompts.%d.variables.%d.%s", at.i, at.j, f) }
	text := ask.Pointed(k, kinds.PromptPack, scaffold.PromptFieldPointer)
	return []*huh.Group{w.k.Group(
		text(key("name"), "Variable name", ask.Str{P: &va.Name, Def: va.Name}).Description(k.Fit("the template uses it as {{name}}", ask.DescInset)),
		k.Choose(ask.Choice{Key: key("type"), Title: "Type",
			Opts: huh.NewOptions(ask.WithCurrent(scaffold.PromptVariableTypes(), va.Type)...),
			Acc:  huh.NewPointerAccessor(&va.Type)}),
		k.Choose(ask.Choice{Key: key("source"), Title: "Source",
			Desc: k.Help(kinds.PromptPack, scaffold.PromptFieldPointer(key("source"))),
			Opts: huh.NewOptions(ask.WithCurrent(scaffold.PromptVariableSources(), va.Source)...),
			Acc:  huh.NewPointerAccessor(&va.Source)}),
		k.Yes(key("required"), "Required?", huh.NewPointerAccessor(&va.Required)),
	),
		// a required variable's default is never used: asked only when it is not required
		w.hideWhen(w.k.Group(k.Optional(key("default"), "Default", &va.Default, kinds.PromptPack, scaffold.PromptFieldPointer(key("default"))).
			Placeholder("(optional, used when the caller gives none)")), func() bool { return va.Required }),
		w.k.Group(text(key("description"), "Description", ask.Str{P: &va.Description, Def: va.Description})),
	}
}
