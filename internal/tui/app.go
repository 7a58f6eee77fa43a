// Package tui is wopkit's terminal UI: a router that shows one screen at a
// time (the manifest editor, the new-pack wizard, dialogs) over a shared
// context. It holds no rule of its own: checks come from internal/validate,
// edits from internal/jsonedit, files from internal/scaffold and packing
// from internal/pack, always called inside tea.Cmd functions.
package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/widgets"
)

// screen is one page of the UI. Update returns the screen to keep showing
// (usually itself); View draws the body without the help line, which the
// router adds from Help.
type screen interface {
	Init() tea.Cmd
	Update(tea.Msg) (screen, tea.Cmd)
	View() string
	Help() []key.Binding
}

// quitter is a screen that wants to be asked before the program quits
// (it has unsaved changes); ConfirmQuit returns the dialog to show, or nil
// to quit at once.
type quitter interface {
	ConfirmQuit() screen
}

// pushMsg shows a screen over the current one; popMsg returns to the one
// below and then runs its command there.
type (
	pushMsg struct{ s screen }
	popMsg  struct{ then tea.Cmd }
)

func push(s screen) tea.Cmd { return func() tea.Msg { return pushMsg{s} } }

// popThen closes the current screen, then runs cmd for the screen below.
func popThen(cmd tea.Cmd) tea.Cmd { return func() tea.Msg { return popMsg{cmd} } }

// app is the root model: the screen stack, global keys and the shared context.
type app struct {
	ctx   *common.Context
	stack []screen
}

func newApp(ctx *common.Context, first screen) *app {
	return &app{ctx: ctx, stack: []screen{first}}
}

func (a *app) top() screen { return a.stack[len(a.stack)-1] }

// Init implements tea.Model.
func (a *app) Init() tea.Cmd { return a.top().Init() }

// Update implements tea.Model: global keys first, then the current screen.
func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.ctx.Resize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		if key.Matches(msg, a.ctx.Keys.ForceQuit) {
			if c, isDialog := a.top().(*confirm); isDialog {
				if c.onForce != nil { // a second ctrl+c: what the dialog keeps, then quit
					return a, popThen(c.onForce)
				}
				return a, tea.Quit
			}
			if q, ok := a.top().(quitter); ok {
				if d := q.ConfirmQuit(); d != nil {
					a.stack = append(a.stack, d)
					return a, d.Init()
				}
			}
			return a, tea.Quit
		}
	case pushMsg:
		a.stack = append(a.stack, msg.s)
		return a, msg.s.Init()
	case popMsg:
		if len(a.stack) > 1 {
			a.stack = a.stack[:len(a.stack)-1]
		}
		return a, msg.then
	}
	s, cmd := a.top().Update(msg)
	a.stack[len(a.stack)-1] = s
	return a, cmd
}

// View implements tea.Model: the current screen above its key help.
func (a *app) View() tea.View {
	v := tea.NewView(a.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion // optional: clicks and the wheel in the editor
	return v
}

func (a *app) render() string {
	s := a.top()
	body := widgets.Fit(s.View(), a.ctx.Width, a.ctx.Height-1)
	return lipgloss.JoinVertical(lipgloss.Left, body,
		widgets.HelpLine(a.ctx.Styles, a.ctx.Width, s.Help()...))
}
