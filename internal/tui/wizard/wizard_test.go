package wizard

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// TestPlanEveryKind plans each thing the wizard creates from its default
// answers: no problems, and the files each needs.
func TestPlanEveryKind(t *testing.T) {
	tests := []struct {
		what string
		want []string
		not  []string
	}{
		{whatMixed, []string{"pack.json", "index.mjs", "prompts/assistant.md", "evals/assistant.json", "tools/my-tool.tool.json"}, nil},
		{whatNodes, []string{"pack.json", "index.mjs"}, []string{"prompts/assistant.md", "tools/my-tool.tool.json"}},
		{whatAgent, []string{"pack.json", "prompts/assistant.md", "evals/assistant.json"}, []string{"index.mjs", "tools/my-tool.tool.json"}},
		{whatTool, []string{"my-tool.tool.json"}, []string{"pack.json"}},
		{whatSoloAgent, []string{"assistant.agent.json", "prompts/assistant.md", "evals/assistant.json"}, []string{"pack.json", "index.mjs"}},
		{whatSoloEval, []string{"my-suite.eval.json"}, []string{"pack.json", "prompts/assistant.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			a := newAnswers()
			a.What = tt.what
			p := makePlan(testValidator, a)
			if p.Err != nil || len(p.Problems) > 0 || p.Plan == nil {
				t.Fatalf("plan: err %v, problems %v", p.Err, p.Problems)
			}
			paths := strings.Join(p.Plan.Paths(), " ") + " "
			for _, f := range tt.want {
				if !strings.Contains(" "+paths, " "+f+" ") {
					t.Errorf("%s missing from %s", f, paths)
				}
			}
			for _, f := range tt.not {
				if strings.Contains(" "+paths, " "+f+" ") {
					t.Errorf("%s should not be planned: %s", f, paths)
				}
			}
			if p.Manifest == "" {
				t.Error("no manifest to review")
			}
		})
	}
}

// TestPlanProblemsLeadToSteps checks that a bad answer stops the plan and
// that the review sends the author to the step that asks it.
func TestPlanProblemsLeadToSteps(t *testing.T) {
	tests := []struct {
		name string
		set  func(a *answers)
		want string
	}{
		{"pack name", func(a *answers) { a.Pack.Name = "community.Not Valid.my-pack" }, pageIdentity},
		{"version", func(a *answers) { a.Pack.Version = "1.0" }, pageIdentity},
		{"agent model class", func(a *answers) { a.Pack.Agents[0].ModelClass = "psychic" }, "agent"},
		{"tool id", func(a *answers) { a.Tool.Tool.ID = "Bad Id" }, "tool"},
		{"standalone agent id", func(a *answers) { a.What, a.Pack.Agents[0].ID = whatSoloAgent, "Bad Id" }, "agent"},
		{"standalone agent's suite", func(a *answers) { a.What, a.Pack.Agents[0].Eval.Version = whatSoloAgent, "1" }, "eval"},
		{"standalone suite id", func(a *answers) { a.What, a.Pack.Agents[0].Eval.SuiteID = whatSoloEval, "x" }, "eval"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAnswers()
			tt.set(a)
			p := makePlan(testValidator, a)
			if len(p.Problems) == 0 {
				t.Fatalf("no problem reported (err %v)", p.Err)
			}
			if p.Plan != nil {
				t.Error("a plan with problems would be written")
			}
			if got := owner(a, p.Problems[0]).pg.id; got != tt.want {
				t.Errorf("problem %+v leads to page %v, want %v", p.Problems[0], got, tt.want)
			}
		})
	}
}

