package wizard

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
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
		page  string
		idx   int
		key   string
		title string
	}{
		{"agent persona", func(a *answers) { a.Pack.Agents[0].Persona = strings.Repeat("p", 201) },
			"agents.0.persona", "agent", 0, "agents.0.persona", "Persona"},
		{"second node typeId", func(a *answers) {
			a.Pack.Nodes = append(a.Pack.Nodes, scaffold.NewNode(1))
			a.Pack.Nodes[1].ID = "Bad Id"
		}, "nodes.1.id", "node", 1, "nodes.1.id", "Node id"},
		{"agent confidence (third group)", func(a *answers) { a.Pack.Agents[0].Confidence = 7 },
			"agents.0.confidence", "agent", 0, "agents.0.confidence", "Confidence threshold"},
		{"eval pass score", func(a *answers) { a.Pack.Agents[0].Eval.PassScore = 2 },
			"agents.0.eval.passScore", "eval", 0, "agents.0.eval.passScore", "Pass score"},
		{"tool action name", func(a *answers) { a.Tool.Actions[0].Name = "Bad Name" },
			"actions.0.name", "action", 0, "actions.0.name", "Action name"},
		{"env prompt (bug 1)", func(a *answers) {
			a.Tool.Env = []scaffold.EnvAnswers{scaffold.NewEnv(0)}
			a.Tool.Env[0].Prompt = strings.Repeat("p", 801)
		},
			"env.0.prompt", "env", 0, "env.0.prompt", "Prompt"},
		{"pack version (second group)", func(a *answers) { a.Pack.Version = "1.0" },
			"version", pageIdentity, 0, "version", "Version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := ask.Asker{V: testValidator}
			a := newAnswers()
			a.Pack.Name = "community.acme.focus"
			tt.set(a)
			dir := t.TempDir()
			d := newDriver(t, func(ctx *common.Context) tui.Screen {
				return newWizard(ctx, k, a, session{Options: Options{DraftDir: dir, Dir: filepath.Join(dir, "out")}})
			})
			w := d.App.Top().(*wizard)
			toPage(d, w, "review")
			at := -1
			for i, p := range w.rev.Problems {
				if p.Field == tt.field {
					at = i
					break
				}
			}
			if at < 0 {
				t.Fatalf("no problem on %s: %+v (err %v)", tt.field, w.rev.Problems, w.rev.Err)
			}
			for range at {
				d.Keys("down")
			}
			d.Keys("enter")
			if w.at.pg.id != tt.page || w.at.i != tt.idx || w.form == nil {
				t.Fatalf("enter went to %v/%d, want %v/%d", w.at.pg.id, w.at.i, tt.page, tt.idx)
			}
			if got := w.form.GetFocusedField().GetKey(); got != tt.key {
				t.Errorf("focused field %q, want %q\n%s", got, tt.key, d.View())
			}
			if !focusedTitle(d.View(), tt.title) {
				t.Errorf("the view does not show %q focused:\n%s", tt.title, d.View())
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

func TestBestKey(t *testing.T) {
	keys := []string{"agents.id", "agents.memory", "agents.eval"}
	for _, tt := range []struct{ key, want string }{
		{"agents.memory.longTerm", "agents.memory"},
		{"agents.memoryx", ""},
		{"agents.eval", "agents.eval"},
		{"agents.evalx", ""},
	} {
		if got := ask.BestKey(tt.key, keys); got != tt.want {
			t.Errorf("bestKey(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

// TestStartAtUnknownField: a problem below a field lands on that field; one
// no field asks leaves the page open on its first field (the walk past the
// last page does not submit it).
func TestStartAtUnknownField(t *testing.T) {
	for _, tt := range []struct{ field, key string }{
		{"agents.0.memory.scratchpad", "agents.0.memory"},
		{"agents.0.nothing", "agents.0.id"},
	} {
		t.Run(tt.field, func(t *testing.T) {
			a := newAnswers()
			d := newDriver(t, func(ctx *common.Context) tui.Screen {
				return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: Options{DraftDir: t.TempDir()}})
			})
			w := d.App.Top().(*wizard)
			toPage(d, w, "agent")
			d.Run(w.startAt(scaffold.FieldError{Field: tt.field}))
			if got := w.form.GetFocusedField().GetKey(); got != tt.key || w.at.pg.id != "agent" {
				t.Errorf("focused %q on %v, want %q", got, w.at.pg.id, tt.key)
			}
			d.Keys("enter") // the form still takes answers
			if w.at.pg.id != "agent" || w.form.GetFocusedField().GetKey() == tt.key {
				t.Errorf("enter did not move on within the page: %v %q", w.at.pg.id, w.form.GetFocusedField().GetKey())
			}
		})
	}
}
