package wizard

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// wizardAt opens the wizard (colours on, 80x24) on page id, the focus on
// the field with key (or the page's first field).
func wizardAt(b *testing.B, id, key string) *tui.App {
	b.Helper()
	ctx := common.New(false)
	a := newAnswers()
	w := newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: Options{DraftDir: b.TempDir()}})
	ap := tui.NewApp(ctx, w)
	ap.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, at := range walk(a) {
		if at.pg.id == id {
			w.move(at)
			break
		}
	}
	if key != "" {
		if found, _ := ask.FocusKey(w.form, key); !found {
			b.Fatalf("no field %s on %s", key, id)
		}
	}
	return ap
}

// frame is one keystroke to one frame: Update (the live check it returns
// runs off the render path, in a command, and is not counted) and render.
func frame(ap *tui.App, k tea.KeyPressMsg) {
	ap.Update(k)
	_ = ap.Render()
}

// BenchmarkWizardKeystroke is keystroke-to-frame time on the identity page
// (typing the organisation; moving through the license list of every SPDX
// id) and on the largest pages (the agent's: typing its description; the
// tool action's).
func BenchmarkWizardKeystroke(b *testing.B) {
	for _, c := range []struct{ name, page, key string }{
		{"identity/type", pageIdentity, "name"},
		{"identity/license-list", pageIdentity, "license"},
		{"agent/type", "agent", "agents.0.description"},
		{"action/type", "action", "actions.0.summary"},
	} {
		b.Run(c.name, func(b *testing.B) {
			ap := wizardAt(b, c.page, c.key)
			keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
			if c.key == "license" {
				keys = []tea.KeyPressMsg{keyMsg("down"), keyMsg("up")}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				frame(ap, keys[i%2])
			}
		})
	}
}