// TestOwner: a problem leads to exactly one page, by its document and the
// longest answer path the page asks.
func TestOwner(t *testing.T) {
	a := newAnswers()
	a.Pack.Agents = append(a.Pack.Agents, scaffold.NewAgent(1))
	a.Tool.Env = []scaffold.EnvAnswers{scaffold.NewEnv(0), scaffold.NewEnv(1)}
	tests := []struct {
		fe   scaffold.FieldError
		want string
		i, j int
	}{
		{scaffold.FieldError{Field: "name"}, pageIdentity, 0, 0},
		{scaffold.FieldError{Field: "runtime.language"}, "runtime", 0, 0},
		{scaffold.FieldError{Field: "nodes.0.category"}, "node", 0, 0},
		{scaffold.FieldError{Field: "nodes"}, "nodes", 0, 0},
		{scaffold.FieldError{Field: "agents.1.persona"}, "agent", 1, 0},
		{scaffold.FieldError{Field: "agents.0.eval.passScore"}, "eval", 0, 0},
		{scaffold.FieldError{Field: "agents.1.eval.tasks.0.id"}, "task", 1, 0},
		{scaffold.FieldError{Field: "tool.id", File: "tool"}, "tool", 0, 0},
		{scaffold.FieldError{Field: "runtime.kind", File: "tool"}, "tool", 0, 0},
		{scaffold.FieldError{Field: "env.1.prompt", File: "tool"}, "env", 1, 0},
		{scaffold.FieldError{Field: "killSwitch.kind", File: "tools/a.tool.json"}, "safety", 0, 0},
		{scaffold.FieldError{Field: "x", File: "tools/a.tool.json"}, "tool", 0, 0},
		{scaffold.FieldError{Field: "keyPath", File: docSign}, "sign", 0, 0},
	}
	for _, tt := range tests {
		got := owner(a, tt.fe)
		if got.pg.id != tt.want || got.i != tt.i || got.j != tt.j {
			t.Errorf("owner(%+v) = %s/%d/%d, want %s/%d/%d", tt.fe, got.pg.id, got.i, got.j, tt.want, tt.i, tt.j)
		}
	}
}

// TestWizardEscKeepsDraft leaves the wizard with esc, keeps the draft, and
// checks that the next start offers it and resumes with its answers.
func TestWizardEscKeepsDraft(t *testing.T) {
	dir := t.TempDir()
	opts := Options{DraftDir: dir}
	k := ask.Asker{V: testValidator}
	a := newAnswers()
	d := newDriver(t, func(ctx *common.Context) tui.Screen { return newWizard(ctx, k, a, session{Options: opts}) })
	d.Keys("down", "enter") // a pack of nodes
	if w := d.App.Top().(*wizard); w.at.pg.id != pageIdentity || a.What != whatNodes {
		t.Fatalf("after choosing: page %v, what %q", w.at.pg.id, a.What)
	}
	d.Keys("esc")
	if _, ok := d.App.Top().(*tui.Confirm); !ok {
		t.Fatalf("esc did not ask about a draft:\n%s", d.View())
	}
	d.Golden("wizard-draft-prompt")
	d.Keys("y")
	if !d.Quit {
		t.Fatal("y did not quit")
	}
	got, ok := loadDraft(dir)
	if !ok || got.What != whatNodes {
		t.Fatalf("draft not kept: %v %+v", ok, got)
	}
	fresh := newAnswers()
	d2 := newDriver(t, func(ctx *common.Context) tui.Screen { return newDraftOffer(ctx, k, fresh, got, session{Options: opts}) })
	d2.Keys("y")
	w, ok := d2.App.Top().(*wizard)
	if !ok || w.a.What != whatNodes {
		t.Fatalf("resuming did not start the wizard on the draft")
	}
}

// TestAccessibleDefaults answers every plain prompt with enter (the
// defaults) and checks that a tool manifest is written.
func TestAccessibleDefaults(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	in := iotest.OneByteReader(strings.NewReader(strings.Repeat("\n", 200)))
	opts := Options{What: whatTool, Dir: dir, DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	if err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts}); err != nil {
		t.Fatalf("accessible run: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "my-tool.tool.json")); err != nil {
		t.Fatalf("tool manifest not written: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "Tool id [my-tool]") {
		t.Errorf("the prompts were not shown:\n%s", out.String())
	}
	if strings.Contains(out.String(), "does not have the form") || strings.Contains(out.String(), "is needed") {
		t.Errorf("an empty line (keep the default) was refused:\n%s", out.String())
	}
}

// TestReservedScopeStopsThePlan: the scaffold counts warnings, so a core.*
// name is a problem the review sends back to the identity step.
func TestReservedScopeStopsThePlan(t *testing.T) {
	a := newAnswers()
	a.Pack.Name = "core.openwop.my-pack"
	p := makePlan(testValidator, a)
	if p.Plan != nil || len(p.Problems) == 0 || !strings.Contains(p.Problems[0].Message, "core") {
		t.Fatalf("core.* name not reported: %v %v", p.Err, p.Problems)
	}
	if s := owner(a, p.Problems[0]).pg.id; s != pageIdentity {
		t.Errorf("leads to %v", s)
	}
}

// TestWizardReview shows the review at 80x24 (golden), then, with a bad
// answer, follows a problem back to its step and returns to the review
// once that step is answered again.
func TestWizardReview(t *testing.T) {
	k := ask.Asker{V: testValidator}
	a := newAnswers()
	a.Pack.Name = "community.acme.review"
	dir := t.TempDir()
	t.Chdir(dir) // the review names the folder, the key and the tarball: whole, ~ the home folder
	t.Setenv("HOME", dir)
	t.Setenv("USERPROFILE", dir)
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, k, a, session{Options: Options{DraftDir: dir, Dir: "out"}})
	})
	w := d.App.Top().(*wizard)
	toPage(d, w, "review")
	if w.rev.Plan == nil {
		t.Fatalf("no plan: %v %v", w.rev.Err, w.rev.Problems)
	}
	d.Golden("wizard-review")

	a.Pack.Name = "community.Bad Org.review"
	toPage(d, w, "review")
	if len(w.rev.Problems) == 0 {
		t.Fatal("bad org not reported")
	}
	d.Golden("wizard-review-problems")
	d.Keys("enter")
	if w.at.pg.id != pageIdentity || w.form == nil {
		t.Fatalf("enter on the problem went to %v", w.at.pg.id)
	}
	d.Keys("ctrl+u", "type:acme", "enter") // the organisation, focused, retyped
	for i := 0; i < 12 && w.at.pg.id == pageIdentity; i++ {
		d.Keys("enter")
	}
	if w.at.pg.id != "review" || w.rev.Plan == nil {
		t.Fatalf("after fixing, page %v, problems %v", w.at.pg.id, w.rev.Problems)
	}
}

