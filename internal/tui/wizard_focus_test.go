package tui

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/common"
)

// TestReviewProblemFocusesField: a bad answer stops the plan; enter on its
// problem opens the page that asks it with that very field focused (the
// focused field's key, and the view: huh marks the focused field with a
// thick bar before its title).
func TestReviewProblemFocusesField(t *testing.T) {
	tests := []struct {
		name  string
		set   func(a *answers)
		field string // the problem followed
		step  step
		idx   int
		key   string
		title string
	}{
		{"agent persona", func(a *answers) { a.Agents[0].Persona = strings.Repeat("p", 201) },
			"agents.0.persona", stepAgent, 0, "agents.persona", "Persona"},
		{"second node typeId", func(a *answers) { a.Nodes = append(a.Nodes, newNode(1)); a.Nodes[1].ID = "Bad Id" },
			"nodes.1.id", stepNode, 1, "nodes.id", "Node id"},
		{"agent confidence (fourth page)", func(a *answers) { a.Agents[0].Conf = "7" },
			"agents.0.confidence", stepAgent, 0, "agents.confidence", "Confidence threshold"},
		{"eval pass score", func(a *answers) { a.Agents[0].Pass = "2" },
			"agents.0.eval.passScore", stepEval, 0, "agents.eval.passScore", "Pass score"},
		{"tool action name (last page)", func(a *answers) { a.Action.Name = "Bad Name" },
			"actions.0.name", stepTool, 0, "actions.name", "Action name"},
		{"pack version (second page)", func(a *answers) { a.Pack.Version = "1.0" },
			"version", stepIdentity, 0, "version", "Version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := asker{v: testValidator}
			a := newAnswers()
			a.Org, a.Part = "acme", "focus"
			tt.set(a)
			d := newDriver(t, func(ctx *common.Context) screen { return newWizard(ctx, k, a, NewOptions{DraftDir: t.TempDir()}) })
			w := d.a.top().(*wizard)
			d.run(w.goTo(stepReview))
			at := -1
			for i, p := range w.rev.problems {
				if p.Field == tt.field {
					at = i
					break
				}
			}
			if at < 0 {
				t.Fatalf("no problem on %s: %+v (err %v)", tt.field, w.rev.problems, w.rev.err)
			}
			for range at {
				d.keys("down")
			}
			d.keys("enter")
			if w.step != tt.step || w.idx != tt.idx || w.form == nil {
				t.Fatalf("enter went to %v/%d, want %v/%d", stepTitles[w.step], w.idx, stepTitles[tt.step], tt.idx)
			}
			if got := w.form.GetFocusedField().GetKey(); got != tt.key {
				t.Errorf("focused field %q, want %q\n%s", got, tt.key, d.view())
			}
			if !focusedTitle(d.view(), tt.title) {
				t.Errorf("the view does not show %q focused:\n%s", tt.title, d.view())
			}
		})
	}
}

// focusedTitle reports whether the view has the title on a line that
// starts with huh's focus bar.
func focusedTitle(view, title string) bool {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "┃") && strings.Contains(l, title) {
			return true
		}
	}
	return false
}

func TestFieldKey(t *testing.T) {
	for _, tt := range []struct{ field, key string }{
		{"agents.1.persona", "agents.persona"},
		{"nodes.12.id", "nodes.id"},
		{"agents.0.eval.tasks.0.id", "agents.eval.tasks.id"},
		{"env.0.name", "env.name"},
		{"agents.0", "agents"},
		{"name", "name"},
		{"", ""},
	} {
		if got := fieldKey(scaffold.FieldError{Field: tt.field}); got != tt.key {
			t.Errorf("fieldKey(%q) = %q, want %q", tt.field, got, tt.key)
		}
	}
	keys := []string{"agents.id", "agents.memory", "agents.eval"}
	for _, tt := range []struct{ key, want string }{
		{"agents.memory.longTerm", "agents.memory"},
		{"agents.memoryx", ""},
		{"agents.eval", "agents.eval"},
		{"agents.evalx", ""},
	} {
		if got := bestKey(tt.key, keys); got != tt.want {
			t.Errorf("bestKey(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

// TestStartAtUnknownField: a problem below a field lands on that field; one
// no field asks leaves the page open on its first field (the walk past the
// last page does not submit it).
func TestStartAtUnknownField(t *testing.T) {
	for _, tt := range []struct{ field, key string }{
		{"agents.0.memory.scratchpad", "agents.memory"},
		{"agents.0.nothing", "agents.id"},
	} {
		t.Run(tt.field, func(t *testing.T) {
			a := newAnswers()
			d := newDriver(t, func(ctx *common.Context) screen {
				return newWizard(ctx, asker{v: testValidator}, a, NewOptions{DraftDir: t.TempDir()})
			})
			w := d.a.top().(*wizard)
			w.step = stepAgent
			w.form = w.formFor(stepAgent)
			d.run(w.startAt(scaffold.FieldError{Field: tt.field}))
			if got := w.form.GetFocusedField().GetKey(); got != tt.key || w.step != stepAgent {
				t.Errorf("focused %q on %v, want %q", got, stepTitles[w.step], tt.key)
			}
			d.keys("enter") // the form still takes answers
			if w.step != stepAgent || w.form.GetFocusedField().GetKey() == tt.key {
				t.Errorf("enter did not move on within the page: %v %q", stepTitles[w.step], w.form.GetFocusedField().GetKey())
			}
		})
	}
}
