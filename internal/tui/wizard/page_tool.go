package wizard

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
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
	tk := validate.ToolManifest
	return []*huh.Group{
		w.k.group(
			k.text("tool.id", "Tool id", str{p: &t.Tool.ID, def: def.Tool.ID}, tk, "/tool/id"),
			k.text("tool.version", "Tool version", str{p: &t.Tool.Version, def: def.Tool.Version}, tk, "/tool/version"),
			k.text("tool.name", "Tool name", str{p: &t.Tool.Name, def: def.Tool.Name}, tk, "/tool/name"),
			k.text("tool.summary", "Summary", str{p: &t.Tool.Summary, def: def.Tool.Summary}, tk, "/tool/summary"),
			// The homepage follows the id until it is typed (the scaffold's
			// example.com page is only a placeholder to replace); the
			// licence is the pack's when the tool ships in one.
			k.following("tool.homepage", "Homepage", follow{p: &t.Tool.Homepage, def: func() string { return scaffold.ToolHomepage(t.Tool.ID) }},
				&t.Tool.ID, tk, "/tool/homepage"),
			// empty: the pack's licence as it is when the files are written
			k.text("tool.license", "License (SPDX)", follow{p: &t.Tool.License, def: w.toolLicense, blank: true}, tk, "/tool/license").Suggestions(spdxIDs()),
		),
		w.k.group(
			k.choose(choice{key: "runtime.kind", title: "Runtime kind",
				desc: k.help(tk, "/runtime/kind"), opts: k.enum(tk, "/runtime/kind"),
				acc: huh.NewPointerAccessor(&t.Runtime.Kind)}),
			k.choose(choice{key: "install.method", title: "Install method",
				desc: k.help(tk, "/runtime/install/method"),
				opts: huh.NewOptions(scaffold.InstallMethods...),
				acc:  huh.NewPointerAccessor(&t.Install.Method)}),
			k.text("install.package", "Package", str{p: &t.Install.Package}, "", "").Description(k.fit("empty: the tool id", descInset)),
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
	tk := validate.ToolManifest
	key := func(f string) string { return fmt.Sprintf("env.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/env/%d/%s", i, f) }
	name := k.text(key("name"), "Environment variable", str{p: &e.Name, def: def.Name}, tk, ptr("name")).
		Description("a credential or setting the tool reads, e.g. ACME_API_KEY")
	prompt := follow{p: &e.Prompt, def: func() string { return scaffold.EnvPrompt(e.Name) }, blank: true}
	rest := []huh.Field{
		k.following(key("prompt"), "Prompt", prompt, &e.Name, tk, ptr("prompt")),
		k.yes(key("secret"), "Is it a secret?", yesNo{get: e.IsSecret, set: e.SetSecret}),
		k.yes(key("required"), "Is it required?", huh.NewPointerAccessor(&e.Required)),
	}
	if k.accessible {
		return []*huh.Group{w.k.group(name), w.k.group(rest...)}
	}
	return []*huh.Group{w.k.group(append([]huh.Field{name}, rest...)...)}
}

// scopeGroups ask one scope: the resource, what is done with it and why.
func scopeGroups(w *wizard, at pos) []*huh.Group {
	k, i := w.k, at.i
	s := &w.a.Tool.Scopes[i]
	def := scaffold.NewScope(i)
	tk := validate.ToolManifest
	key := func(f string) string { return fmt.Sprintf("scopes.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/scopes/%d/%s", i, f) }
	return []*huh.Group{w.k.group(
		k.text(key("resource"), "Resource", str{p: &s.Resource, def: def.Resource}, tk, ptr("resource")).
			Description("what the tool touches, e.g. net.outbound, gmail.messages"),
		k.multi(key("actions"), "Actions on it", "what the tool does with it", fixed(k.v.Field(tk, ptr("actions/0")).Enum), &s.Actions, ""),
		k.text(key("rationale"), "Rationale", str{p: &s.Rationale, def: def.Rationale}, tk, ptr("rationale")),
	),
		// written to data_boundary.reads: asked for private data, which has one
		w.hideWhen(w.k.group(k.choose(choice{key: key("sensitivity"), title: "Sensitivity of the data",
			desc: "written to data_boundary.reads for private data (gmail.*, files.*, …)",
			opts: k.enum(tk, "/data_boundary/reads/0/sensitivity"), acc: sensitivity{s}})),
			func() bool { return !scaffold.IsPrivateData(s.Resource) }),
	}
}

// actionGroups ask one action of the tool's catalog.
func actionGroups(w *wizard, at pos) []*huh.Group {
	k, i := w.k, at.i
	t := &w.a.Tool
	act := &t.Actions[i]
	def := scaffold.NewAction(i)
	tk := validate.ToolManifest
	key := func(f string) string { return fmt.Sprintf("actions.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/actions/%d/%s", i, f) }
	fields := []huh.Field{
		k.text(key("name"), "Action name", str{p: &act.Name, def: def.Name}, tk, ptr("name")),
		k.text(key("summary"), "Action summary", str{p: &act.Summary, def: def.Summary}, tk, ptr("summary")),
		k.choose(choice{key: key("sideEffects"), title: "Side effects",
			desc: k.help(tk, ptr("side_effects")), opts: k.enum(tk, ptr("side_effects")),
			acc: huh.NewPointerAccessor(&act.SideEffects)}),
		k.text(key("inputs"), "Inputs", list{p: &act.Inputs, def: def.Inputs}, "", "").Description(k.fit("comma-separated names of its string inputs", descInset)),
	}
	if len(t.ScopeChoices()) > 0 || len(act.ScopesUsed) > 0 { // the scopes ticked and then removed are said
		fields = append(fields, k.multi(key("scopesUsed"), "Scopes it uses", "the scopes this action needs",
			func() []string { return t.ScopeChoices() }, &act.ScopesUsed, "the tool has no scopes"))
	}
	return []*huh.Group{w.k.group(fields...)}
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
	return []*huh.Group{w.k.group(
		w.k.choose(choice{key: "smoke.kind", title: "Smoke test",
			desc: "what checks the tool once it is installed", opts: choices(t.SmokeChoices()),
			acc: huh.NewPointerAccessor(&t.Smoke.Kind)}),
		w.k.choose(choice{key: "killSwitch.kind", title: "Kill switch",
			desc: "how the owner stops the tool", opts: opts,
			acc: huh.NewPointerAccessor(&t.KillSwitch.Kind)}),
	),
		// what the kind chosen needs, asked only for it
		w.hideWhen(w.k.group(w.k.reg(w.k.text("killSwitch.url", "Kill switch address", str{p: &t.KillSwitch.URL}, "", ""), func(s string) error {
			switch {
			case strings.TrimSpace(s) == "":
				return errors.New("the address is needed: where the owner revokes the tool (https://…)")
			case scaffold.IsPlaceholderURL(s):
				return errors.New(s + " is a placeholder, which stops nothing: give the real address")
			}
			return w.k.check(validate.ToolManifest, "/kill_switch/url", func(s string) any { return s })(s)
		}).Description(w.k.fit("where the owner revokes the tool, e.g. https://acme.dev/tools/revoke", descInset))),
			func() bool { return t.KillSwitch.Kind != "url" }),
		w.hideWhen(w.k.group(w.k.reg(w.k.text("killSwitch.command", "Kill switch command", str{p: &t.KillSwitch.Command}, "", ""), func(s string) error {
			if strings.TrimSpace(s) == "" {
				return errors.New("the command is needed: what the owner runs to stop the tool")
			}
			return nil
		}).Description(w.k.fit("the command that stops the tool, words separated by spaces, e.g. acme-tool revoke", descInset))),
			func() bool { return t.KillSwitch.Kind != "shell" }),
		w.hideWhen(w.k.group(w.k.text("killSwitch.instructions", "Kill switch instructions", str{p: &t.KillSwitch.Instructions}, "", "").
			Placeholder("(from the answers: remove the tool, then revoke its credentials)").Description(w.k.fit("what the owner does to stop the tool (optional)", descInset))),
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
