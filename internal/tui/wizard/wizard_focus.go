package wizard

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// A review problem leads to the field that asks the answer it is about.
// Each field's huh key is its answer path ("agents.1.persona",
// "agents.0.eval.tasks.0.id", "tool.id"); the form's focus moves to the
// field with the problem's field as key, or with the longest key the
// problem's field starts with ("agents.0.memory" for
// "agents.0.memory.longTerm").

// fieldKey is the key of the field that asks the answer a problem is about.
func fieldKey(fe scaffold.FieldError) string { return fe.Field }

// maxFocusMoves bounds the walk through a form (the longest has ~15 fields).
const maxFocusMoves = 64

// focusKey moves the form's focus forward to the field with the key, page
// by page, and reports whether it got there. It stops on a field it cannot
// leave (a page with an error) and never submits the form: when the key is
// not found on the last page, the form is left completed and the caller
// builds it again.
func focusKey(f *huh.Form, key string) (found bool, seen []string) {
	for range maxFocusMoves {
		cur := f.GetFocusedField()
		if cur == nil || f.State != huh.StateNormal {
			return false, seen
		}
		if cur.GetKey() == key {
			return true, seen
		}
		seen = append(seen, cur.GetKey())
		f.NextField()
		if f.GetFocusedField() != cur {
			continue
		}
		f.NextGroup() // the last field of its page: the next page's first
		if f.State != huh.StateNormal || f.GetFocusedField() == cur {
			return false, seen
		}
	}
	return false, seen
}

// bestKey is the longest of the keys that is key itself or a prefix of it
// at a dot ("" when none is).
func bestKey(key string, keys []string) string {
	best := ""
	for _, k := range keys {
		if k != "" && (k == key || strings.HasPrefix(key, k+".")) && len(k) > len(best) {
			best = k
		}
	}
	return best
}

// startAt starts the current form with the focus on the field a problem is
// about, rebuilding the form when the walk went past its end.
func (w *wizard) startAt(fe scaffold.FieldError) tea.Cmd {
	cmd := w.startForm()
	key := fieldKey(fe)
	if w.form == nil || key == "" {
		return cmd
	}
	found, seen := focusKey(w.form, key)
	if found {
		return cmd
	}
	w.form = w.build(w.at)
	cmd = w.startForm()
	if best := bestKey(key, seen); best != "" {
		focusKey(w.form, best)
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
	found, seen := focusKey(w.form, "\x00") // no field has this key: the walk goes to the end
	if found || len(seen) == 0 || w.form.State == huh.StateNormal && w.form.GetFocusedField() != at {
		return cmd // stopped on a field it cannot leave: the focus stays there
	}
	w.form = w.build(w.at)
	cmd = w.startForm()
	focusKey(w.form, seen[len(seen)-1])
	return cmd
}