// TestListPages walks the node and agent lists: "add" adds an entry and
// asks it; an agent's eval suite and its tasks come right after the agent.
func TestListPages(t *testing.T) {
	a := newAnswers()
	dir := t.TempDir()
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: Options{DraftDir: dir, Dir: filepath.Join(dir, "out")}})
	})
	w := d.App.Top().(*wizard)
	toPage(d, w, "nodes")
	d.Keys("down", "enter") // add a node
	if w.at.pg.id != "node" || w.at.i != 1 || len(a.Pack.Nodes) != 2 {
		t.Fatalf("add went to %s/%d with %d nodes", w.at.pg.id, w.at.i, len(a.Pack.Nodes))
	}
	for i := 0; i < 20 && w.at.pg.id == "node"; i++ {
		d.Keys("enter")
	}
	if w.at.pg.id != "nodes" || !strings.Contains(d.View(), "2 nodes: hello, node2") {
		t.Fatalf("after the new node: %s\n%s", w.at.pg.id, d.View())
	}
	d.Keys("enter") // continue
	var seen []string
	for i := 0; i < 60 && w.at.pg.id != "agents"; i++ {
		if len(seen) == 0 || seen[len(seen)-1] != w.at.pg.id {
			seen = append(seen, w.at.pg.id)
		}
		d.Keys("enter")
	}
	if got := strings.Join(seen, " "); got != "agent eval task tasks" {
		t.Errorf("pages of an agent: %s", got)
	}
	d.Keys("down", "enter") // add an agent
	if w.at.pg.id != "agent" || w.at.i != 1 {
		t.Fatalf("add went to %s/%d", w.at.pg.id, w.at.i)
	}
	p := makePlan(testValidator, a)
	if p.Plan == nil {
		t.Fatalf("plan: %v %v", p.Err, p.Problems)
	}
	for _, want := range []string{"community.example.my-pack.hello", "community.example.my-pack.node2",
		"community.example.my-pack.assistant", "community.example.my-pack.agent2"} {
		if !strings.Contains(p.Manifest, `"`+want+`"`) {
			t.Errorf("%s missing from pack.json", want)
		}
	}
	if p.Plan.File("evals/assistant.json") == nil || p.Plan.File("evals/agent2.json") == nil {
		t.Errorf("eval suites: %v", p.Plan.Paths())
	}
}

// TestWizardBack goes forward one page and back with ctrl+b, the answer
// kept.
func TestWizardBack(t *testing.T) {
	k := ask.Asker{V: testValidator}
	a := newAnswers()
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, k, a, session{Options: Options{DraftDir: t.TempDir()}})
	})
	w := d.App.Top().(*wizard)
	d.Keys("down", "down", "enter") // an agent-only pack
	if w.at.pg.id != pageIdentity {
		t.Fatalf("page %v", w.at.pg.id)
	}
	d.Keys("ctrl+b")
	if w.at.pg.id != "what" || a.What != whatAgent {
		t.Fatalf("after ctrl+b: page %v, what %q", w.at.pg.id, a.What)
	}
	if !strings.Contains(d.View(), "> An agent-only pack") {
		t.Errorf("the kept answer is not selected:\n%s", d.View())
	}
}

