package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/common"
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
			if p.err != nil || len(p.problems) > 0 || p.plan == nil {
				t.Fatalf("plan: err %v, problems %v", p.err, p.problems)
			}
			paths := strings.Join(p.plan.Paths(), " ") + " "
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
			if p.manifest == "" {
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
		want step
	}{
		{"pack name", func(a *answers) { a.Org = "Not Valid" }, stepIdentity},
		{"version", func(a *answers) { a.Pack.Version = "1.0" }, stepIdentity},
		{"agent model class", func(a *answers) { a.Agents[0].ModelClass = "psychic" }, stepAgent},
		{"tool id", func(a *answers) { a.Tool.Tool.ID = "Bad Id" }, stepTool},
		{"standalone agent id", func(a *answers) { a.What, a.Agents[0].ID = whatSoloAgent, "Bad Id" }, stepAgent},
		{"standalone agent's suite", func(a *answers) { a.What, a.Agents[0].Suite.Version = whatSoloAgent, "1" }, stepEval},
		{"standalone suite id", func(a *answers) { a.What, a.Agents[0].Suite.SuiteID = whatSoloEval, "x" }, stepEval},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAnswers()
			tt.set(a)
			p := makePlan(testValidator, a)
			if len(p.problems) == 0 {
				t.Fatalf("no problem reported (err %v)", p.err)
			}
			if p.plan != nil {
				t.Error("a plan with problems would be written")
			}
			if got := stepOf(p.problems[0]); got != tt.want {
				t.Errorf("problem %+v leads to step %v, want %v", p.problems[0], stepTitles[got], stepTitles[tt.want])
			}
		})
	}
}

func TestStepOf(t *testing.T) {
	tests := []struct {
		fe   scaffold.FieldError
		want step
	}{
		{scaffold.FieldError{Field: "name"}, stepIdentity},
		{scaffold.FieldError{Field: "runtime.language"}, stepRuntime},
		{scaffold.FieldError{Field: "nodes.0.category"}, stepNode},
		{scaffold.FieldError{Field: "agents.0.persona"}, stepAgent},
		{scaffold.FieldError{Field: "agents.0.eval.passScore"}, stepEval},
		{scaffold.FieldError{Field: "tool.id", File: "tool"}, stepTool},
		{scaffold.FieldError{Field: "x", File: "tools/a.tool.json"}, stepTool},
	}
	for _, tt := range tests {
		if got := stepOf(tt.fe); got != tt.want {
			t.Errorf("stepOf(%+v) = %v, want %v", tt.fe, stepTitles[got], stepTitles[tt.want])
		}
	}
}

