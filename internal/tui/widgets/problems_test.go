package widgets

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/tui/styles"
	"github.com/openwop/wopkit/internal/validate"
)

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
