package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"fmt"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// A workflow-chain pack: the pack's identity (the identity page), then for
// each chain its page, its parameters, steps and outputs (a page per entry
// and a list page each), then the list of chains. The scaffold's
// ChainPackAnswers hold the chains; the identity answers are the pack's.

const whatChain = scaffold.KindWorkflowChain

func init() {
	askKind(whatChain, "chain")
	registerList("chains", func(a *answers) int {
		if a.What != whatChain {
			return 0
		}
		return len(a.chainPack().Chains)
	})
	sub := func(n func(c scaffold.ChainAnswers) int) func(a *answers, i int) int {
		return func(a *answers, i int) int { return n(a.chainPack().Chains[i]) }
	}
	chainList := func(noun, plural, page string, min int, n func(c *scaffold.ChainAnswers) int, label func(c *scaffold.ChainAnswers, k int) string,
		add func(c *scaffold.ChainAnswers), remove func(c *scaffold.ChainAnswers, k int)) *listSpec {
		return &listSpec{noun: noun, plural: plural, min: min,
			count:  func(a *answers, at pos) int { return n(&a.chainPack().Chains[at.i]) },
			label:  func(a *answers, at pos, k int) string { return label(&a.chainPack().Chains[at.i], k) },
			add:    func(a *answers, at pos) { add(&a.chainPack().Chains[at.i]) },
			remove: func(a *answers, at pos, k int) { remove(&a.chainPack().Chains[at.i], k) },
			entry: func(at pos, k int) func(pos) bool {
				return func(p pos) bool { return p.pg.id == page && p.i == at.i && p.j == k }
			}}
	}
	register(&page{id: "chain", title: "chain", order: 70, doc: docPack, each: "chains", owns: paths("chains.%d"), groups: chainGroups})
	register(&page{id: "param", title: "chain parameter", order: 71, doc: docPack, each: "chains",
		sub: sub(func(c scaffold.ChainAnswers) int { return len(c.Parameters) }), owns: paths("chains.%d.parameters.%d"), groups: paramGroups})
	register(&page{id: "params", title: "chain parameters", order: 72, doc: docPack, each: "chains", owns: paths("chains.%d.parameters"),
		groups: listGroups, list: chainList("parameter", "parameters", "param", 0,
			func(c *scaffold.ChainAnswers) int { return len(c.Parameters) },
			func(c *scaffold.ChainAnswers, k int) string { return c.Parameters[k].Name },
			func(c *scaffold.ChainAnswers) {
				c.Parameters = append(c.Parameters, scaffold.ParamAnswers{Name: fmt.Sprintf("param%d", len(c.Parameters)+1), Type: scaffold.ChainValueTypes()[0]})
			},
			func(c *scaffold.ChainAnswers, k int) { c.Parameters = removeAt(c.Parameters, k) })})
	register(&page{id: "step", title: "chain step", order: 73, doc: docPack, each: "chains",
		sub: sub(func(c scaffold.ChainAnswers) int { return len(c.Steps) }), owns: paths("chains.%d.steps.%d"), groups: stepGroups})
	register(&page{id: "steps", title: "chain steps", order: 74, doc: docPack, each: "chains", owns: paths("chains.%d.steps"),
		groups: listGroups, list: chainList("step", "steps", "step", 1,
			func(c *scaffold.ChainAnswers) int { return len(c.Steps) },
			func(c *scaffold.ChainAnswers, k int) string { return c.Steps[k].ID + " (" + c.Steps[k].TypeID + ")" },
			func(c *scaffold.ChainAnswers) {
				last := c.Steps[len(c.Steps)-1]
				c.Steps = append(c.Steps, scaffold.StepAnswers{ID: fmt.Sprintf("step%d", len(c.Steps)+1), TypeID: last.TypeID, Config: map[string]string{}})
			},
			func(c *scaffold.ChainAnswers, k int) { c.Steps = removeAt(c.Steps, k) })})
	register(&page{id: "output", title: "chain output", order: 75, doc: docPack, each: "chains",
		sub: sub(func(c scaffold.ChainAnswers) int { return len(c.Outputs) }), owns: paths("chains.%d.outputs.%d"), groups: outputGroups})
	register(&page{id: "outputs", title: "chain outputs", order: 76, doc: docPack, each: "chains", owns: paths("chains.%d.outputs"),
		groups: listGroups, list: chainList("output", "outputs", "output", 0,
			func(c *scaffold.ChainAnswers) int { return len(c.Outputs) },
			func(c *scaffold.ChainAnswers, k int) string { return c.Outputs[k].Name },
			func(c *scaffold.ChainAnswers) {
				c.Outputs = append(c.Outputs, scaffold.OutputAnswers{Name: fmt.Sprintf("output%d", len(c.Outputs)+1), Type: scaffold.ChainValueTypes()[0]})
			},
			func(c *scaffold.ChainAnswers, k int) { c.Outputs = removeAt(c.Outputs, k) })})
	register(&page{id: "chains", title: "chains", order: 77, doc: docPack, owns: paths("chains"),
		when: func(a *answers, _ pos) bool { return a.What == whatChain }, groups: listGroups,
		list: &listSpec{noun: "chain", plural: "chains", min: 1,
			count: func(a *answers, _ pos) int { return len(a.chainPack().Chains) },
			label: func(a *answers, _ pos, k int) string { return a.chainPack().Chains[k].ID },
			add: func(a *answers, _ pos) {
				c := scaffold.ChainAnswers{}.Defaults()
				c.ID = fmt.Sprintf("chain%d", len(a.chainPack().Chains)+1)
				a.chainPack().Chains = append(a.chainPack().Chains, c)
			},
			remove: func(a *answers, _ pos, k int) { a.chainPack().Chains = removeAt(a.chainPack().Chains, k) },
			entry:  entryOf("chain")}})
}

