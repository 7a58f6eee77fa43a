// Package styles holds the one Styles struct every wopkit screen draws with,
// in a colour and a plain (NO_COLOR) variant.
package styles

import (
	"image/color"
	"os"

	"charm.land/lipgloss/v2"
)

// Styles is every look the terminal UI uses. The plain variant carries no
// colour at all; screens never rely on colour alone (the selected row has a
// marker, errors a word), so the UI reads the same without it.
type Styles struct {
	Plain    bool           // true when colour is off (NO_COLOR or a test)
	Title    lipgloss.Style // the header line
	Dim      lipgloss.Style // secondary text: previews, hints
	Selected lipgloss.Style // the row under the cursor
	Key      lipgloss.Style // object keys in the tree
	Error    lipgloss.Style // error problems
	Warning  lipgloss.Style // warning problems
	OK       lipgloss.Style // good news: saved, valid
	Help     lipgloss.Style // the always-visible key help
	Pane     lipgloss.Style // the detail pane's frame
	Label    lipgloss.Style // labels in the detail pane
}

// NoColor reports whether the environment asks for no colour (NO_COLOR set
// to anything non-empty, https://no-color.org, or TERM=dumb).
func NoColor() bool {
	return os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb"
}

// New returns the colour styles, or the plain ones when plain is true.
func New(plain bool) Styles {
	if plain {
		return Styles{
			Plain:    true,
			Title:    lipgloss.NewStyle().Bold(true),
			Dim:      lipgloss.NewStyle(),
			Selected: lipgloss.NewStyle().Reverse(true),
			Key:      lipgloss.NewStyle(),
			Error:    lipgloss.NewStyle(),
			Warning:  lipgloss.NewStyle(),
			OK:       lipgloss.NewStyle(),
			Help:     lipgloss.NewStyle(),
			Pane:     lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).PaddingLeft(1),
			Label:    lipgloss.NewStyle().Bold(true),
		}
	}
	c := func(s string) color.Color { return lipgloss.Color(s) }
	return Styles{
		Title:    lipgloss.NewStyle().Bold(true).Foreground(c("#7D56F4")),
		Dim:      lipgloss.NewStyle().Foreground(c("245")),
		Selected: lipgloss.NewStyle().Bold(true).Foreground(c("#FFFFFF")).Background(c("#5A3FC0")),
		Key:      lipgloss.NewStyle().Foreground(c("#5FAFFF")),
		Error:    lipgloss.NewStyle().Foreground(c("#FF5F5F")),
		Warning:  lipgloss.NewStyle().Foreground(c("#FFAF00")),
		OK:       lipgloss.NewStyle().Foreground(c("#5FD787")),
		Help:     lipgloss.NewStyle().Foreground(c("241")),
		Pane:     lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(c("238")).PaddingLeft(1),
		Label:    lipgloss.NewStyle().Bold(true).Foreground(c("#AF87FF")),
	}
}
