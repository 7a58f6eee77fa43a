// Package widgets holds the pieces several screens draw: the key help line,
// the problem list and the yes/no dialog.
package widgets

import (
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

// Wrap wraps plain text to width.
func Wrap(s string, width int) string {
	if width < 1 {
		width = 1
	}
	return ansi.Wrap(s, width, " ")
}