// chainPack is a workflow-chain pack's answers (its chains).
func (a *answers) chainPack() *scaffold.ChainPackAnswers {
	return declaredOf[scaffold.ChainPackAnswers](a, whatChain)
}

// chainAnswers is the chain pack the scaffold plans: the pack's identity
// with the chains.
func (a *answers) chainAnswers() scaffold.ChainPackAnswers {
	return *declaredPlan(a, whatChain).(*scaffold.ChainPackAnswers)
}

// chainCheck checks a chain answer where it lands in pack.json.
func (w *wizard) chainCheck(field string) (kinds.Kind, string) {
	return kinds.WorkflowChainPack, scaffold.ChainFieldPointer(w.a.chainAnswers(), field)
}

func chainGroups(w *wizard, at pos) []*huh.Group {
	k, c := w.k, &w.a.chainPack().Chains[at.i]
	def := scaffold.ChainAnswers{}.Defaults()
	key := func(f string) string { return fmt.Sprintf("chains.%d.%s", at.i, f) }
	text := func(f, title string, tv ask.TextValue) *huh.Input {
		kind, ptr := w.chainCheck(key(f))
		return k.Text(key(f), title, tv, kind, ptr)
	}
	return []*huh.Group{w.k.Group(
		text("id", "Chain id", ask.Str{P: &c.ID, Def: c.ID}).Description(k.Fit("appended to the pack name to form the chainId", ask.DescInset)),
		text("version", "Chain version", ask.Str{P: &c.Version, Def: def.Version}),
		k.Derived(key("label"), "Label", &c.Label, kinds.WorkflowChainPack, fmt.Sprintf("/chains/%d/label", at.i)),
		text("description", "Description", ask.Str{P: &c.Description, Def: c.Description}),
		k.Multi(key("capabilities"), "Capabilities", "what the chain does that a host must allow", scaffold.ChainCapabilities, &c.Capabilities, ""),
	)}
}

func paramGroups(w *wizard, at pos) []*huh.Group {
	k, pa := w.k, &w.a.chainPack().Chains[at.i].Parameters[at.j]
	key := func(f string) string { return fmt.Sprintf("chains.%d.parameters.%d.%s", at.i, at.j, f) }
	return []*huh.Group{w.k.Group(
		k.Text(key("name"), "Parameter name", ask.Str{P: &pa.Name, Def: pa.Name}, "", "").Description(k.Fit("a step uses it as {{params.<name>}}", ask.DescInset)),
		k.Choose(ask.Choice{Key: key("type"), Title: "Type",
			Opts: huh.NewOptions(scaffold.ChainValueTypes()...), Acc: huh.NewPointerAccessor(&pa.Type)}),
		k.Text(key("description"), "Description", ask.Str{P: &pa.Description}, "", ""),
		k.Yes(key("required"), "Required?", huh.NewPointerAccessor(&pa.Required)),
	)}
}

