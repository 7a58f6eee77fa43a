package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/common"
)

// wizard is the `wopkit new` screen: a sequence of huh forms bound to one
// answers value, a review of the planned files and their problems, then
// writing, packing and signing through the domain packages.
type wizard struct {
	ctx    *common.Context
	k      asker
	a      *answers
	opts   NewOptions
	step   step
	form   *huh.Form
	idx    int  // the node or agent the node, agent and eval steps ask about
	more   bool // the agent being asked wants another after its eval suite
	prev   []at // steps completed, for going back
	rev    review
	busy   string   // what is running, shown instead of the form
	done   []string // the summary lines
	err    string   // the last failure, shown on the review or summary
	jumpTo step     // set when a review problem sends the author back
	// live is the check of the focused input on what is typed so far;
	// liveSeq numbers the checks so that a late answer is dropped.
	live    string
	liveSeq int
}

// liveCheckMsg is the check of the focused input's current text.
type liveCheckMsg struct {
	seq int
	err error
}

// liveCheck checks the focused input's text in a command (off the render
// path), as the author types.
func (w *wizard) liveCheck() tea.Cmd {
	w.liveSeq++
	w.live = ""
	in, ok := w.form.GetFocusedField().(*huh.Input)
	if !ok {
		return nil
	}
	check := w.k.live[in]
	if check == nil {
		return nil
	}
	seq, text := w.liveSeq, in.GetValue().(string)
	return func() tea.Msg { return liveCheckMsg{seq: seq, err: check(text)} }
}

func newWizard(ctx *common.Context, k asker, a *answers, opts NewOptions) *wizard {
	if k.live == nil {
		k.live = map[*huh.Input]func(string) error{}
	}
	w := &wizard{ctx: ctx, k: k, a: a, opts: opts, step: stepWhat}
	if opts.What != "" {
		a.What = opts.What
		w.step = w.next(stepWhat)
	}
	w.form = w.formFor(w.step)
	return w
}

// at is a step and the node or agent it is about.
type at struct {
	s step
	i int
}

// Init starts the first form.
func (w *wizard) Init() tea.Cmd { return w.startForm() }

// applies reports whether a step is part of this run.
func (w *wizard) applies(s step) bool {
	a := w.a
	switch s {
	case stepIdentity:
		return a.isPack()
	case stepRuntime, stepNode:
		return a.hasNodes()
	case stepAgent:
		return a.hasAgent()
	case stepTool:
		return a.hasTool()
	case stepSign:
		return a.isPack()
	}
	return true
}

// next is the first step after s that applies (the eval step is reached
// only through advance, per agent).
func (w *wizard) next(s step) step {
	for s++; s < stepDone && (!w.applies(s) || s == stepEval && w.a.What != whatSoloEval); s++ {
	}
	return s
}

// advance is the step after the current one has been answered: another
// node or agent when asked for, the agent's eval suite, or the next step.
// It adds the new node or agent to the answers and sets idx.
func (w *wizard) advance() step {
	a := w.a
	switch w.step {
	case stepNode:
		if a.More {
			a.More = false
			a.Nodes = append(a.Nodes, newNode(len(a.Nodes)))
			w.idx = len(a.Nodes) - 1
			return stepNode
		}
	case stepAgent:
		w.more, a.More = a.More, false
		if a.Agents[w.idx].WithEval {
			return stepEval
		}
		fallthrough
	case stepEval:
		if w.more {
			w.more = false
			a.Agents = append(a.Agents, newAgent(len(a.Agents)))
			w.idx = len(a.Agents) - 1
			return stepAgent
		}
	}
	w.idx = 0
	return w.next(w.step)
}

// formFor builds the form of a step (nil for steps that are not forms).
func (w *wizard) formFor(s step) *huh.Form {
	clear(w.k.live)
	w.live = ""
	var groups []*huh.Group
	switch s {
	case stepWhat:
		groups = []*huh.Group{whatGroup(w.a)}
	case stepIdentity:
		groups = identityGroups(w.k, w.a)
	case stepRuntime:
		groups = []*huh.Group{runtimeGroup(w.k, w.a)}
	case stepNode:
		groups = nodeGroups(w.k, w.a, w.a.Nodes[w.idx], w.idx)
	case stepAgent:
		w.a.soloDefaults()
		groups = agentGroups(w.k, w.a, w.a.Agents[w.idx], w.idx)
	case stepEval:
		w.a.soloDefaults()
		groups = evalGroups(w.k, w.a.Agents[w.idx])
		if w.a.What == whatSoloEval {
			groups = append([]*huh.Group{soloEvalGroup(w.k, w.a.Agents[w.idx])}, groups...)
		}
	case stepTool:
		groups = toolGroups(w.k, w.a)
	case stepSign:
		if w.a.KeyPath == "" {
			w.a.KeyPath = w.a.Org
		}
		if w.a.KeyID == "" {
			w.a.KeyID = w.a.Org + "-1"
		}
		groups = signGroups(w.k, w.a)
	default:
		return nil
	}
	theme := huh.ThemeFunc(huh.ThemeCharm)
	if w.ctx.Styles.Plain {
		theme = huh.ThemeFunc(huh.ThemeBase)
	}
	return huh.NewForm(groups...).WithTheme(theme).WithShowHelp(true)
}

