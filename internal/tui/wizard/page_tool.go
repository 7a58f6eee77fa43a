package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"errors"
	"fmt"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// A tool install manifest: the tool and how it is installed; its
// environment variables, scopes and actions, each a page per entry and a
// list page; then its smoke test and kill switch.

func init() {
	registerList("env", func(a *answers) int { return len(a.Tool.Env) })
	registerList("scopes", func(a *answers) int { return len(a.Tool.Scopes) })
	registerList("actions", func(a *answers) int { return len(a.Tool.Actions) })
	tool := func(a *answers, _ pos) bool { return a.hasTool() }
	register(&page{id: "tool", title: "tool manifest", order: 60, doc: docTool, when: tool,
		owns: paths("tool", "runtime", "install"), groups: toolGroups})
	register(&page{id: "env", title: "environment variable", order: 62, doc: docTool, each: "env", when: tool,
		owns: paths("env.%d"), groups: envGroups})
	register(&page{id: "envs", title: "environment variables", order: 63, doc: docTool, when: tool,
		owns: paths("env"), groups: listGroups,
		list: &listSpec{noun: "environment variable", plural: "environment variables",
			count: func(a *answers, _ pos) int { return len(a.Tool.Env) },
			label: func(a *answers, _ pos, k int) string {
				e := a.Tool.Env[k]
				if e.IsSecret() {
					return e.Name + " (secret)"
				}
				return e.Name
			},
			add:    func(a *answers, _ pos) { a.Tool.Env = append(a.Tool.Env, scaffold.NewEnv(len(a.Tool.Env))) },
			remove: func(a *answers, _ pos, k int) { a.Tool.Env = removeAt(a.Tool.Env, k) },
			entry:  entryOf("env")}})
	register(&page{id: "scope", title: "scope", order: 64, doc: docTool, each: "scopes", when: tool,
		owns: paths("scopes.%d"), groups: scopeGroups})
	register(&page{id: "scopes", title: "scopes", order: 65, doc: docTool, when: tool,
		owns: paths("scopes"), groups: listGroups,
		list: &listSpec{noun: "scope", plural: "scopes",
			count:  func(a *answers, _ pos) int { return len(a.Tool.Scopes) },
			label:  func(a *answers, _ pos, k int) string { return a.Tool.Scopes[k].Resource },
			add:    func(a *answers, _ pos) { a.Tool.Scopes = append(a.Tool.Scopes, scaffold.NewScope(len(a.Tool.Scopes))) },
			remove: func(a *answers, _ pos, k int) { a.Tool.Scopes = removeAt(a.Tool.Scopes, k) },
			entry:  entryOf("scope")}})
	register(&page{id: "action", title: "action", order: 66, doc: docTool, each: "actions", when: tool,
		owns: paths("actions.%d"), groups: actionGroups})
	register(&page{id: "actions", title: "actions", order: 67, doc: docTool, when: tool,
		owns: paths("actions"), groups: listGroups,
		list: &listSpec{noun: "action", plural: "actions", min: 1,
			count: func(a *answers, _ pos) int { return len(a.Tool.Actions) },
			label: func(a *answers, _ pos, k int) string { return a.Tool.Actions[k].Name },
			add: func(a *answers, _ pos) {
				a.Tool.Actions = append(a.Tool.Actions, scaffold.NewAction(len(a.Tool.Actions)))
			},
			remove: func(a *answers, _ pos, k int) { a.Tool.Actions = removeAt(a.Tool.Actions, k) },
			entry:  entryOf("action")}})
	register(&page{id: "safety", title: "smoke test and kill switch", order: 68, doc: docTool, when: tool,
		owns: paths("smoke", "killSwitch"), groups: safetyGroups})
}

func entryOf(id string) func(pos, int) func(pos) bool {
	return func(_ pos, k int) func(pos) bool {
		return func(p pos) bool { return p.pg.id == id && p.i == k }
	}
}

