package wizard

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// A review problem leads to the field that asks the answer it is about.
// Each field's huh key is its answer path ("agents.1.persona",
// "agents.0.eval.tasks.0.id", "tool.id"); the form's focus moves to the
// field with the problem's field as key, or with the longest key the
// problem's field starts with ("agents.0.memory" for
// "agents.0.memory.longTerm").

// fieldKey is the key of the field that asks the answer a problem is about.
func fieldKey(fe scaffold.FieldError) string { return fe.Field }

// startAt starts the current form with the focus on the field a problem is
// about, rebuilding the form when the walk went past its end.
func (w *wizard) startAt(fe scaffold.FieldError) tea.Cmd {
	cmd := w.startForm()
	key := fieldKey(fe)
	if w.form == nil || key == "" {
		return cmd
	}
	found, seen := ask.FocusKey(w.form, key)
	if found {
		return cmd
	}
	w.form = w.build(w.at)
	cmd = w.startForm()
	if best := ask.BestKey(key, seen); best != "" {
		ask.FocusKey(w.form, best)
	}
	return cmd
}

// backToLast goes back a page with the focus on its last field, as
// shift+tab goes back a field (^b lands on the page's first field). The
// walk to the last field may complete the form: it is then built again
// and walked to the last key seen.
func (w *wizard) backToLast() tea.Cmd {
	cmd := w.back()
	if w.form == nil {
		return cmd
	}
	at := w.form.GetFocusedField()
	found, seen := ask.FocusKey(w.form, "\x00") // no field has this key: the walk goes to the end
	if found || len(seen) == 0 || w.form.State == huh.StateNormal && w.form.GetFocusedField() != at {
		return cmd // stopped on a field it cannot leave: the focus stays there
	}
	w.form = w.build(w.at)
	cmd = w.startForm()
	ask.FocusKey(w.form, seen[len(seen)-1])
	return cmd
}
