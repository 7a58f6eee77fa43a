package wizard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// Issue 17, items 2, 3 and 11: multi-selects show their options and what
// is ticked; their choices follow the answers; suggestions can be taken
// into the field and edited, and look like suggestions without colour.
// scripts/tui-e2e.sh (E2E_ONLY=choices) checks the same in tmux at 80x24,
// 60x20 and 120x40 under NO_COLOR=1.

// focusKeyOf moves the focus to the field with the key on the current page.
func focusKeyOf(t *testing.T, d *driver, w *wizard, key string) {
	t.Helper()
	for i := 0; i < 30 && w.form != nil && w.form.GetFocusedField().GetKey() != key; i++ {
		d.Keys("enter")
	}
	if w.form == nil || w.form.GetFocusedField().GetKey() != key {
		t.Fatalf("no field %s on %s:\n%s", key, w.at.pg.id, d.View())
	}
}

func pageOf(t *testing.T, d *driver, w *wizard, id string, i int) {
	t.Helper()
	for _, at := range walk(w.a) {
		if at.pg.id == id && at.i == i {
			d.Run(w.move(at))
			return
		}
	}
	t.Fatalf("no page %s/%d", id, i)
}

// Item 2: every option of a multi-select is on the screen at each size
// (the action's scopes showed none at 80x24 and 120x40, the node's
// capabilities, the agent's memory and the artifact's required properties
// one at a time above empty rows); x ticks the one under the cursor,
// visibly; once left, the field shows what is ticked, not the cursor's
// option.
func TestMultiSelectShowsOptions(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {60, 20}} {
		for _, tt := range []struct {
			what, page, key string
			want            []string
		}{
			{whatTool, "action", "actions.0.scopesUsed", []string{"net.outbound", "gmail.messages"}},
			{whatNodes, "node", "nodes.0.capabilities", []string{"streamable", "cacheable", "side-effectful", "mcp-exportable"}},
			{whatMixed, "agent", "agents.0.memory", scaffold.MemoryFlags},
			{scaffold.KindArtifactType, "artifact", "artifactTypes.0.required", []string{"title", "summary", "body"}},
		} {
			a := newAnswers()
			d, w := wizardOn(t, a, Options{What: tt.what, DraftDir: t.TempDir()})
			a.Tool.Scopes = []scaffold.ScopeAnswers{scaffold.NewScope(0), scaffold.NewScope(0)}
			a.Tool.Scopes[1].Resource = "gmail.messages"
			d.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			pageOf(t, d, w, tt.page, 0)
			focusKeyOf(t, d, w, tt.key)
			v := d.View()
			for _, o := range tt.want {
				if !strings.Contains(v, "[ ] "+o) && !strings.Contains(v, "[•] "+o) {
					t.Errorf("%dx%d %s: option %s is not shown:\n%s", size[0], size[1], tt.key, o, v)
				}
			}
			before := slices.Clone(w.form.GetFocusedField().GetValue().([]string))
			d.Keys("x")
			after := w.form.GetFocusedField().GetValue().([]string)
			first := tt.want[0]
			if slices.Contains(before, first) == slices.Contains(after, first) {
				t.Errorf("%dx%d %s: x did not tick %s: %q → %q", size[0], size[1], tt.key, first, before, after)
			}
			mark := "[ ] "
			if slices.Contains(after, first) {
				mark = "[•] "
			}
			if v := d.View(); !strings.Contains(v, "> "+mark+first) {
				t.Errorf("%dx%d %s: the tick is not shown:\n%s", size[0], size[1], tt.key, v)
			}
			if tt.page == "artifact" {
				continue // alone on its group: not drawn once left
			}
			d.Keys("shift+tab") // the field before, on the same group: this one is drawn unfocused
			ticked := "none"
			if len(after) > 0 {
				ticked = strings.Join(after, ", ")
			}
			if v := d.View(); !strings.Contains(v, "ticked: "+ticked) || w.form.GetFocusedField().GetKey() == tt.key {
				t.Errorf("%dx%d %s: once left, the field does not show what is ticked (%s):\n%s", size[0], size[1], tt.key, ticked, v)
			}
		}
	}
}

// Item 3: the artifact's required properties are offered from the
// properties as typed (summary is not offered after title, body); a
// required property no longer a property is unticked, and the field says
// so; space does not tick (it says which key does); the pack is written
// with what the author sees.
func TestChoicesFromAnswers(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: scaffold.KindArtifactType, Dir: dir, DraftDir: dir})
	pageOf(t, d, w, "artifact", 0)
	focusKeyOf(t, d, w, "artifactTypes.0.properties")
	d.Keys("ctrl+u", "type:title, summary", "enter")
	if w.form.GetFocusedField().GetKey() != "artifactTypes.0.required" {
		t.Fatalf("not on the required properties:\n%s", d.View())
	}
	v := d.View()
	if !strings.Contains(v, "[•] title") || !strings.Contains(v, "[ ] summary") || strings.Contains(v, "] body") {
		t.Errorf("the choices are not the properties typed:\n%s", v)
	}
	if !strings.Contains(v, "unticked body: no longer offered") || !slices.Equal(a.artifactPack().Types[0].Required, []string{"title"}) {
		t.Errorf("body, no longer a property, is still required (%q) or not said:\n%s", a.artifactPack().Types[0].Required, v)
	}
	d.Keys("shift+tab", "ctrl+u", "type:title, body", "enter")
	v = d.View()
	if strings.Contains(v, "summary") || !strings.Contains(v, "[ ] body") {
		t.Errorf("summary offered after title, body was typed:\n%s", v)
	}
	d.Keys("down")
	d.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	if !slices.Equal(a.artifactPack().Types[0].Required, []string{"title"}) {
		t.Errorf("space ticked an option: %q", a.artifactPack().Types[0].Required)
	}
	if v := d.View(); !strings.Contains(v, "x ticks or unticks") {
		t.Errorf("space does not say which key ticks:\n%s", v)
	}
	d.Keys("x")
	if !slices.Equal(a.artifactPack().Types[0].Required, []string{"title", "body"}) {
		t.Errorf("x did not tick body: %q", a.artifactPack().Types[0].Required)
	}
	enterUntil(t, d, w, "review")
	if len(w.rev.Problems) > 0 || w.rev.Plan == nil {
		t.Fatalf("review: %v %v\n%s", w.rev.Err, w.rev.Problems, d.View())
	}
}

