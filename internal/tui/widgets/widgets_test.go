package widgets

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/openwop/wopkit/internal/tui/styles"
	"github.com/openwop/wopkit/internal/validate"
)

func TestFit(t *testing.T) {
	tests := []struct {
		in   string
		w, h int
		want string
	}{
		{"ab", 4, 2, "ab  \n    "},
		{"abcdef", 4, 1, "abc…"},
		{"a\nb\nc", 1, 2, "a\nb"},
		{"é—x", 3, 1, "é—x"},
	}
	for _, tt := range tests {
		if got := Fit(tt.in, tt.w, tt.h); got != tt.want {
			t.Errorf("Fit(%q, %d, %d) = %q, want %q", tt.in, tt.w, tt.h, got, tt.want)
		}
	}
}

func TestHelpLineFits(t *testing.T) {
	st := styles.New(true)
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	hidden := key.NewBinding(key.WithKeys("x"))
	for _, w := range []int{10, 40, 80} {
		got := HelpLine(st, w, b("q", "quit"), hidden, b("ctrl+s", "save"), b("enter", "edit the selected value"))
		if lipgloss.Width(got) > w {
			t.Errorf("width %d: help line is %d wide: %q", w, lipgloss.Width(got), got)
		}
		if !strings.HasPrefix(got, "q quit") && w >= 10 {
			t.Errorf("width %d: %q does not start with the first binding", w, got)
		}
	}
}

func TestProblemListView(t *testing.T) {
	st := styles.New(true)
	var l ProblemList
	if got := l.View(st, 20, 1, false); !strings.HasPrefix(got, "no problems") {
		t.Errorf("empty list: %q", got)
	}
	l.SetItems([]validate.Problem{
		{Pointer: "/a", Message: "bad a", Severity: validate.Error},
		{Pointer: "", Message: "top", Severity: validate.Warning},
		{Pointer: "/c", Message: "bad c", Severity: validate.Error},
	})
	if e, w := l.Counts(); e != 2 || w != 1 {
		t.Errorf("counts %d %d", e, w)
	}
	l.Move(5)
	if p, _ := l.Selected(); p.Pointer != "/c" {
		t.Errorf("cursor not clamped: %+v", p)
	}
	got := l.View(st, 40, 2, true)
	lines := strings.Split(got, "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "> error /c: bad c") || !strings.Contains(lines[0], "warning /: top") {
		t.Errorf("scrolled view:\n%s", got)
	}
}
