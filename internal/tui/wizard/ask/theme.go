package ask

import (
	"sync"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// plainTheme is huh's base theme for NO_COLOR: the focused button and the
// chosen option are marked with characters, not colours.
func plainTheme(isDark bool) *huh.Styles {
	t := huh.ThemeBase(isDark)
	button := lipgloss.NewStyle().Padding(0, 1).MarginRight(1)
	on := button.Transform(func(s string) string { return "[" + s + "]" })
	off := button.Transform(func(s string) string { return " " + s + " " })
	for _, fs := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		fs.FocusedButton, fs.BlurredButton, fs.Next = on, off, on
	}
	return t
}

// cachedTheme builds a huh theme once for each background: huh asks its
// theme for the styles on every option it draws, and building them is what
// made moving through the license list slow.
type cachedTheme struct {
	dark, light func() *huh.Styles
}

func newCachedTheme(f func(isDark bool) *huh.Styles) cachedTheme {
	return cachedTheme{
		dark:  sync.OnceValue(func() *huh.Styles { return f(true) }),
		light: sync.OnceValue(func() *huh.Styles { return f(false) }),
	}
}

// Theme implements huh.Theme.
func (c cachedTheme) Theme(isDark bool) *huh.Styles {
	if isDark {
		return c.dark()
	}
	return c.light()
}

var (
	CharmTheme = newCachedTheme(huh.ThemeCharm)
	PlainTheme = newCachedTheme(plainTheme)
)
