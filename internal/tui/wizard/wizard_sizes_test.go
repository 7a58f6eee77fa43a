package wizard

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// At 60 columns (issue 11 tried the wizard at 60x20) the key help of the
// widest fields (the license list, a multi-select, a multi-line text with
// $EDITOR set) fits whole: it ends with esc quit and names both ways back,
// instead of being cut at the edge (the license list's help was 67 columns
// wide). At 80 columns the long help is kept. scripts/tui-e2e.sh checks
// every screen of a mixed pack in tmux at 60x20 and 120x40.
func TestHelpFitsAt60Columns(t *testing.T) {
	t.Setenv("EDITOR", "vi") // the text fields' help names ^e editor too
	a := newAnswers()
	a.Pack.License = "EUPL-1.2" // not in the list: typed, with → and ^e complete in its help
	d, w := wizardOn(t, a, Options{DraftDir: t.TempDir()})
	toPage(d, w, pageIdentity)
	if v := d.View(); !strings.Contains(v, "⇧tab back  ^b prev page  esc quit") {
		t.Errorf("80x24: the long help is not kept:\n%s", v)
	}
	d.Send(tea.WindowSizeMsg{Width: 60, Height: 20})
	short := 0
	for _, page := range []string{pageIdentity, "node", "agent"} {
		toPage(d, w, page)
		for i := 0; i < 12 && w.at.pg.id == page; i++ {
			v := strings.TrimRight(d.View(), "\n")
			lines := strings.Split(v, "\n")
			field := w.form.GetFocusedField().GetKey()
			help := lines[len(lines)-1]
			if len(lines) != 20 || !strings.HasSuffix(help, "esc quit") ||
				!strings.Contains(help, "⇧tab") || !strings.Contains(help, "^b") {
				t.Errorf("60x20, %s: the key help is cut or leaves a key out: %q", field, help)
			}
			if strings.Contains(help, "⇧tab/^b back") {
				short++
			}
			if !strings.Contains(v, "\n┃") {
				t.Errorf("60x20, %s: the focused field is off the screen:\n%s", field, v)
			}
			d.Keys("enter")
		}
	}
	if short < 3 { // the license list, the node's capabilities, the agent's prompt and memory
		t.Errorf("the short help was used on %d fields", short)
	}
}
