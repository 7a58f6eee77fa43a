package ask

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/tui/tuitest"
)

// Item 2: more options than the terminal has rows for scroll with the
// cursor, saying how many more there are; every one can be reached.
func TestPickScrolls(t *testing.T) {
	opts := []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"}
	var v []string
	p := NewPick("k", "Title", "", func() []string { return opts }, &v)
	p.WithTheme(PlainTheme)
	p.WithWidth(40)
	p.rows = func() int { return 5 }
	p.Focus()
	view := ansi.Strip(p.View())
	if !strings.Contains(view, "a1") || strings.Contains(view, "a8") || !strings.Contains(view, "↓ 5 more") {
		t.Errorf("first screen:\n%s", view)
	}
	for range 7 {
		p.Update(tuitest.Key("down"))
	}
	p.Update(tuitest.Key("x"))
	view = ansi.Strip(p.View())
	if !strings.Contains(view, "> [•] a8") || !strings.Contains(view, "↑ 5 more") || strings.Count(view, "\n") > 4 {
		t.Errorf("last option:\n%s", view)
	}
	if !slices.Equal(v, []string{"a8"}) {
		t.Errorf("value %q", v)
	}
}
