package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/widgets"
)

// confirm is a yes/no dialog. Its answer is the command it runs: onYes or
// onNo; esc closes it and returns to the screen below.
type Confirm struct {
	ctx             *common.Context
	question        string
	onYes, OnNo     tea.Cmd
	yesText, noText string
	// OnForce is what a second ctrl+c does (nil: quit as it is); the
	// wizard's keeps the draft, so that two ctrl+c never lose the answers.
	OnForce   tea.Cmd
	ForceText string
}

func NewConfirm(ctx *common.Context, question string, onYes, onNo tea.Cmd) *Confirm {
	return &Confirm{ctx: ctx, question: question, onYes: onYes, OnNo: onNo, yesText: "yes", noText: "no"}
}

func (c *Confirm) Init() tea.Cmd { return nil }

func (c *Confirm) Update(msg tea.Msg) (Screen, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil
	}
	switch {
	case key.Matches(k, c.ctx.Keys.Yes):
		return c, PopThen(c.onYes)
	case key.Matches(k, c.ctx.Keys.No):
		return c, PopThen(c.OnNo)
	case key.Matches(k, c.ctx.Keys.Cancel):
		return c, PopThen(nil)
	}
	return c, nil
}

func (c *Confirm) View() string {
	w := min(c.ctx.Width-4, 70)
	q := strings.ReplaceAll(widgets.Wrap(c.question, w), "\n", "\n  ")
	var keys []string
	for _, b := range c.Help() {
		keys = append(keys, b.Help().Key+" "+b.Help().Desc)
	}
	return "\n\n  " + c.ctx.Styles.Title.Render(q) + "\n\n  " + strings.Join(keys, " · ")
}

// Help is the dialog's keys; its footer lists the same words.
func (c *Confirm) Help() []key.Binding {
	k := c.ctx.Keys
	out := []key.Binding{
		key.NewBinding(key.WithKeys(k.Yes.Keys()...), key.WithHelp(k.Yes.Help().Key, c.yesText)),
		key.NewBinding(key.WithKeys(k.No.Keys()...), key.WithHelp(k.No.Help().Key, c.noText)),
		key.NewBinding(key.WithKeys(k.Cancel.Keys()...), key.WithHelp(k.Cancel.Help().Key, "go back")),
	}
	if c.OnForce != nil {
		out = append(out, key.NewBinding(key.WithKeys(k.ForceQuit.Keys()...), key.WithHelp(k.ForceQuit.Help().Key, c.ForceText)))
	}
	return out
}
