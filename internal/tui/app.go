// Package tui is wopkit's terminal UI, and this package is what its two
// programs share: the router (App) that shows one screen at a time over a
// shared context, with global keys and a stack of dialogs; the yes/no dialog
// (Confirm); and Run, which drives a program on the terminal. The programs
// are subpackages:
//
//   - wizard: `wopkit new`, the pages asking a new pack's answers, the review,
//     writing, packing and signing, and accessible mode (plain prompts);
//   - editor: `wopkit edit`, the manifest editor;
//
// and what every screen uses is in common (the shared context), styles,
// keymap and widgets; tuitest drives screens headlessly for tests. The UI
// holds no rule of its own: checks come from internal/validate, edits from
// internal/jsonedit, files from internal/scaffold and packing from
// internal/pack, always called inside tea.Cmd functions.
package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/widgets"
)

// Screen is one page of the UI. Update returns the Screen to keep showing
// (usually itself); View draws the body without the help line, which the
// router adds from Help.
type Screen interface {
	Init() tea.Cmd
	Update(tea.Msg) (Screen, tea.Cmd)
	View() string
	Help() []key.Binding
}

// Quitter is a screen that wants to be asked before the program quits
// (it has unsaved changes); ConfirmQuit returns the dialog to show, or nil
// to quit at once.
type Quitter interface {
	ConfirmQuit() Screen
}

// pushMsg shows a screen over the current one; popMsg returns to the one
// below and then runs its command there.
type (
	pushMsg struct{ s Screen }
	popMsg  struct{ then tea.Cmd }
)

// QuitMsg ends the program: the screen that gets it (the editor, the
// wizard) answers tea.Quit after what it must do first.
type QuitMsg struct{}

func Push(s Screen) tea.Cmd { return func() tea.Msg { return pushMsg{s} } }

// PopThen closes the current screen, then runs cmd for the screen below.
func PopThen(cmd tea.Cmd) tea.Cmd { return func() tea.Msg { return popMsg{cmd} } }

// app is the root model: the screen stack, global keys and the shared context.
type App struct {
	ctx   *common.Context
	stack []Screen
}

func NewApp(ctx *common.Context, first Screen) *App {
	return &App{ctx: ctx, stack: []Screen{first}}
}

func (a *App) Top() Screen { return a.stack[len(a.stack)-1] }

// Init implements tea.Model.
func (a *App) Init() tea.Cmd { return a.Top().Init() }

// Update implements tea.Model: global keys first, then the current screen.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.ctx.Resize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		if key.Matches(msg, a.ctx.Keys.ForceQuit) {
			if c, isDialog := a.Top().(*Confirm); isDialog {
				if c.OnForce != nil { // a second ctrl+c: what the dialog keeps, then quit
					return a, PopThen(c.OnForce)
				}
				return a, tea.Quit
			}
			if q, ok := a.Top().(Quitter); ok {
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
	s, cmd := a.Top().Update(msg)
	a.stack[len(a.stack)-1] = s
	return a, cmd
}

// View implements tea.Model: the current screen above its key help.
func (a *App) View() tea.View {
	v := tea.NewView(a.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion // optional: clicks and the wheel in the editor
	return v
}

func (a *App) Render() string {
	s := a.Top()
	body := widgets.Fit(s.View(), a.ctx.Width, a.ctx.Height-1)
	return lipgloss.JoinVertical(lipgloss.Left, body,
		widgets.HelpLine(a.ctx.Styles, a.ctx.Width, s.Help()...))
}
