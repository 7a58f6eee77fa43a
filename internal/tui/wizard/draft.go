package wizard

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// draftOffer is the first screen when a draft was kept: resume it, or
// start again from the defaults. It replaces itself with the wizard.
type draftOffer struct {
	ctx   *common.Context
	k     ask.Asker
	fresh *answers
	draft *answers
	opts  session
}

func newDraftOffer(ctx *common.Context, k ask.Asker, fresh, draft *answers, opts session) *draftOffer {
	return &draftOffer{ctx: ctx, k: k, fresh: fresh, draft: draft, opts: opts}
}

func (d *draftOffer) Init() tea.Cmd { return nil }

func (d *draftOffer) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	var a *answers
	switch {
	case key.Matches(k, d.ctx.Keys.Yes):
		a = d.draft
	case key.Matches(k, d.ctx.Keys.No):
		a = d.fresh
		d.opts.removeDrafts(d.opts.draftDirs(d.draft))
	default:
		return d, nil
	}
	w := newWizard(d.ctx, d.k, a, d.opts)
	return w, w.Init()
}

func (d *draftOffer) View() string {
	name := d.draft.What
	if d.draft.isPack() {
		name = d.draft.name()
	}
	return d.ctx.Styles.Title.Render("wopkit new") + "\n\n  " +
		widgets.Wrap("A draft from an earlier run is here ("+name+"). Resume it?", d.ctx.Width-4) +
		"\n\n  y resume · n start again (drops the draft)"
}

func (d *draftOffer) Help() []key.Binding { return []key.Binding{d.ctx.Keys.Yes, d.ctx.Keys.No} }