func stepGroups(w *wizard, at pos) []*huh.Group {
	k, c := w.k, &w.a.chainPack().Chains[at.i]
	st := &c.Steps[at.j]
	key := func(f string) string { return fmt.Sprintf("chains.%d.steps.%d.%s", at.i, at.j, f) }
	text := func(f, title string, tv ask.TextValue) *huh.Input {
		kind, ptr := w.chainCheck(key(f))
		if ptr == "" {
			return k.Text(key(f), title, tv, "", "")
		}
		return k.Text(key(f), title, tv, kind, ptr)
	}
	fields := []huh.Field{
		text("id", "Step id", ask.Str{P: &st.ID, Def: st.ID}).Description(k.Fit("the node's id in the chain", ask.DescInset)),
		w.stepType(key("typeId"), ask.Str{P: &st.TypeID, Def: st.TypeID}),
		k.Derived(key("name"), "Name", &st.Name, kinds.WorkflowChainPack, ""),
	}
	if w.a.Pack.Spec != scaffold.SpecV1 { // a v2 chain pins each node's version (v1's schema admits no @)
		// a typeId typed with its own pin gives the version: the suggested
		// one is then left out (they would differ)
		w.onSync(func() {
			if strings.Contains(st.TypeID, "@") && st.Version == scaffold.DefaultNodeVersion {
				st.Version = ""
			}
		})
		fields = append(fields, k.Text(key("version"), "Node version", ask.Str{P: &st.Version, Def: scaffold.DefaultNodeVersion}, "", "").Description(k.Fit("the exact version of the node it runs (MAJOR.MINOR.PATCH): the typeId is written <typeId>@<version>; a typeId typed with its own @pin keeps it", ask.DescInset)))
	}
	// The ports name the ends of the edges between steps: the first step
	// has no edge in, the last none out, so they are not asked there.
	if at.j > 0 {
		fields = append(fields, text("input", "Input port", ask.Str{P: &st.Input}).Description(k.Fit("the port the step before feeds (empty: the node itself)", ask.DescInset)))
	}
	if at.j < len(c.Steps)-1 {
		fields = append(fields, text("output", "Output port", ask.Str{P: &st.Output}).Description(k.Fit("the port the next step reads (empty: the node itself)", ask.DescInset)))
	}
	if len(c.ParamChoices()) > 0 || len(st.Params) > 0 { // the parameters ticked and then removed are said
		fields = append(fields, k.Multi(key("params"), "Parameters it receives", "written into its config as {{params.<name>}}",
			func() []string { return c.ParamChoices() }, &st.Params, "the chain has no parameters"))
	}
	return []*huh.Group{w.k.Group(fields...)}
}

func outputGroups(w *wizard, at pos) []*huh.Group {
	k, o := w.k, &w.a.chainPack().Chains[at.i].Outputs[at.j]
	key := func(f string) string { return fmt.Sprintf("chains.%d.outputs.%d.%s", at.i, at.j, f) }
	return []*huh.Group{w.k.Group(
		k.Text(key("name"), "Output name", ask.Str{P: &o.Name, Def: o.Name}, "", ""),
		k.Choose(ask.Choice{Key: key("type"), Title: "Type",
			Opts: huh.NewOptions(scaffold.ChainValueTypes()...), Acc: huh.NewPointerAccessor(&o.Type)}),
		k.Text(key("description"), "Description", ask.Str{P: &o.Description}, "", ""),
	)}
}

// stepType asks a step's node type: the typeId, checked where the schema
// checks it, with an optional @MAJOR.MINOR.PATCH pin kept as typed (the
// node version field asks it otherwise).
func (w *wizard) stepType(key string, tv ask.Str) *huh.Input {
	kind, ptr := w.chainCheck(key)
	bare := func(string) error { return nil }
	if ptr != "" {
		bare = ask.Titled("Node type", ptr, w.k.Check(kind, ptr, func(s string) any { id, _, _ := strings.Cut(tv.Value(s).(string), "@"); return id }))
	}
	return w.k.Reg(w.k.Text(key, "Node type", tv, "", ""), func(s string) error {
		if err := bare(s); err != nil {
			return err
		}
		if _, pin, ok := strings.Cut(tv.Value(s).(string), "@"); ok && !scaffold.ExactVersion(pin) {
			return fmt.Errorf("the pin @%s is not one exact version: write MAJOR.MINOR.PATCH, e.g. @1.0.0 (hosts refuse a range)", pin)
		}
		return nil
	}).Description(w.k.Fit("the typeId of the node it runs, e.g. core.openwop.http.fetch (a pin such as @1.0.0 may follow)", ask.DescInset))
}
