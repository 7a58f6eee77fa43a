// Package common holds the context every screen of the terminal UI shares:
// the window size, the styles and the key map.
package common

import (
	"github.com/openwop/wopkit/internal/tui/keymap"
	"github.com/openwop/wopkit/internal/tui/styles"
)

// Default window size, used until the terminal reports one and whenever it
// reports 0x0 (no terminal).
const (
	DefaultWidth  = 80
	DefaultHeight = 24
	MinWidth      = 40
	MinHeight     = 10
)

// Context is shared by the router and every screen.
type Context struct {
	Width, Height int
	Styles        styles.Styles
	Keys          keymap.KeyMap
}

// New returns a context at the default size.
func New(plain bool) *Context {
	return &Context{Width: DefaultWidth, Height: DefaultHeight, Styles: styles.New(plain), Keys: keymap.Default()}
}

// Resize records a new window size, clamped so that a 0x0 report (no
// terminal) or a tiny window never yields negative layout sizes.
func (c *Context) Resize(w, h int) {
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	c.Width, c.Height = max(w, MinWidth), max(h, MinHeight)
}
