package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"slices"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// The first pages: what to create, the pack's identity and its runtime.

const pageIdentity = "identity"

func init() {
	register(&page{id: "what", title: "what to create", order: 10, doc: docPack, groups: whatGroups})
	register(&page{id: pageIdentity, title: "identity", order: 20, doc: docPack,
		when:   func(a *answers, _ pos) bool { return a.isPack() },
		owns:   paths("name", "version", "description", "author", "license", "homepage", "repository", "keywords", "engines", "spec"),
		names:  map[string]string{"name": "Pack name"},
		groups: identityGroups})
	register(&page{id: "runtime", title: "runtime", order: 30, doc: docPack,
		when: func(a *answers, _ pos) bool { return a.hasNodes() }, owns: paths("runtime"), groups: runtimeGroups})
}

// whatKinds are the things the wizard creates, as the first page offers them.
var whatKinds = []scaffold.Choice{
	{Value: whatMixed, About: "A pack with a node, an agent (with an eval suite) and a tool manifest"},
	{Value: whatNodes, About: "A pack of nodes"},
	{Value: whatAgent, About: "An agent-only pack (remote runtime, no code)"},
	{Value: whatTool, About: "A standalone tool install manifest"},
	{Value: whatSoloAgent, About: "A standalone agent manifest"},
	{Value: whatSoloEval, About: "A standalone eval suite"},
}

// offered is what the first page lists: whatKinds, then the declarative
// kinds the wizard asks (their pages files register them), in the
// scaffold's order, each described by the scaffold.
func offered() []scaffold.Choice {
	out := slices.Clone(whatKinds)
	for _, k := range scaffold.Kinds() {
		if _, ok := wizardKinds[k.Name]; ok && k.IsPack() {
			out = append(out, scaffold.Choice{Value: k.Name, About: k.About})
		}
	}
	return out
}

func whatGroups(w *wizard, _ pos) []*huh.Group {
	var opts []huh.Option[string]
	for _, c := range offered() {
		label := c.About
		if w.k.Accessible { // its name, which an answer may give
			label = c.Value + ": " + c.About
		}
		opts = append(opts, huh.NewOption(label, c.Value))
	}
	return []*huh.Group{w.k.Group(w.k.Choose(ask.Choice{Key: "what", Title: "What do you want to create?",
		Opts: opts, Acc: huh.NewPointerAccessor(&w.a.What)}))}
}

// identityGroups ask the pack's name (scope, organisation, name part) and
// details.
func identityGroups(w *wizard, _ pos) []*huh.Group {
	k, a := w.k, w.a
	def := scaffold.PackAnswers{}.Defaults()
	_, defOrg, defPart := scaffold.SplitName(def.Name)
	nameCheck := func(tv ask.TextValue, part func(string) string) func(string) error {
		return func(s string) error {
			return k.Check(kinds.NodePack, "/name", func(string) any { return part(tv.Value(s).(string)) })(s)
		}
	}
	n := ask.SplitName(&a.Pack.Name)
	scope, org, part := n.Part(0, ""), n.Part(1, defOrg), n.Part(2, defPart)
	license, other := w.license(&a.Pack.License)
	groups := []*huh.Group{
		w.k.Group(
			k.Choose(ask.Choice{Key: "name.scope", Title: "Scope",
				Desc: k.Help(kinds.NodePack, "/name"), Opts: ask.Choices(scaffold.NameScopes),
				Acc: scope}),
			k.Reg(k.Text("name", "Organisation or author", org, "", "").Description(k.Fit("the second part of the name, e.g. acme", ask.DescInset)),
				nameCheck(org, org.With)),
			k.Reg(k.Text("name.part", "Pack name", part, "", "").Description(k.Fit("the last part, e.g. hello-world", ask.DescInset)),
				nameCheck(part, part.With)),
		),
		w.k.Group(
			k.Text("version", "Version", ask.Str{P: &a.Pack.Version, Def: def.Version}, kinds.NodePack, "/version"),
			k.Text("description", "Description", ask.Str{P: &a.Pack.Description, Def: def.Description}, kinds.NodePack, "/description"),
			k.Text("author", "Author", ask.Str{P: &a.Pack.Author, Def: def.Author}, kinds.NodePack, "/author"),
			license,
		),
		other,
		w.k.Group(
			k.Text("homepage", "Homepage", ask.Str{P: &a.Pack.Homepage}, kinds.NodePack, "/homepage").Placeholder("https://… (optional)"),
			k.Text("repository", "Repository", ask.Str{P: &a.Pack.Repository}, kinds.NodePack, "/repository").Placeholder("https://… (optional)"),
			k.Text("keywords", "Keywords", ask.List{P: &a.Pack.Keywords, Def: def.Keywords}, kinds.NodePack, "/keywords").
				Description("comma-separated (optional)"),
		),
	}
	return slices.DeleteFunc(groups, func(g *huh.Group) bool { return g == nil })
}

// runtimeGroups ask the language; format and entry follow from it.
func runtimeGroups(w *wizard, _ pos) []*huh.Group {
	var opts []huh.Option[string]
	for _, lang := range scaffold.Runtimes {
		rs, err := scaffold.Runtime(lang)
		if err != nil || lang == "remote" {
			continue
		}
		label := lang + " (entry " + rs.Entry + ")"
		if rs.Format != "" {
			label = lang + " (" + rs.Format + ", entry " + rs.Entry + ")"
		}
		opts = append(opts, huh.NewOption(label, lang))
	}
	return []*huh.Group{w.k.Group(
		w.k.Choose(ask.Choice{Key: "runtime.language", Title: "Runtime language",
			Desc: w.k.Help(kinds.NodePack, "/runtime/language"), Opts: opts,
			Acc: huh.NewPointerAccessor(&w.a.Pack.Runtime.Language)}),
	)}
}
