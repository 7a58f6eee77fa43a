package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"errors"
	"fmt"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// A pack's agents: for each, its page, its eval suite's page, a page per
// task and the list of tasks; then the list of agents. A standalone agent
// or eval suite is the first agent.

func init() {
	registerList("agents", func(a *answers) int { return len(a.Pack.Agents) })
	hasEval := func(a *answers, at pos) bool {
		return (a.hasAgent() || a.What == whatSoloEval && at.i == 0) && a.Pack.Agents[at.i].Eval != nil
	}
	register(&page{id: "agent", title: "agent", order: 50, doc: docPack, each: "agents",
		when: func(a *answers, at pos) bool { return a.hasAgent() && (a.isPack() || at.i == 0) },
		owns: paths("agents.%d"), groups: agentGroups})
	register(&page{id: "eval", title: "eval suite", order: 52, doc: docPack, each: "agents", when: hasEval,
		owns: paths("agents.%d.eval"), groups: evalGroups})
	register(&page{id: "task", title: "eval task", order: 54, doc: docPack, each: "agents", when: hasEval,
		sub: func(a *answers, i int) int {
			if e := a.Pack.Agents[i].Eval; e != nil {
				return len(e.Tasks)
			}
			return 0
		},
		owns: paths("agents.%d.eval.tasks.%d"), groups: taskGroups})
	register(&page{id: "tasks", title: "eval tasks", order: 56, doc: docPack, each: "agents", when: hasEval,
		owns: paths("agents.%d.eval.tasks"), groups: listGroups,
		list: &listSpec{noun: "task", plural: "tasks", min: 1,
			count: func(a *answers, at pos) int { return len(a.suite(at.i).Tasks) },
			label: func(a *answers, at pos, k int) string { return a.suite(at.i).Tasks[k].ID },
			add: func(a *answers, at pos) {
				e := a.suite(at.i)
				e.Tasks = append(e.Tasks, scaffold.NewTask(len(e.Tasks)))
			},
			remove: func(a *answers, at pos, k int) { e := a.suite(at.i); e.Tasks = removeAt(e.Tasks, k) },
			entry: func(at pos, k int) func(pos) bool {
				return func(p pos) bool { return p.pg.id == "task" && p.i == at.i && p.j == k }
			}}})
	register(&page{id: "agents", title: "agents", order: 58, doc: docPack,
		when: func(a *answers, _ pos) bool { return a.hasAgent() && a.isPack() }, owns: paths("agents"), groups: listGroups,
		list: &listSpec{noun: "agent", plural: "agents", min: 1,
			count: func(a *answers, _ pos) int { return len(a.Pack.Agents) },
			label: func(a *answers, _ pos, k int) string { return a.Pack.Agents[k].ID },
			add: func(a *answers, _ pos) {
				a.Pack.Agents = append(a.Pack.Agents, scaffold.NewAgent(len(a.Pack.Agents)))
			},
			remove: func(a *answers, _ pos, k int) { a.Pack.Agents = removeAt(a.Pack.Agents, k) },
			entry: func(_ pos, k int) func(pos) bool {
				return func(p pos) bool { return p.pg.id == "agent" && p.i == k }
			}}})
}

// withEval binds "Add an eval suite?" to whether the agent has one.
type withEval struct{ a *scaffold.AgentAnswers }

func (e withEval) Get() bool { return e.a.Eval != nil }
func (e withEval) Set(on bool) {
	switch {
	case on && e.a.Eval == nil:
		s := scaffold.EvalAnswers{}.Defaults()
		e.a.Eval = &s
	case !on:
		e.a.Eval = nil
	}
}

