package wizard

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// TestKeysTypedAfterEnterLandInTheNextField: enter and the keys typed right
// after it arrive together (typed ahead, or pasted), and bubbletea handles
// those keys before any command enter answered with. huh moves on from a
// choice by such a command, so the keys landed in the choice left (its
// filter, its options) and the next field lost them; the wizard moves on
// at once, for a choice and a yes/no question as for a text input.
func TestKeysTypedAfterEnterLandInTheNextField(t *testing.T) {
	for _, tc := range []struct {
		name, from, to string
		page           string
	}{
		{"a choice", "name.scope", "name", pageIdentity},
		{"a text input", "name", "name.part", pageIdentity},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAnswers()
			dir := t.TempDir()
			d := newDriver(t, func(ctx *common.Context) tui.Screen {
				return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: Options{DraftDir: dir, Dir: filepath.Join(dir, "out")}})
			})
			w := d.App.Top().(*wizard)
			toPage(d, w, tc.page)
			focusKeyOf(t, d, w, tc.from)
			typeAhead(d, "enter", "ctrl+u", "type:zeta")
			f := w.form.GetFocusedField()
			if f.GetKey() != tc.to || f.GetValue() != "zeta" {
				t.Fatalf("after enter on %s and zeta typed at once: focus on %s holding %q, want %s holding \"zeta\"\n%s",
					tc.from, f.GetKey(), f.GetValue(), tc.to, d.View())
			}
		})
	}
	t.Run("a yes/no question", func(t *testing.T) {
		a := newAnswers()
		dir := t.TempDir()
		d := newDriver(t, func(ctx *common.Context) tui.Screen {
			return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: Options{DraftDir: dir, Dir: filepath.Join(dir, "out")}})
		})
		w := d.App.Top().(*wizard)
		var confirm huh.Field
		for i := 0; i < 200 && w.form != nil; i++ {
			if f := w.form.GetFocusedField(); f != nil {
				if _, ok := f.(*huh.Confirm); ok {
					confirm = f
					break
				}
			}
			d.Keys("enter")
		}
		if confirm == nil {
			t.Fatalf("no yes/no question before the review:\n%s", d.View())
		}
		// a key that answers a yes/no question, typed right after enter:
		// it belongs to whatever comes next, not to the answer just given
		before, other := confirm.GetValue().(bool), "type:y"
		if before {
			other = "type:n"
		}
		typeAhead(d, "enter", other)
		if after := confirm.GetValue().(bool); after != before {
			t.Fatalf("%s typed right after enter on %q changed its answer (%v to %v):\n%s", other[5:], confirm.GetKey(), before, after, d.View())
		}
	})
}

// typeAhead hands the keys to the program one after the other, as its
// input reader does when they come in one read, and only then runs the
// commands they answered with (bubbletea queues a command's message behind
// keys already read).
func typeAhead(d *driver, keys ...string) {
	var cmds []tea.Cmd
	press := func(k tea.KeyPressMsg) {
		_, cmd := d.App.Update(k)
		cmds = append(cmds, cmd)
	}
	for _, k := range keys {
		if text, ok := strings.CutPrefix(k, "type:"); ok {
			for _, r := range text {
				press(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			continue
		}
		press(keyMsg(k))
	}
	for _, c := range cmds {
		d.Run(c)
	}
}
