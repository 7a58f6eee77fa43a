package widgets

import (
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/tui/styles"
	"github.com/openwop/wopkit/internal/validate"
)

// ProblemList is a scrolling list of validation problems with a cursor. It
// only draws; the screen that owns it decides what selecting one does.
type ProblemList struct {
	Items  []validate.Problem
	Cursor int
	offset int
}

// SetItems replaces the problems, keeping the cursor in range.
func (l *ProblemList) SetItems(ps []validate.Problem) {
	l.Items = ps
	l.Cursor = min(l.Cursor, max(len(ps)-1, 0))
}

// Offset is the index of the first problem shown.
func (l *ProblemList) Offset() int { return l.offset }

// Move moves the cursor by delta, clamped.
func (l *ProblemList) Move(delta int) {
	l.Cursor = min(max(l.Cursor+delta, 0), max(len(l.Items)-1, 0))
}

// Selected returns the problem under the cursor.
func (l *ProblemList) Selected() (validate.Problem, bool) {
	if l.Cursor < 0 || l.Cursor >= len(l.Items) {
		return validate.Problem{}, false
	}
	return l.Items[l.Cursor], true
}

// Counts returns the number of errors and warnings.
func (l *ProblemList) Counts() (errs, warns int) {
	for _, p := range l.Items {
		if p.Severity == validate.Error {
			errs++
		} else {
			warns++
		}
	}
	return
}

// View draws height lines of width cells; focused shows the cursor marker.
func (l *ProblemList) View(st styles.Styles, width, height int, focused bool) string {
	if height <= 0 {
		return ""
	}
	if len(l.Items) == 0 {
		return Fit(st.OK.Render("no problems"), width, height)
	}
	if l.Cursor < l.offset {
		l.offset = l.Cursor
	}
	if l.Cursor >= l.offset+height {
		l.offset = l.Cursor - height + 1
	}
	var b strings.Builder
	for i := l.offset; i < len(l.Items) && i < l.offset+height; i++ {
		p := l.Items[i]
		mark := "  "
		if focused && i == l.Cursor {
			mark = "> "
		}
		where := p.Pointer
		if where == "" {
			where = "/"
		}
		line := fmt.Sprintf("%s%s %s: %s", mark, p.Severity, where, p.Message)
		style := st.Warning
		if p.Severity == validate.Error {
			style = st.Error
		}
		if focused && i == l.Cursor {
			style = st.Selected
		}
		if i > l.offset {
			b.WriteByte('\n')
		}
		b.WriteString(style.Render(line))
	}
	return Fit(b.String(), width, height)
}