// toolGroups ask the tool's identity, runtime and install method.
func toolGroups(w *wizard, _ pos) []*huh.Group {
	k, t := w.k, &w.a.Tool
	def := scaffold.ToolAnswers{}.Defaults()
	tk := kinds.ToolManifest
	return []*huh.Group{
		w.k.Group(
			k.Text("tool.id", "Tool id", ask.Str{P: &t.Tool.ID, Def: def.Tool.ID}, tk, "/tool/id"),
			k.Text("tool.version", "Tool version", ask.Str{P: &t.Tool.Version, Def: def.Tool.Version}, tk, "/tool/version"),
			k.Text("tool.name", "Tool name", ask.Str{P: &t.Tool.Name, Def: def.Tool.Name}, tk, "/tool/name"),
			k.Text("tool.summary", "Summary", ask.Str{P: &t.Tool.Summary, Def: def.Tool.Summary}, tk, "/tool/summary"),
			// The homepage follows the id until it is typed (the scaffold's
			// example.com page is only a placeholder to replace); the
			// licence is the pack's when the tool ships in one.
			k.Following("tool.homepage", "Homepage", ask.Follow{P: &t.Tool.Homepage, Def: func() string { return scaffold.ToolHomepage(t.Tool.ID) }},
				&t.Tool.ID, tk, "/tool/homepage"),
			// empty: the pack's licence as it is when the files are written
			k.Text("tool.license", "License (SPDX)", ask.Follow{P: &t.Tool.License, Def: w.toolLicense, Blank: true}, tk, "/tool/license").Suggestions(spdxIDs()),
		),
		w.k.Group(
			k.Choose(ask.Choice{Key: "runtime.kind", Title: "Runtime kind",
				Desc: k.Help(tk, "/runtime/kind"), Opts: k.Enum(tk, "/runtime/kind"),
				Acc: huh.NewPointerAccessor(&t.Runtime.Kind)}),
			k.Choose(ask.Choice{Key: "install.method", Title: "Install method",
				Desc: k.Help(tk, "/runtime/install/method"),
				Opts: huh.NewOptions(scaffold.InstallMethods...),
				Acc:  huh.NewPointerAccessor(&t.Install.Method)}),
			k.Text("install.package", "Package", ask.Str{P: &t.Install.Package}, "", "").Description(k.Fit("empty: the tool id", ask.DescInset)),
		),
	}
}

// toolLicense is the licence a tool is offered: its pack's, or the
// scaffold's usual one for a tool on its own.
func (w *wizard) toolLicense() string {
	if w.a.isPack() && w.a.Pack.License != "" {
		return w.a.Pack.License
	}
	return scaffold.DefaultToolLicense
}

// envGroups ask one environment variable: its name, the prompt the owner
// sees, and whether it is a secret and required. The prompt and the secret
// flag follow the name (scaffold.EnvPrompt, scaffold.SecretName) until
// they are given: accessible mode asks the name first, on its own, so that
// the next questions name what follows from it.
func envGroups(w *wizard, at pos) []*huh.Group {
	k, i := w.k, at.i
	e := &w.a.Tool.Env[i]
	def := scaffold.NewEnv(i)
	tk := kinds.ToolManifest
	key := func(f string) string { return fmt.Sprintf("env.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/env/%d/%s", i, f) }
	name := k.Text(key("name"), "Environment variable", ask.Str{P: &e.Name, Def: def.Name}, tk, ptr("name")).
		Description("a credential or setting the tool reads, e.g. ACME_API_KEY")
	prompt := ask.Follow{P: &e.Prompt, Def: func() string { return scaffold.EnvPrompt(e.Name) }, Blank: true}
	rest := []huh.Field{
		k.Following(key("prompt"), "Prompt", prompt, &e.Name, tk, ptr("prompt")),
		k.Yes(key("secret"), "Is it a secret?", ask.YesNo{Read: e.IsSecret, Write: e.SetSecret}),
		k.Yes(key("required"), "Is it required?", huh.NewPointerAccessor(&e.Required)),
	}
	if k.Accessible {
		return []*huh.Group{w.k.Group(name), w.k.Group(rest...)}
	}
	return []*huh.Group{w.k.Group(append([]huh.Field{name}, rest...)...)}
}

// scopeGroups ask one scope: the resource, what is done with it and why.
func scopeGroups(w *wizard, at pos) []*huh.Group {
	k, i := w.k, at.i
	s := &w.a.Tool.Scopes[i]
	def := scaffold.NewScope(i)
	tk := kinds.ToolManifest
	key := func(f string) string { return fmt.Sprintf("scopes.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/scopes/%d/%s", i, f) }
	return []*huh.Group{w.k.Group(
		k.Text(key("resource"), "Resource", ask.Str{P: &s.Resource, Def: def.Resource}, tk, ptr("resource")).
			Description("what the tool touches, e.g. net.outbound, gmail.messages"),
		k.Multi(key("actions"), "Actions on it", "what the tool does with it", ask.Fixed(k.V.Field(tk, ptr("actions/0")).Enum), &s.Actions, ""),
		k.Text(key("rationale"), "Rationale", ask.Str{P: &s.Rationale, Def: def.Rationale}, tk, ptr("rationale")),
	),
		// written to data_boundary.reads: asked for private data, which has one
		w.hideWhen(w.k.Group(k.Choose(ask.Choice{Key: key("sensitivity"), Title: "Sensitivity of the data",
			Desc: "written to data_boundary.reads for private data (gmail.*, files.*, …)",
			Opts: k.Enum(tk, "/data_boundary/reads/0/sensitivity"), Acc: sensitivity{s}})),
			func() bool { return !scaffold.IsPrivateData(s.Resource) }),
	}
}