// Item 3: an action's scopes are the tool's scopes as answered: a scope
// ticked and then removed from the list is unticked on the action's page,
// which says so.
func TestScopeRemovedIsUnticked(t *testing.T) {
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatTool, DraftDir: t.TempDir()})
	a.Tool.Scopes = []scaffold.ScopeAnswers{scaffold.NewScope(0)}
	a.Tool.Actions[0].ScopesUsed = []string{"net.outbound", "gmail.messages"}
	pageOf(t, d, w, "action", 0)
	focusKeyOf(t, d, w, "actions.0.scopesUsed")
	if v := d.View(); !strings.Contains(v, "unticked gmail.messages: no longer offered") || !strings.Contains(v, "[•] net.outbound") {
		t.Errorf("the removed scope is not said:\n%s", v)
	}
	if got := a.Tool.Actions[0].ScopesUsed; !slices.Equal(got, []string{"net.outbound"}) {
		t.Errorf("scopes used: %q", got)
	}
}

// Item 11: the card's two-line template suggestion is shown whole in a
// multi-line field; → takes it into the field to be edited (the help
// names it while the field is empty); under NO_COLOR (the harness's
// styles) a suggestion says it is one, with colour it is grey alone.
func TestSuggestionsEditable(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: scaffold.KindCard, DraftDir: dir})
	pageOf(t, d, w, "card", 0)
	focusKeyOf(t, d, w, "cards.0.template")
	if _, ok := w.form.GetFocusedField().(*huh.Text); !ok {
		t.Errorf("the template is a %T, not a multi-line field", w.form.GetFocusedField())
	}
	v := d.View()
	if !strings.Contains(v, "(suggested) Summarize this text in a {{length}} form.") || !strings.Contains(v, "{{source}}") {
		t.Errorf("the two-line suggestion is not shown whole, as a suggestion:\n%s", v)
	}
	if !strings.Contains(v, "→ edit suggestion") {
		t.Errorf("the help does not name →:\n%s", v)
	}
	d.Keys("right", "type: Keep it short.")
	want := "Summarize this text in a {{length}} form.\n\n{{source}} Keep it short."
	if got := a.cardPack().Cards[0].Template; got != want {
		t.Errorf("template %q, want %q", got, want)
	}
	if v := d.View(); strings.Contains(v, "→ edit suggestion") || !strings.Contains(v, "^u clear") {
		t.Errorf("the help of a field with text:\n%s", v)
	}
	// a one-line field: the identity's description
	d2, w2 := wizardOn(t, newAnswers(), Options{What: whatNodes, DraftDir: dir})
	pageOf(t, d2, w2, pageIdentity, 0)
	focusKeyOf(t, d2, w2, "description")
	if v := d2.View(); !strings.Contains(v, "> (suggested) A new OpenWOP pack.") {
		t.Errorf("NO_COLOR: the suggestion is not marked:\n%s", v)
	}
	d2.Keys("right", "backspace", "type: of nodes.")
	if got := w2.a.Pack.Description; got != "A new OpenWOP pack of nodes." {
		t.Errorf("description %q", got)
	}
	// with colour the placeholder's grey marks it: no words added
	col := newDriver(t, func(ctx *common.Context) tui.Screen {
		ctx.Styles.Plain = false
		return newWizard(ctx, ask.Asker{V: testValidator}, newAnswers(), session{Options: Options{What: whatNodes, DraftDir: dir}})
	})
	cw := col.App.Top().(*wizard)
	pageOf(t, col, cw, pageIdentity, 0)
	focusKeyOf(t, col, cw, "description")
	if v := col.View(); strings.Contains(v, "(suggested)") || !strings.Contains(v, "A new OpenWOP pack.") {
		t.Errorf("colour: %s", v)
	}
}

// The card pack written from an edited suggestion is valid.
func TestEditedTemplateWritten(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: scaffold.KindCard, Dir: dir, DraftDir: dir})
	pageOf(t, d, w, "card", 0)
	focusKeyOf(t, d, w, "cards.0.template")
	d.Keys("right", "type: Keep it short.")
	enterUntil(t, d, w, "review")
	if w.rev.Plan == nil || len(w.rev.Problems) > 0 {
		t.Fatalf("review: %v %v", w.rev.Err, w.rev.Problems)
	}
	d.Keys("enter")
	if !w.finished {
		t.Fatalf("not written: %q\n%s", w.err, d.View())
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "pack.json")) // Dir is the pack's folder
	if len(matches) != 1 {
		t.Fatalf("pack.json: %q\n%s", matches, strings.Join(w.done, "\n"))
	}
	strictValid(t, matches[0])
	b, _ := os.ReadFile(matches[0])
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil || !strings.Contains(string(b), `{{source}} Keep it short.`) {
		t.Errorf("the edited template is not written: %v\n%s", err, b)
	}
}