// TestPrefill starts the wizard from command-line answers: the name is
// split into scope, org and part, the kind of pack follows from the runtime,
// and planning the untouched answers gives the same pack.
func TestPrefill(t *testing.T) {
	p := scaffold.PackAnswers{}.Defaults()
	if err := scaffold.Set(&p, "name", "vendor.acme.agents.bot"); err != nil {
		t.Fatal(err)
	}
	p.Runtime.Language = "remote"
	ag := scaffold.AgentAnswers{}.Defaults()
	ag.ID, ag.ModelClass = "writer", "writing"
	ev := scaffold.EvalAnswers{}.Defaults()
	ag.Eval = &ev
	p.Agents = []scaffold.AgentAnswers{ag}
	tool := scaffold.ToolAnswers{}.Defaults()
	tool.Tool.ID = "acme-search"

	a := newAnswers()
	prefill(a, &p, &tool)
	if a.Pack.Name != "vendor.acme.agents.bot" || a.What != whatAgent {
		t.Fatalf("prefilled %q %q", a.Pack.Name, a.What)
	}
	if scope, org, part := scaffold.SplitName(a.Pack.Name); scope != "vendor" || org != "acme" || part != "agents.bot" {
		t.Errorf("name parts %q %q %q", scope, org, part)
	}
	if len(a.Pack.Agents) != 1 || a.Pack.Agents[0].ID != "writer" || a.Pack.Agents[0].Eval == nil || a.Tool.Tool.ID != "acme-search" {
		t.Fatalf("agents %+v, tool %q", a.Pack.Agents, a.Tool.Tool.ID)
	}
	pl := makePlan(testValidator, a)
	if pl.Plan == nil {
		t.Fatalf("plan: %v %v", pl.Err, pl.Problems)
	}
	for _, want := range []string{`"vendor.acme.agents.bot.writer"`, `"modelClass": "writing"`, `"evalSuiteRef"`} {
		if !strings.Contains(pl.Manifest, want) {
			t.Errorf("%s missing from pack.json:\n%s", want, pl.Manifest)
		}
	}
}

// TestWizardChecksAsTyped types a bad organisation name: the schema's
// complaint shows before enter is pressed, and goes once the text is fixed.
func TestWizardChecksAsTyped(t *testing.T) {
	k := ask.Asker{V: testValidator}
	a := newAnswers()
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, k, a, session{Options: Options{What: whatNodes, DraftDir: t.TempDir()}})
	})
	w := d.App.Top().(*wizard)
	d.Keys("enter", "ctrl+u", "type:Acme Corp") // scope kept; organisation typed
	if !strings.Contains(w.live, "does not have the form") || !strings.Contains(d.View(), "✗ ") {
		t.Fatalf("no live complaint for %q: %q\n%s", a.Pack.Name, w.live, d.View())
	}
	d.Keys("ctrl+u", "type:acme")
	if w.live != "" || a.Pack.Name != "community.acme.my-pack" {
		t.Errorf("complaint kept after fixing: %q (name %q)", w.live, a.Pack.Name)
	}
}

// toPage makes the first walk position of page id current.
func toPage(d *driver, w *wizard, id string) {
	d.T.Helper()
	for _, at := range walk(w.a) {
		if at.pg.id == id {
			d.Run(w.move(at))
			return
		}
	}
	d.T.Fatalf("no page %s in the walk", id)
}

// Issue 44, item 9: the rubric's "needs at least one criterion" is not said
// on reaching the empty field, before anything is typed; it is said once
// the field is typed into and left empty.
func TestRubricSaysNothingBeforeTyping(t *testing.T) {
	t.Parallel()
	a := newAnswers()
	dir := t.TempDir()
	d, w := wizardOn(t, a, Options{What: whatMixed, Dir: filepath.Join(dir, "out"), DraftDir: dir})
	toPage(d, w, "task")
	const complaint = "needs at least one criterion"
	d.Keys("enter", "enter", "down", "enter") // task id, input, then rubric chosen: on to its criteria
	if k := w.form.GetFocusedField().GetKey(); !strings.HasSuffix(k, ".criteria") {
		t.Fatalf("enter does not reach the rubric criteria (on %s):\n%s", k, d.View())
	}
	if v := flat(d.View()); strings.Contains(v, complaint) {
		t.Errorf("the rubric complains before anything is typed:\n%s", d.View())
	}
	d.Keys("type:x", "backspace")
	if v := flat(d.View()); !strings.Contains(v, complaint) {
		t.Errorf("the rubric typed into and emptied says nothing:\n%s", d.View())
	}
}
