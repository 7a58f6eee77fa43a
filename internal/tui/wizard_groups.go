package tui

import (
	"fmt"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// step is one page sequence of the wizard.
type step int

const (
	stepWhat step = iota
	stepIdentity
	stepRuntime
	stepNode
	stepAgent
	stepEval
	stepTool
	stepReview // the review screen, not a form
	stepSign
	stepDone
)

// whatGroup asks what to create.
func whatGroup(a *answers) *huh.Group {
	return huh.NewGroup(
		huh.NewSelect[string]().Title("What do you want to create?").
			Options(
				huh.NewOption("A pack with a node, an agent (with an eval suite) and a tool manifest", whatMixed),
				huh.NewOption("A pack of nodes", whatNodes),
				huh.NewOption("An agent-only pack (remote runtime, no code)", whatAgent),
				huh.NewOption("A standalone tool install manifest", whatTool),
				huh.NewOption("A standalone agent manifest", whatSoloAgent),
				huh.NewOption("A standalone eval suite", whatSoloEval),
			).Value(&a.What),
	)
}

// identityGroups ask the pack's name (scope, org, name part) and details.
func identityGroups(k asker, a *answers) []*huh.Group {
	nameCheck := func(part func(string) string) func(string) error {
		return k.keep(func(s string) error { return k.check(validate.NodePack, "/name", nil)(part(s)) })
	}
	scopes := []huh.Option[string]{
		huh.NewOption("community: published by an individual", "community"),
		huh.NewOption("vendor: published by an organisation", "vendor"),
		huh.NewOption("private: host-internal, never published", "private"),
		huh.NewOption("core: reserved to the OpenWOP working group", "core"),
	}
	return []*huh.Group{
		huh.NewGroup(
			huh.NewSelect[string]().Title("Scope").Description(k.help(validate.NodePack, "/name")).Options(scopes...).Value(&a.Scope).Key("scope"),
			k.reg(huh.NewInput().Title(k.title("Organisation or author", &a.Org)).Description("the second part of the name, e.g. acme").Value(&a.Org), nameCheck(func(s string) string { c := *a; c.Org = s; return c.name() })).Key("name"),
			k.reg(huh.NewInput().Title(k.title("Pack name", &a.Part)).Description("the last part, e.g. hello-world").Value(&a.Part), nameCheck(func(s string) string { c := *a; c.Part = s; return c.name() })).Key("part"),
		),
		huh.NewGroup(
			k.input("Version", &a.Pack.Version, validate.NodePack, "/version").Key("version"),
			k.input("Description", &a.Pack.Description, validate.NodePack, "/description").Key("description"),
			k.input("Author", &a.Pack.Author, validate.NodePack, "/author").Key("author"),
			k.license(&a.Pack.License),
		),
		huh.NewGroup(
			k.input("Homepage", &a.Pack.Homepage, validate.NodePack, "/homepage").Placeholder("https://… (optional)").Key("homepage"),
			k.input("Repository", &a.Pack.Repository, validate.NodePack, "/repository").Placeholder("https://… (optional)").Key("repository"),
			k.reg(huh.NewInput().Title(k.title("Keywords", &a.Keywords)).Description("comma-separated").Value(&a.Keywords), k.check(validate.NodePack, "/keywords", listConv)).Key("keywords"),
		),
	}
}

// runtimeGroup asks the language; format and entry follow from it.
func runtimeGroup(k asker, a *answers) *huh.Group {
	var opts []huh.Option[string]
	for _, lang := range []string{"javascript", "python", "go", "wasm"} {
		rs, err := scaffold.Runtime(lang)
		if err != nil {
			continue
		}
		label := lang + " (entry " + rs.Entry + ")"
		if rs.Format != "" {
			label = lang + " (" + rs.Format + ", entry " + rs.Entry + ")"
		}
		opts = append(opts, huh.NewOption(label, lang))
	}
	return huh.NewGroup(
		huh.NewSelect[string]().Title("Runtime language").Description(k.help(validate.NodePack, "/runtime/language")).
			Options(opts...).Value(&a.Pack.Runtime.Language).Key("runtime.language"),
	)
}

// nodeGroups ask one node (the i-th): identity, kind and ports, and
// whether to add another.
func nodeGroups(k asker, a *answers, n *nodeAnswers, i int) []*huh.Group {
	nk := validate.NodePack
	at := func(f string) string { return fmt.Sprintf("/nodes/%d/%s", i, f) }
	return []*huh.Group{
		huh.NewGroup(
			k.reg(huh.NewInput().Title(k.title("Node id", &n.ID)).Description("appended to the pack name to form the typeId").Value(&n.ID), k.keep(func(s string) error { return k.check(nk, at("typeId"), nil)(a.name() + "." + s) })).Key("nodes.id"),
			k.derived("Label", &n.Label, nk, at("label")).Key("nodes.label"),
			k.input("Description", &n.Description, nk, at("description")).Key("nodes.description"),
		),
		huh.NewGroup(
			huh.NewSelect[string]().Title("Category").Description(k.help(nk, at("category"))).
				Options(k.enum(nk, at("category"), "data")...).Value(&n.Category).Key("nodes.category"),
			huh.NewSelect[string]().Title("Role").Description(k.help(nk, at("role"))).
				Options(k.enum(nk, at("role"), "pure")...).Value(&n.Role).Key("nodes.role"),
			huh.NewMultiSelect[string]().Title("Capabilities").Options(k.enum(nk, at("capabilities"), "cacheable")...).
				Value(&n.Caps).Key("nodes.capabilities"),
		),
		huh.NewGroup(
			huh.NewInput().Title(k.title("Input ports", &n.Inputs)).Description("comma-separated names").Value(&n.Inputs).Key("nodes.inputs"),
			huh.NewInput().Title(k.title("Output ports", &n.Outputs)).Description("comma-separated names").Value(&n.Outputs).Key("nodes.outputs"),
			huh.NewConfirm().Title("Add another node?").Value(&a.More),
		),
	}
}

// agentGroups ask one agent (the i-th): identity, model, prompt, tools,
// memory, whether it gets an eval suite, and whether to add another.
func agentGroups(k asker, a *answers, g *agentAnswers, i int) []*huh.Group {
	ak := validate.NodePack
	at := func(f string) string { return fmt.Sprintf("/agents/%d/%s", i, f) }
	id := k.reg(huh.NewInput().Title(k.title("Agent id", &g.ID)).Description("appended to the pack name to form the agentId").Value(&g.ID), k.keep(func(s string) error { return k.check(ak, at("agentId"), nil)(a.name() + "." + s) })).Key("agents.id")
	another := huh.NewConfirm().Title("Add another agent after this one?").Value(&a.More)
	if a.What == whatSoloAgent { // no pack name to prefix, and one agent per manifest
		id = k.input("Agent id", &g.ID, validate.Agent, "/agentId").Description("the full agentId, e.g. vendor.acme.writer").Key("agents.id")
		another = nil
	}
	last := huh.NewGroup(huh.NewConfirm().Title("Add an eval suite for this agent?").Value(&g.WithEval).Key("agents.eval"))
	if another != nil {
		last = huh.NewGroup(huh.NewConfirm().Title("Add an eval suite for this agent?").Value(&g.WithEval).Key("agents.eval"), another)
	}
	return []*huh.Group{
		huh.NewGroup(
			id,
			k.derived("Persona", &g.Persona, ak, at("persona")).Key("agents.persona"),
			k.derived("Label", &g.Label, ak, at("label")).Key("agents.label"),
			k.input("Description", &g.Description, ak, at("description")).Key("agents.description"),
		),
		huh.NewGroup(
			huh.NewSelect[string]().Title("Model class").Description(k.help(ak, at("modelClass"))).
				Options(k.enum(ak, at("modelClass"), "general")...).Value(&g.ModelClass).Key("agents.modelClass"),
			huh.NewText().Title("System prompt").Description("written to prompts/; ctrl+e opens $EDITOR").
				Value(&g.SystemPrompt).Lines(4).Key("agents.systemPrompt"),
		),
		huh.NewGroup(
			k.reg(huh.NewInput().Title(k.title("Tool allowlist", &g.Tools)).Description(k.help(ak, at("toolAllowlist"))+" Comma-separated, e.g. openwop:core.openwop.http.fetch").
				Value(&g.Tools), k.check(ak, at("toolAllowlist"), listConv)).Key("agents.toolAllowlist"),
			huh.NewMultiSelect[string]().Title("Memory").Options(huh.NewOptions("scratchpad", "conversation", "longTerm")...).Value(&g.Memory).Key("agents.memory"),
			k.reg(huh.NewInput().Title(k.title("Confidence threshold", &g.Conf)).Description("0 to 1").Value(&g.Conf), k.check(ak, at("confidence/defaultThreshold"), numConv)).Key("agents.confidence"),
			huh.NewConfirm().Title("Handoff task and return schemas?").Value(&g.Handoff).Key("agents.handoff"),
		),
		last,
	}
}

// evalGroups ask an agent's eval suite and its first task.
func evalGroups(k asker, g *agentAnswers) []*huh.Group {
	ek := validate.EvalSuite
	return []*huh.Group{
		huh.NewGroup(
			huh.NewMultiSelect[string]().Title("Eval modes").Description(k.help(ek, "/modes")).
				Options(k.enum(ek, "/modes", "golden", "rubric")...).Value(&g.Suite.Modes).Key("agents.eval.modes"),
			k.reg(huh.NewInput().Title(k.title("Pass score", &g.Pass)).Description("0 to 1").Value(&g.Pass), k.check(ek, "/thresholds/passScore", numConv)).Key("agents.eval.passScore"),
		),
		huh.NewGroup(
			k.input("Task id", &g.Task.ID, ek, "/tasks/0/taskId").Key("agents.eval.tasks.id"),
			huh.NewInput().Title(k.title("Task input", &g.Task.Input)).Description("the text the agent is given").Value(&g.Task.Input).Key("agents.eval.tasks.input"),
			huh.NewSelect[string]().Title("Expectation").Options(
				huh.NewOption("golden: compare with an expected answer", "golden"),
				huh.NewOption("rubric: score against criteria", "rubric")).Value(&g.Task.Kind).Key("agents.eval.tasks.kind"),
		),
		huh.NewGroup(
			huh.NewSelect[string]().Title("Golden match").Description("for golden tasks").
				Options(huh.NewOptions("contains", "exact", "json-match")...).Value(&g.Task.Strategy).Key("agents.eval.tasks.strategy"),
			huh.NewInput().Title(k.title("Expected answer", &g.Task.Expected)).Description("for golden tasks").Value(&g.Task.Expected).Key("agents.eval.tasks.expected"),
			huh.NewInput().Title(k.title("Rubric criteria", &g.Criteria)).Description("for rubric tasks: comma-separated, weighted equally").Value(&g.Criteria).Key("agents.eval.tasks.criteria"),
		),
	}
}

// toolGroups ask a tool install manifest: identity, runtime, install,
// credentials, scope, action, smoke test and kill switch.
func toolGroups(k asker, a *answers) []*huh.Group {
	tk := validate.ToolManifest
	return []*huh.Group{
		huh.NewGroup(
			k.input("Tool id", &a.Tool.Tool.ID, tk, "/tool/id").Key("tool.id"),
			k.input("Tool version", &a.Tool.Tool.Version, tk, "/tool/version").Key("tool.version"),
			k.input("Tool name", &a.Tool.Tool.Name, tk, "/tool/name").Key("tool.name"),
			k.input("Summary", &a.Tool.Tool.Summary, tk, "/tool/summary").Key("tool.summary"),
		),
		huh.NewGroup(
			huh.NewSelect[string]().Title("Runtime kind").Description(k.help(tk, "/runtime/kind")).
				Options(k.enum(tk, "/runtime/kind", "mcp-stdio")...).Value(&a.Tool.Runtime.Kind).Key("runtime.kind"),
			huh.NewSelect[string]().Title("Install method").Description(k.help(tk, "/runtime/install/method")).
				Options(huh.NewOptions("pip", "npm", "git", "container", "url", "preinstalled")...).Value(&a.Tool.Install.Method).Key("install.method"),
			huh.NewInput().Title(k.title("Package", &a.Tool.Install.Package)).Description("defaults to the tool id").Value(&a.Tool.Install.Package).Key("install.package"),
		),
		huh.NewGroup(
			k.reg(huh.NewInput().Title(k.title("Environment variable", &a.EnvName)).Description("a credential or setting the tool reads (optional), e.g. ACME_API_KEY").
				Value(&a.EnvName), func(s string) error {
				if s == "" {
					return nil
				}
				return k.check(tk, "/env/0/name", nil)(s)
			}).Key("env.name"),
			huh.NewConfirm().Title("Is it a secret?").Value(&a.EnvSec).Key("env.secret"),
			huh.NewInput().Title(k.title("Scope resource", &a.ScopeRes)).Description("what the tool touches (optional), e.g. net.outbound").Value(&a.ScopeRes).Key("scopes.resource"),
		),
		huh.NewGroup(
			k.input("Action name", &a.Action.Name, tk, "/actions/0/name").Key("actions.name"),
			k.input("Action summary", &a.Action.Summary, tk, "/actions/0/summary").Key("actions.summary"),
			huh.NewSelect[string]().Title("Side effects").Description(k.help(tk, "/actions/0/side_effects")).
				Options(k.enum(tk, "/actions/0/side_effects", "none", "read", "write", "destructive")...).Value(&a.Action.SideEffects).Key("actions.sideEffects"),
			huh.NewSelect[string]().Title("Smoke test").Options(
				huh.NewOption("call the action (it must have no side effects)", "action-call"),
				huh.NewOption("default for the runtime", "")).Value(&a.Tool.Smoke.Kind).Key("smoke.kind"),
			huh.NewSelect[string]().Title("Kill switch").Options(huh.NewOptions("none", "manual", "url", "shell")...).
				Value(&a.Tool.KillSwitch.Kind).Key("killSwitch.kind"),
		),
	}
}