// agentGroups ask one agent: identity, model, prompt, tools, memory, and
// whether it gets an eval suite.
func agentGroups(w *wizard, at pos) []*huh.Group {
	k, a, i := w.k, w.a, at.i
	w.a.soloDefaults()
	g := a.agent(i)
	def := scaffold.NewAgent(i)
	ak := kinds.NodePack
	key := func(f string) string { return fmt.Sprintf("agents.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/agents/%d/%s", i, f) }
	idv := ask.Str{P: &g.ID, Def: def.ID}
	mem := g.Memory.Flags() // a plain value: huh's prompts offer its default only then
	w.onSync(func() { g.Memory.SetFlags(mem) })
	id := k.Reg(k.Text(key("id"), "Agent id", idv, "", "").Description(k.Fit("appended to the pack name to form the agentId", ask.DescInset)),
		k.Check(ak, ptr("agentId"), func(s string) any { return a.name() + "." + idv.Value(s).(string) }))
	if a.What == whatSoloAgent { // no pack name to prefix
		id = k.Text(key("id"), "Agent id", ask.Str{P: &g.ID, Def: g.ID}, kinds.Agent, "/agentId").
			Description("the full agentId, e.g. vendor.acme.writer")
	}
	return []*huh.Group{
		w.k.Group(
			id,
			k.Derived(key("persona"), "Persona", &g.Persona, ak, ptr("persona")),
			k.Derived(key("label"), "Label", &g.Label, ak, ptr("label")).Description(k.Fit(labelHelp, ask.DescInset)),
			k.Text(key("description"), "Description", ask.Str{P: &g.Description, Def: def.Description}, ak, ptr("description")),
		),
		w.k.Group(
			k.Choose(ask.Choice{Key: key("modelClass"), Title: "Model class",
				Desc: k.Help(ak, ptr("modelClass")), Opts: k.Enum(ak, ptr("modelClass")),
				Acc: huh.NewPointerAccessor(&g.ModelClass)}),
			// The suggestion is a placeholder: typing replaces it (a text
			// field holding it would keep it and add the typing after it).
			k.Long(key("systemPrompt"), "System prompt", "written to prompts/; ctrl+e opens $EDITOR",
				ask.Str{P: &g.SystemPrompt, Def: def.SystemPrompt}, "", ""),
		),
		w.k.Group(
			w.toolAllowlist(key("toolAllowlist"), ask.List{P: &g.ToolAllowlist, Def: def.ToolAllowlist}, ptr("toolAllowlist")),
			k.Multi(key("memory"), "Memory", k.Help(ak, ptr("memoryShape")), ask.Fixed(scaffold.MemoryFlags), &mem, ""),
			k.Text(key("confidence"), "Confidence threshold", ask.NewNum(&g.Confidence, def.Confidence), ak, ptr("confidence/defaultThreshold")).
				Description("0 to 1"),
			k.Yes(key("handoff"), "Handoff task and return schemas?", huh.NewPointerAccessor(&g.Handoff)),
		),
		w.k.Group(k.Yes(key("eval"), "Add an eval suite for this agent?", withEval{g})),
	}
}

// evalGroups ask an agent's eval suite (for a standalone suite, its id and
// target agent first).
func evalGroups(w *wizard, at pos) []*huh.Group {
	k, i := w.k, at.i
	e := w.a.suite(i)
	def := scaffold.EvalAnswers{}.Defaults()
	ek := kinds.EvalSuite
	key := func(f string) string { return fmt.Sprintf("agents.%d.eval.%s", i, f) }
	groups := []*huh.Group{w.k.Group(
		k.Multi(key("modes"), "Eval modes", k.Help(ek, "/modes"), ask.Fixed(k.V.Field(ek, "/modes").Enum), &e.Modes, ""),
		k.Text(key("passScore"), "Pass score", ask.NewNum(&e.PassScore, def.PassScore), ek, "/thresholds/passScore").Description(k.Fit("0 to 1", ask.DescInset)),
	)}
	if w.a.What == whatSoloEval {
		groups = append([]*huh.Group{w.k.Group(
			k.Optional(key("targetAgentId"), "Target agent id", &e.TargetAgentID, ek, "/targetAgentId").
				Description("the full agentId the suite is for, e.g. vendor.acme.writer (empty: any agent)"),
			k.Optional(key("suiteId"), "Suite id", &e.SuiteID, ek, "/suiteId").
				Description("<scope>.<org>.evals.<name>; empty: from the target agent, else "+scaffold.StandaloneSuiteID),
		)}, groups...)
	}
	return groups
}