// TestWizardEscKeepsDraft leaves the wizard with esc, keeps the draft, and
// checks that the next start offers it and resumes with its answers.
func TestWizardEscKeepsDraft(t *testing.T) {
	dir := t.TempDir()
	opts := NewOptions{DraftDir: dir}
	k := asker{v: testValidator}
	a := newAnswers()
	d := newDriver(t, func(ctx *common.Context) screen { return newWizard(ctx, k, a, opts) })
	d.keys("down", "enter") // a pack of nodes
	if w := d.a.top().(*wizard); w.step != stepIdentity || a.What != whatNodes {
		t.Fatalf("after choosing: step %v, what %q", stepTitles[w.step], a.What)
	}
	d.keys("esc")
	if _, ok := d.a.top().(*confirm); !ok {
		t.Fatalf("esc did not ask about a draft:\n%s", d.view())
	}
	d.golden("wizard-draft-prompt")
	d.keys("y")
	if !d.quit {
		t.Fatal("y did not quit")
	}
	got, ok := loadDraft(filepath.Join(dir, DraftFile))
	if !ok || got.What != whatNodes {
		t.Fatalf("draft not kept: %v %+v", ok, got)
	}
	fresh := newAnswers()
	d2 := newDriver(t, func(ctx *common.Context) screen { return newDraftOffer(ctx, k, fresh, got, opts) })
	d2.keys("y")
	w, ok := d2.a.top().(*wizard)
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
	opts := NewOptions{What: whatTool, Dir: dir, DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	if err := runAccessible(context.Background(), asker{v: testValidator}, newAnswers(), opts); err != nil {
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
	a.Scope, a.Org = "core", "openwop"
	p := makePlan(testValidator, a)
	if p.plan != nil || len(p.problems) == 0 || !strings.Contains(p.problems[0].Message, "core") {
		t.Fatalf("core.* name not reported: %v %v", p.err, p.problems)
	}
	if s := stepOf(p.problems[0]); s != stepIdentity {
		t.Errorf("leads to %v", stepTitles[s])
	}
}

// TestWizardReview shows the review at 80x24 (golden), then, with a bad
// answer, follows a problem back to its step and returns to the review
// once that step is answered again.
func TestWizardReview(t *testing.T) {
	k := asker{v: testValidator}
	a := newAnswers()
	a.Org, a.Part = "acme", "review"
	d := newDriver(t, func(ctx *common.Context) screen { return newWizard(ctx, k, a, NewOptions{DraftDir: t.TempDir()}) })
	w := d.a.top().(*wizard)
	d.run(w.goTo(stepReview))
	if w.rev.plan == nil {
		t.Fatalf("no plan: %v %v", w.rev.err, w.rev.problems)
	}
	d.golden("wizard-review")

	a.Org = "Bad Org"
	d.run(w.goTo(stepReview))
	if len(w.rev.problems) == 0 {
		t.Fatal("bad org not reported")
	}
	d.golden("wizard-review-problems")
	d.keys("enter")
	if w.step != stepIdentity || w.form == nil {
		t.Fatalf("enter on the problem went to %v", stepTitles[w.step])
	}
	d.keys("enter", "ctrl+u", "type:acme", "enter") // scope kept, organisation retyped
	for i := 0; i < 12 && w.step == stepIdentity; i++ {
		d.keys("enter")
	}
	if w.step != stepReview || w.rev.plan == nil {
		t.Fatalf("after fixing, step %v, problems %v", stepTitles[w.step], w.rev.problems)
	}
}

// TestAdvanceLoops walks the node and agent loops: "add another" adds an
// entry and asks it; an agent's eval suite comes right after the agent.
func TestAdvanceLoops(t *testing.T) {
	a := newAnswers()
	w := newWizard(common.New(true), asker{v: testValidator}, a, NewOptions{})
	type move struct {
		more, eval bool
		want       step
		wantIdx    int
	}
	w.step = stepNode
	for i, m := range []move{
		{more: true, want: stepNode, wantIdx: 1},             // node 1 asks for another
		{want: stepAgent, wantIdx: 0},                        // node 2 does not
		{more: true, eval: true, want: stepEval, wantIdx: 0}, // agent 1 has a suite, wants another
		{want: stepAgent, wantIdx: 1},                        // after its suite, agent 2
		{eval: false, want: stepTool, wantIdx: 0},            // agent 2: no suite, no more
	} {
		a.More = m.more
		if w.step == stepAgent {
			a.Agents[w.idx].WithEval = m.eval
		}
		got := w.advance()
		if got != m.want || w.idx != m.wantIdx {
			t.Fatalf("move %d: got %v/%d, want %v/%d", i, stepTitles[got], w.idx, stepTitles[m.want], m.wantIdx)
		}
		w.step = got
	}
	p := makePlan(testValidator, a)
	if p.plan == nil {
		t.Fatalf("plan: %v %v", p.err, p.problems)
	}
	for _, want := range []string{"community.example.my-pack.hello", "community.example.my-pack.node2",
		"community.example.my-pack.assistant", "community.example.my-pack.agent2"} {
		if !strings.Contains(p.manifest, `"`+want+`"`) {
			t.Errorf("%s missing from pack.json", want)
		}
	}
	if p.plan.File("evals/assistant.json") == nil || p.plan.File("evals/agent2.json") != nil {
		t.Errorf("eval suites: %v", p.plan.Paths())
	}
}

func TestLocate(t *testing.T) {
	for _, tt := range []struct {
		field string
		s     step
		i     int
	}{{"agents.1.persona", stepAgent, 1}, {"nodes.2.id", stepNode, 2}, {"agents.0.eval.passScore", stepEval, 0}, {"name", stepIdentity, 0}} {
		s, i := locate(scaffold.FieldError{Field: tt.field})
		if s != tt.s || i != tt.i {
			t.Errorf("locate(%s) = %v/%d, want %v/%d", tt.field, stepTitles[s], i, stepTitles[tt.s], tt.i)
		}
	}
}

// TestWizardBack goes forward one page and back with ctrl+b, the answer
// kept.
func TestWizardBack(t *testing.T) {
	k := asker{v: testValidator}
	a := newAnswers()
	d := newDriver(t, func(ctx *common.Context) screen { return newWizard(ctx, k, a, NewOptions{DraftDir: t.TempDir()}) })
	w := d.a.top().(*wizard)
	d.keys("down", "down", "enter") // an agent-only pack
	if w.step != stepIdentity {
		t.Fatalf("step %v", stepTitles[w.step])
	}
	d.keys("ctrl+b")
	if w.step != stepWhat || a.What != whatAgent {
		t.Fatalf("after ctrl+b: step %v, what %q", stepTitles[w.step], a.What)
	}
	if !strings.Contains(d.view(), "> An agent-only pack") {
		t.Errorf("the kept answer is not selected:\n%s", d.view())
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
	if a.Scope != "vendor" || a.Org != "acme" || a.Part != "agents.bot" || a.What != whatAgent {
		t.Fatalf("prefilled %q %q %q %q", a.Scope, a.Org, a.Part, a.What)
	}
	if len(a.Agents) != 1 || a.Agents[0].ID != "writer" || !a.Agents[0].WithEval || a.Tool.Tool.ID != "acme-search" {
		t.Fatalf("agents %+v, tool %q", a.Agents, a.Tool.Tool.ID)
	}
	pl := makePlan(testValidator, a)
	if pl.plan == nil {
		t.Fatalf("plan: %v %v", pl.err, pl.problems)
	}
	for _, want := range []string{`"vendor.acme.agents.bot.writer"`, `"modelClass": "writing"`, `"evalSuiteRef"`} {
		if !strings.Contains(pl.manifest, want) {
			t.Errorf("%s missing from pack.json:\n%s", want, pl.manifest)
		}
	}
}

// TestWizardChecksAsTyped types a bad organisation name: the schema's
// complaint shows before enter is pressed, and goes once the text is fixed.
func TestWizardChecksAsTyped(t *testing.T) {
	k := asker{v: testValidator}
	a := newAnswers()
	d := newDriver(t, func(ctx *common.Context) screen {
		return newWizard(ctx, k, a, NewOptions{What: whatNodes, DraftDir: t.TempDir()})
	})
	w := d.a.top().(*wizard)
	d.keys("enter", "ctrl+u", "type:Acme Corp") // scope kept; organisation typed
	if !strings.Contains(w.live, "does not have the form") || !strings.Contains(d.view(), "✗ ") {
		t.Fatalf("no live complaint for %q: %q\n%s", a.Org, w.live, d.view())
	}
	d.keys("ctrl+u", "type:acme")
	if w.live != "" || a.Org != "acme" {
		t.Errorf("complaint kept after fixing: %q (org %q)", w.live, a.Org)
	}
}
