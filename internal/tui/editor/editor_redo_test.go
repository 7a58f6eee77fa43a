package editor

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Issue 35, item 8: what undo takes back, redo makes again (U, ctrl+y),
// byte for byte; a new edit clears what is left to redo.
func TestEditorRedo(t *testing.T) {
	dir := copyPack(t)
	d := newDriver(t, editorOn(t, dir)).Keys("/", "type:version", "enter", "enter", "ctrl+u", "type:9.9.9", "enter")
	e := d.App.Top().(*editor)
	edited := string(e.src)
	d.Keys("u")
	if e.dirty() {
		t.Fatalf("undo left the document modified")
	}
	d.Keys("U")
	if string(e.src) != edited {
		t.Fatalf("redo did not make the edit again:\n%s", e.src)
	}
	if r, _ := e.current(); r.ptr != "/version" {
		t.Errorf("cursor after redo at %q, want /version", r.ptr)
	}
	d.Keys("U")
	if e.status != "nothing to redo" {
		t.Errorf("status %q after redoing too far", e.status)
	}
	d.Keys("u", "ctrl+u") // undone, then a new edit: nothing is left to redo
	d.Keys("enter", "ctrl+u", "type:1.2.3", "enter", "ctrl+y")
	if !strings.Contains(string(e.src), `"1.2.3"`) || e.status != "nothing to redo" {
		t.Errorf("after a new edit, redo: %q\n%s", e.status, e.src)
	}
}

// Issue 35, item 8: the problem list cuts a long message with …; v shows
// the selected one whole (message and hint) in the detail pane.
func TestEditorProblemWhole(t *testing.T) {
	d := newDriver(t, editorOn(t, copyPack(t))).Send(tea.WindowSizeMsg{Width: 60, Height: 24})
	e := d.App.Top().(*editor)
	d.Keys("tab")
	p, ok := e.problems.Selected()
	if !ok {
		t.Fatal("no problem to select")
	}
	// the detail pane's text (right of │), its lines joined
	flat := func() string {
		var right []string
		for _, l := range strings.Split(d.View(), "\n") {
			if _, r, ok := strings.Cut(l, "│"); ok {
				right = append(right, r)
			}
		}
		return strings.Join(strings.Fields(strings.Join(right, " ")), " ")
	}
	msg := strings.Join(strings.Fields(p.Message), " ")
	if strings.Contains(flat(), msg) {
		t.Skipf("the message fits the list at 60 columns: %q", msg)
	}
	d.Keys("v")
	if !strings.Contains(flat(), msg) || !strings.Contains(d.View(), "read whole") {
		t.Errorf("v does not show the problem whole (%q):\n%s", msg, d.View())
	}
	d.Keys("v")
	if strings.Contains(flat(), msg) {
		t.Errorf("v again does not go back to the field's help:\n%s", d.View())
	}
}
