// Package keymap holds the one KeyMap struct of the terminal UI: every key a
// screen reacts to, with the help text shown in the always-visible help line.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is every binding of the terminal UI.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Expand, Collapse                        key.Binding // open / close an object or array
	Edit                                    key.Binding // edit the selected value
	External                                key.Binding // edit the selected string in $EDITOR
	Add, Remove                             key.Binding // add a member or item, remove one
	Undo, Redo                              key.Binding
	Whole                                   key.Binding // show the selected problem whole
	Save                                    key.Binding
	Search                                  key.Binding // find a field by name or pointer
	Problems                                key.Binding // move focus between the tree and the problem list
	Test                                    key.Binding // run the focused node's stored cases (wopkit test)
	Accept, Cancel                          key.Binding // inside a prompt
	Complete                                key.Binding // complete an enum value
	Quit                                    key.Binding
	ForceQuit                               key.Binding
	Yes, No                                 key.Binding // answers in a yes/no dialog
	Expansion                               key.Binding // a chain pack's chain expanded with its default parameters
}

// Default returns the standard bindings.
func Default() KeyMap {
	b := func(keys []string, k, help string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, help))
	}
	return KeyMap{
		Up:        b([]string{"up", "k"}, "↑↓", "move"),
		Down:      b([]string{"down", "j"}, "", ""),
		PageUp:    b([]string{"pgup"}, "pgup", "page up"),
		PageDown:  b([]string{"pgdown"}, "pgdn", "page down"),
		Top:       b([]string{"home", "g"}, "g", "top"),
		Bottom:    b([]string{"end", "G"}, "G", "bottom"),
		Expand:    b([]string{"right", "l"}, "→←", "open"),
		Collapse:  b([]string{"left", "h"}, "←", "close"),
		Edit:      b([]string{"enter", "e"}, "enter", "edit"),
		External:  b([]string{"E", "ctrl+e"}, "E", "$EDITOR"),
		Add:       b([]string{"a", "+"}, "a", "add"),
		Remove:    b([]string{"d", "delete"}, "d", "del"),
		Undo:      b([]string{"u", "ctrl+z"}, "u", "undo"),
		Redo:      b([]string{"U", "ctrl+y"}, "U", "redo"),
		Whole:     b([]string{"v", "space"}, "v", "read whole"),
		Save:      b([]string{"ctrl+s", "w"}, "^s", "save"),
		Search:    b([]string{"/"}, "/", "find"),
		Problems:  b([]string{"tab"}, "tab", "problems"),
		Test:      b([]string{"t"}, "t", "test node"),
		Accept:    b([]string{"enter"}, "enter", "accept"),
		Cancel:    b([]string{"esc"}, "esc", "cancel"),
		Complete:  b([]string{"tab"}, "tab", "complete"),
		Quit:      b([]string{"q", "esc"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Yes:       b([]string{"y", "Y"}, "y", "yes"),
		No:        b([]string{"n", "N"}, "n", "no"),
		Expansion: b([]string{"x"}, "x", "expansion"),
	}
}
