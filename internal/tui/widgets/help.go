// Package widgets holds the pieces several screens draw: the key help line,
// the problem list and the yes/no dialog.
package widgets

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/tui/styles"
)

// HelpLine renders bindings as "key action  key action", cut to width so it
// always fits on one line.
func HelpLine(st styles.Styles, width int, bindings ...key.Binding) string {
	parts := make([]string, 0, len(bindings))
	for _, b := range bindings {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		if h.Key == "" {
			continue
		}
		parts = append(parts, h.Key+" "+h.Desc)
	}
	// too narrow for every key: the last ones go first, but never the
	// first nor how to quit, which always shows
	for i := len(parts) - 1; i > 0 && ansi.StringWidth(strings.Join(parts, "  ")) > width; i-- {
		if !strings.HasSuffix(parts[i], " quit") {
			parts = slices.Delete(parts, i, i+1)
		}
	}
	return st.Help.Render(ansi.Truncate(strings.Join(parts, "  "), width, "…"))
}

// Fit pads or cuts every line of s to exactly width cells and the block to
// exactly height lines, so panes line up side by side.
func Fit(s string, width, height int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	for i, l := range lines {
		l = ansi.Truncate(l, width, "…")
		if w := lipgloss.Width(l); w < width {
			l += strings.Repeat(" ", width-w)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// Wrap wraps text to width at spaces only, never inside a word: a
// version (1.0.0), a flag (--key-id), a path or an address stays whole on
// one line (ansi.Wrap, and huh, also break at hyphens, dots and commas).
// A wrapped line's rest keeps the line's indent; only a word wider than
// the line is cut. ANSI styles are kept.
func Wrap(s string, width int) string {
	width = max(width, 1)
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, wrapLine(l, width)...)
	}
	return strings.Join(out, "\n")
}

func wrapLine(l string, width int) []string {
	if ansi.StringWidth(l) <= width {
		return []string{l}
	}
	body := strings.TrimLeft(l, " ")
	pre := l[:len(l)-len(body)]
	if 2*len(pre) > width { // an indent that leaves little room is not kept
		pre, body = "", l
	}
	room := width - len(pre)
	var out []string
	cur, curW := "", 0
	flush := func() {
		out = append(out, pre+cur)
		cur, curW = "", 0
	}
	for _, word := range strings.Fields(body) {
		ww := ansi.StringWidth(word)
		switch {
		case curW > 0 && curW+1+ww <= room:
			cur, curW = cur+" "+word, curW+1+ww
			continue
		case curW > 0:
			flush()
		}
		for ww > room { // wider than a line: cut, after a / in its second half when it holds one (a path)
			cut := room
			if head := ansi.Strip(ansi.Truncate(word, room, "")); len(head) == ansi.StringWidth(head) {
				if i := strings.LastIndexByte(head, '/'); i >= room/2 && i+1 < len(head) {
					cut = i + 1
				}
			}
			out = append(out, pre+ansi.Truncate(word, cut, ""))
			word = ansi.TruncateLeft(word, cut, "")
			ww = ansi.StringWidth(word)
		}
		cur, curW = word, ww
	}
	if curW > 0 || len(out) == 0 {
		flush()
	}
	return out
}

// MoreBelow says that a page goes on below the screen (issue 35,
// item 7: at 60x20 a page was cut with nothing to say so).
const MoreBelow = "more below ↓"