// actionGroups ask one action of the tool's catalog.
func actionGroups(w *wizard, at pos) []*huh.Group {
	k, i := w.k, at.i
	t := &w.a.Tool
	act := &t.Actions[i]
	def := scaffold.NewAction(i)
	tk := kinds.ToolManifest
	key := func(f string) string { return fmt.Sprintf("actions.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/actions/%d/%s", i, f) }
	fields := []huh.Field{
		k.Text(key("name"), "Action name", ask.Str{P: &act.Name, Def: def.Name}, tk, ptr("name")),
		k.Text(key("summary"), "Action summary", ask.Str{P: &act.Summary, Def: def.Summary}, tk, ptr("summary")),
		k.Choose(ask.Choice{Key: key("sideEffects"), Title: "Side effects",
			Desc: k.Help(tk, ptr("side_effects")), Opts: k.Enum(tk, ptr("side_effects")),
			Acc: huh.NewPointerAccessor(&act.SideEffects)}),
		k.Text(key("inputs"), "Inputs", ask.List{P: &act.Inputs, Def: def.Inputs}, "", "").Description(k.Fit("comma-separated names of its string inputs", ask.DescInset)),
	}
	if len(t.ScopeChoices()) > 0 || len(act.ScopesUsed) > 0 { // the scopes ticked and then removed are said
		fields = append(fields, k.Multi(key("scopesUsed"), "Scopes it uses", "the scopes this action needs",
			func() []string { return t.ScopeChoices() }, &act.ScopesUsed, "the tool has no scopes"))
	}
	return []*huh.Group{w.k.Group(fields...)}
}

// safetyGroups ask the smoke test and the kill switch; each offers first
// the scaffold's choice from the answers, and says what each choice does
// with them (the action a smoke test calls is one without side effects).
func safetyGroups(w *wizard, _ pos) []*huh.Group {
	t := &w.a.Tool
	derived := *t
	derived.KillSwitch.Kind = scaffold.Derived
	opts := []huh.Option[string]{huh.NewOption("from the answers: "+derived.KillSwitchKind()+why(derived), scaffold.Derived)}
	opts = append(opts, huh.NewOptions(scaffold.KillSwitchKinds...)...)
	return []*huh.Group{w.k.Group(
		w.k.Choose(ask.Choice{Key: "smoke.kind", Title: "Smoke test",
			Desc: "what checks the tool once it is installed", Opts: ask.Choices(t.SmokeChoices()),
			Acc: huh.NewPointerAccessor(&t.Smoke.Kind)}),
		w.k.Choose(ask.Choice{Key: "killSwitch.kind", Title: "Kill switch",
			Desc: "how the owner stops the tool", Opts: opts,
			Acc: huh.NewPointerAccessor(&t.KillSwitch.Kind)}),
	),
		// what the kind chosen needs, asked only for it
		w.hideWhen(w.k.Group(w.k.Reg(w.k.Text("killSwitch.url", "Kill switch address", ask.Str{P: &t.KillSwitch.URL}, "", ""), func(s string) error {
			switch {
			case strings.TrimSpace(s) == "":
				return errors.New("the address is needed: where the owner revokes the tool (https://…)")
			case scaffold.IsPlaceholderURL(s):
				return errors.New(s + " is a placeholder, which stops nothing: give the real address")
			}
			return w.k.Check(kinds.ToolManifest, "/kill_switch/url", func(s string) any { return s })(s)
		}).Description(w.k.Fit("where the owner revokes the tool, e.g. https://acme.dev/tools/revoke", ask.DescInset))),
			func() bool { return t.KillSwitch.Kind != "url" }),
		w.hideWhen(w.k.Group(w.k.Reg(w.k.Text("killSwitch.command", "Kill switch command", ask.Str{P: &t.KillSwitch.Command}, "", ""), func(s string) error {
			if strings.TrimSpace(s) == "" {
				return errors.New("the command is needed: what the owner runs to stop the tool")
			}
			return nil
		}).Description(w.k.Fit("the command that stops the tool, words separated by spaces, e.g. acme-tool revoke", ask.DescInset))),
			func() bool { return t.KillSwitch.Kind != "shell" }),
		w.hideWhen(w.k.Group(w.k.Text("killSwitch.instructions", "Kill switch instructions", ask.Str{P: &t.KillSwitch.Instructions}, "", "").
			Placeholder("(from the answers: remove the tool, then revoke its credentials)").Description(w.k.Fit("what the owner does to stop the tool (optional)", ask.DescInset))),
			func() bool { return t.KillSwitch.Kind != "manual" }),
	}
}

func why(t scaffold.ToolAnswers) string {
	if len(t.Env) == 0 {
		return " (it is given no credentials)"
	}
	var names []string
	for _, e := range t.Env {
		names = append(names, e.Name)
	}
	return " (it is given " + strings.Join(names, ", ") + ")"
}

// sensitivity binds a scope's sensitivity: none given reads as medium,
// what the document says for private data.
type sensitivity struct{ s *scaffold.ScopeAnswers }

func (v sensitivity) Get() string {
	if v.s.Sensitivity == "" {
		return "medium"
	}
	return v.s.Sensitivity
}
func (v sensitivity) Set(x string) { v.s.Sensitivity = x }