// taskGroups ask one task of an agent's eval suite.
func taskGroups(w *wizard, at pos) []*huh.Group {
	k := w.k
	t := &w.a.suite(at.i).Tasks[at.j]
	def := scaffold.NewTask(at.j)
	ek := kinds.EvalSuite
	key := func(f string) string { return fmt.Sprintf("agents.%d.eval.tasks.%d.%s", at.i, at.j, f) }
	ptr := func(f string) string { return fmt.Sprintf("/tasks/%d/%s", at.j, f) }
	return []*huh.Group{
		w.k.Group(
			k.Text(key("id"), "Task id", ask.Str{P: &t.ID, Def: def.ID}, ek, ptr("taskId")),
			k.Text(key("input"), "Task input", ask.Str{P: &t.Input, Def: def.Input}, "", "").Description(k.Fit("the text the agent is given", ask.DescInset)),
			k.Choose(ask.Choice{Key: key("kind"), Title: "Expectation",
				Opts: ask.Choices(scaffold.TaskKinds), Acc: huh.NewPointerAccessor(&t.Kind)}),
		),
		w.hideWhen(w.k.Group(
			k.Choose(ask.Choice{Key: key("strategy"), Title: "Golden match",
				Desc: "for golden tasks", Opts: huh.NewOptions(scaffold.GoldenStrategies...),
				Acc: huh.NewPointerAccessor(&t.Strategy)}),
			k.Text(key("expected"), "Expected answer", ask.Str{P: &t.Expected, Def: def.Expected}, "", "").Description(k.Fit("for golden tasks", ask.DescInset)),
		), func() bool { return t.Kind != scaffold.TaskKinds[0].Value }),
		w.hideWhen(w.k.Group(
			k.Reg(k.Text(key("criteria"), "Rubric criteria", ask.List{P: &t.Criteria}, "", ""), func(s string) error {
				if len(ask.SplitList(s)) == 0 {
					return errors.New("a rubric task needs at least one criterion: what a good answer does, comma-separated")
				}
				return nil
			}).Description(k.Fit("comma-separated, weighted equally", ask.DescInset)),
		), func() bool { return t.Kind != scaffold.TaskKinds[1].Value }),
	}
}

// labelHelp is the agent's Label field's help: what wopkit writes when it
// is left empty (the schema's "Falls back to `persona` when absent" is a
// host's reading of a label wopkit never leaves absent).
const labelHelp = "a short label for UI surfaces; empty: the agent id's last part in words, as for the persona (e.g. Writer for vendor.acme.pack.writer)"

// toolAllowlist asks an agent's allowed tools: the schema's check, then
// the form the review's rule checks, its help from the same words.
func (w *wizard) toolAllowlist(key string, tv ask.List, ptr string) *huh.Input {
	k := w.k
	schema := ask.Titled("Tool allowlist", ptr, k.Check(kinds.NodePack, ptr, tv.Value))
	return k.Reg(k.Text(key, "Tool allowlist", tv, "", ""), func(s string) error {
		if err := schema(s); err != nil {
			return err
		}
		for _, x := range tv.Value(s).([]any) {
			if !validate.ToolRef(x.(string)) {
				return fmt.Errorf("%q is not of the form %s: write, e.g., %s", x, validate.ToolRefForm, strings.Join(validate.ToolRefExamples, " or "))
			}
		}
		return nil
	}).Description(k.Fit("comma-separated "+validate.ToolRefForm+", e.g. "+validate.ToolRefExamples[0]+" (optional)", ask.DescInset))
}
