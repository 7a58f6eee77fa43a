package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/openwop/wopkit/internal/tui/widgets"
)

// View draws the header, then the form, the review, or the summary.
func (w *wizard) View() string {
	st := w.ctx.Styles
	header := st.Title.Render("wopkit new") + " · " + stepTitles[w.step]
	if w.a.isPack() && w.step > stepWhat {
		header += " · " + w.a.name()
	}
	body := ""
	switch {
	case w.busy != "":
		body = w.busy
	case w.step == stepReview:
		body = w.rev.view(w.ctx, w.ctx.Width, w.ctx.Height-3)
	case w.step == stepDone:
		body = w.summaryView()
	case w.form != nil:
		body = w.form.View()
		if w.live != "" {
			body = st.Error.Render(widgets.Wrap("✗ "+w.live, w.ctx.Width-2)) + "\n" + body
		}
	}
	return widgets.Fit(header, w.ctx.Width, 1) + "\n\n" + body
}

var stepTitles = map[step]string{
	stepWhat: "what to create", stepIdentity: "identity", stepRuntime: "runtime", stepNode: "node",
	stepAgent: "agent", stepEval: "eval suite", stepTool: "tool manifest", stepReview: "review",
	stepSign: "pack and sign", stepDone: "summary",
}

func (w *wizard) summaryView() string {
	st := w.ctx.Styles
	out := ""
	if w.err != "" {
		out = st.Error.Render(widgets.Wrap("failed: "+w.err, w.ctx.Width-2)) + "\n\n"
	}
	for _, l := range w.done {
		out += widgets.Wrap(l, w.ctx.Width-2) + "\n"
	}
	return out
}

// Help lists the wizard's keys for the current step.
func (w *wizard) Help() []key.Binding {
	k := w.ctx.Keys
	switch w.step {
	case stepReview:
		return w.rev.help(k)
	case stepDone:
		return []key.Binding{k.Quit}
	}
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next")),
		key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "back")),
		key.NewBinding(key.WithKeys("ctrl+b"), key.WithHelp("^b", "previous page")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "quit (keeps a draft)")),
	}
}