// startForm initialises the current form at the current window size.
func (w *wizard) startForm() tea.Cmd {
	if w.form == nil {
		return nil
	}
	init := w.form.Init()
	m, cmd := w.form.Update(w.formSize())
	w.form = m.(*huh.Form)
	return tea.Batch(init, cmd)
}

func (w *wizard) formSize() tea.WindowSizeMsg {
	return tea.WindowSizeMsg{Width: w.ctx.Width, Height: max(w.ctx.Height-3, 5)}
}

// goTo moves to step s: a form, the review (which plans), or the end.
func (w *wizard) goTo(s step) tea.Cmd {
	if w.step < stepReview {
		w.prev = append(w.prev, at{w.step, w.idx})
	}
	w.step = s
	w.form = w.formFor(s)
	return w.enter(s)
}

// enter starts step s once it is current.
func (w *wizard) enter(s step) tea.Cmd {
	switch s {
	case stepReview:
		w.busy = "planning the files…"
		return planCmd(w.k.v, w.a)
	case stepDone:
		w.busy = "writing…"
		return runCmd(w.a, w.opts, w.rev.plan)
	}
	return w.startForm()
}

// Update routes keys and messages to the current step.
func (w *wizard) Update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if w.form != nil {
			m, cmd := w.form.Update(w.formSize())
			w.form = m.(*huh.Form)
			return w, cmd
		}
		return w, nil
	case planMsg:
		w.busy = ""
		w.rev.set(msg)
		return w, nil
	case runMsg:
		w.busy = ""
		w.done, w.err = msg.summary, ""
		if msg.err != nil {
			w.err = msg.err.Error()
		} else {
			removeDraft(w.opts.draftPath())
		}
		return w, nil
	case quitMsg:
		return w, tea.Quit
	case liveCheckMsg:
		if msg.seq == w.liveSeq && msg.err != nil {
			w.live = msg.err.Error()
		}
		return w, nil
	case tea.KeyPressMsg:
		if w.busy != "" {
			return w, nil
		}
		if w.step == stepDone {
			if key.Matches(msg, w.ctx.Keys.Quit) || msg.String() == "enter" {
				return w, tea.Quit
			}
			return w, nil
		}
		if key.Matches(msg, w.ctx.Keys.Cancel) && w.step != stepReview {
			return w, push(w.ConfirmQuit())
		}
		if msg.String() == "ctrl+b" && w.step != stepReview {
			return w, w.back()
		}
		if w.step == stepReview {
			return w, w.updateReview(msg)
		}
	}
	if w.form == nil {
		return w, nil
	}
	m, cmd := w.form.Update(msg)
	w.form = m.(*huh.Form)
	if _, isKey := msg.(tea.KeyPressMsg); isKey && w.form.State == huh.StateNormal {
		cmd = tea.Batch(cmd, w.liveCheck())
	}
	if w.form.State == huh.StateCompleted {
		cur := at{w.step, w.idx}
		next := w.advance()
		if w.jumpTo != 0 && next != stepNode && next != stepAgent && next != stepEval {
			next, w.jumpTo = stepReview, 0
		}
		if next == cur.s && w.idx == cur.i { // cannot happen; guard against a loop
			next = w.next(cur.s)
		}
		w.prev = append(w.prev, cur)
		w.step = next
		w.form = w.formFor(next)
		return w, tea.Batch(cmd, w.enter(next))
	}
	return w, cmd
}

// back returns to the previous step (its answers kept), if there is one.
func (w *wizard) back() tea.Cmd {
	n := len(w.prev)
	if n == 0 {
		return nil
	}
	b := w.prev[n-1]
	w.prev = w.prev[:n-1]
	w.step, w.idx = b.s, b.i
	w.form = w.formFor(b.s)
	return w.startForm()
}

// ConfirmQuit implements quitter: leaving before the end offers a draft.
func (w *wizard) ConfirmQuit() screen {
	if w.step == stepDone {
		return nil
	}
	path := w.opts.draftPath()
	return newConfirm(w.ctx, "Keep a draft of your answers? `wopkit new` offers it next time in this directory.",
		func() tea.Msg {
			if err := saveDraft(path, w.a); err != nil {
				return runMsg{err: err}
			}
			return quitMsg{}
		},
		func() tea.Msg { return quitMsg{} })
}

// planned is what the review shows: the pack plan (with the tool manifest
// folded in) or the problems that stop it.
type planned struct {
	plan     *scaffold.Plan
	manifest string // the main file, for display
	problems []scaffold.FieldError
	err      error
}
