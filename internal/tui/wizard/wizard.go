package wizard

import (
	"encoding/json"
	"os"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
	"github.com/openwop/wopkit/internal/tui/wizard/keys"
	"github.com/openwop/wopkit/internal/tui/wizard/review"
)

// wizard is the `wopkit new` screen: the pages (see pages.go) bound to one
// answers value, the review of the planned files with everything that can
// fail checked, then writing, packing and signing, all or nothing.
type wizard struct {
	ctx  *common.Context
	k    ask.Asker
	a    *answers
	opts session
	out  *outcome
	// built keeps the labels of the pages built apart to label a review
	// (nil: none kept; see titlesOf).
	built map[pos]ask.FieldLabels

	at    pos       // the current page
	form  *huh.Form // its fields (nil on the review)
	first huh.Field // the page's first field: shift+tab there goes back a page

	choice string // a list page's choice
	fixing bool   // the page was opened from a review problem: back to the review after it

	rev      review.Review
	busy     string // what is running, shown instead of the form
	finished bool   // the summary is shown
	cases    string // the new pack's folder while its stored cases can be run (t)
	// caseLines are the stored cases' result, once run.
	caseLines []string
	done      []string // the summary lines
	err       string   // the last failure
	notice    string   // a note above the form (a key that cannot work here)
	fixNote   string   // the review problem the page was opened to fix, until it is left or fixed
	fixKey    string   // the key of the field fixNote is about
	start     string   // a fresh start's answers (fingerprint; "" for a draft or given answers): leaving them so keeps no draft
	// filtering is set while the license list is being searched (esc then
	// stops the search, not the wizard).
	filtering bool
	// live is the check of the focused input on what is typed so far;
	// liveSeq numbers the checks so that a late answer is dropped.
	live    string
	liveSeq int
	// warn is the problem the whole answers have at the field with
	// warnKey, said as that field was left (see crossCheck).
	warn, warnKey string
	// undo is the entry a list page removed last, offered back once.
	undo *removed
	// hidden are the conditions of the groups shown only sometimes (see hideWhen).
	hidden map[*huh.Group]func() bool
	// syncs copy answers held in plain values back into the answers.
	syncs []func()
	// groups are the current page's groups (see moreBelow).
	groups []*huh.Group
	// more is moreBelow's last answer about the page's group.
	more struct {
		at    moreAt
		below bool
	}
	// formSized is the size the form was last given (see fitForm).
	formSized tea.WindowSizeMsg
	// builtCols is the width the form was built at: its text is wrapped to
	// it (asker.fit), and it is built again at another.
	builtCols int
}

// outcome is what the wizard reports once the program ends: a failure
// (the exit status) and notes printed after the screen closes.
type outcome struct {
	ok    bool
	err   error
	notes []string
	// summary is what a finished run wrote and what to do next, printed
	// to standard output once the full screen closes (the screen's own
	// summary goes with it).
	summary []string
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
	f := w.form.GetFocusedField()
	check := w.k.Live[f]
	if check == nil {
		return nil
	}
	seq, text := w.liveSeq, f.GetValue().(string)
	return func() tea.Msg { return liveCheckMsg{seq: seq, err: check(text)} }
}

func newWizard(ctx *common.Context, k ask.Asker, a *answers, opts session) *wizard {
	if k.Live == nil {
		k.Live = map[huh.Field]func(string) error{}
	}
	if k.Titles == nil {
		k.Titles = map[huh.Field]string{}
	}
	if k.Suggest == nil {
		k.Suggest = map[huh.Field]ask.Shown{}
	}
	if k.Ends == nil {
		k.Ends = map[huh.Field]string{}
	}
	k.Plain = ctx.Styles.Plain
	k.Rows = func() int { return max(ctx.Height-4, 5) } // formSize's height
	k.Cols = func() int { return ctx.Width }
	out := opts.out
	if out == nil {
		out = &outcome{}
	}
	if opts.pass == nil {
		opts.pass = &keys.Pass{}
	}
	// a fresh start (no draft, nothing given on the command line): leaving
	// it before answering anything keeps no draft and asks nothing
	fresh := newAnswers()
	if opts.What != "" {
		fresh.What = opts.What
	}
	pristine := a.fingerprint() == fresh.fingerprint()
	w := &wizard{ctx: ctx, k: k, a: a, opts: opts, out: out, hidden: map[*huh.Group]func() bool{}}
	w.k.Cross = w.crossCheck
	w.k.Spec = func() kinds.Spec { return packSpec(w.a) } // a pack's fields are checked as the review checks the pack
	ws := walk(a)
	w.at = ws[0]
	if opts.What != "" {
		a.What = opts.What
		ws = walk(a)
		w.at = ws[1]
	}
	if p := pageByID(a.Page); p != nil { // a resumed draft: the page it was left on
		if n := indexOf(ws, pos{pg: p, i: a.Entry, j: a.Sub}); n >= 0 {
			w.at = ws[n]
		}
	}
	if w.at.pg.groups != nil {
		w.form = w.build(w.at)
	}
	if pristine {
		w.start = a.fingerprint()
	}
	return w
}

// Init starts the first page.
func (w *wizard) Init() tea.Cmd {
	if w.at.pg.groups == nil {
		return w.move(w.at)
	}
	return w.startForm()
}

// next is the page after at (the review when at is not in the walk).
func (w *wizard) next(at pos) pos {
	ws := walk(w.a)
	if n := indexOf(ws, at); n >= 0 && n+1 < len(ws) {
		return ws[n+1]
	}
	return w.reviewPos()
}

// prev is the page before at, and whether there is one.
func (w *wizard) prev(at pos) (pos, bool) {
	ws := walk(w.a)
	if n := indexOf(ws, at); n > 0 {
		return ws[n-1], true
	}
	return at, false
}

func (w *wizard) reviewPos() pos {
	ws := walk(w.a)
	return ws[len(ws)-1]
}

// forward is where the wizard goes once the current page is answered: a
// list page's choice, the review after a fix, or the next page.
func (w *wizard) forward() pos {
	at := w.at
	if at.pg.list != nil {
		if to, ok := w.listNext(at); ok {
			return to
		}
	}
	if w.fixing && at.pg.list == nil {
		w.fixing = false
		return w.reviewPos()
	}
	return w.next(at)
}

// move makes to the current page: builds its fields, or, for the review,
// plans the files and checks everything that can fail.
func (w *wizard) move(to pos) tea.Cmd {
	w.at = to
	w.a.Page, w.a.Entry, w.a.Sub = to.pg.id, to.i, to.j
	w.live, w.notice, w.fixNote, w.filtering, w.warn, w.warnKey = "", "", "", false, "", ""
	if to.pg.groups == nil {
		w.form = nil
		w.busy = "checking the files…"
		return w.reviewCmd()
	}
	w.form = w.build(to)
	return w.startForm()
}

// build makes the form of a page.
func (w *wizard) build(at pos) *huh.Form {
	clear(w.k.Live)
	clear(w.k.Suggest)
	clear(w.k.Ends)
	clear(w.hidden)
	w.syncs = nil
	w.live = ""
	w.builtCols = w.ctx.Width
	theme := ask.CharmTheme
	if w.ctx.Styles.Plain {
		theme = ask.PlainTheme
	}
	// The help line names every key; a refusal is shown once, above the
	// field (View), not again in the form's footer.
	w.groups = at.pg.groups(w, at)
	return huh.NewForm(w.groups...).WithTheme(theme).WithShowHelp(false).WithShowErrors(false)
}

// hideWhen shows a group only while hide is false (accessible mode asks
// group by group and skips it too).
func (w *wizard) hideWhen(g *huh.Group, hide func() bool) *huh.Group {
	w.hidden[g] = hide
	return g.WithHideFunc(hide)
}

// onSync adds a copy from a plain value the page's fields are bound to
// back into the answers.
func (w *wizard) onSync(f func()) { w.syncs = append(w.syncs, f) }

// sync runs the page's copies from the plain values its fields are bound
// to (a choice and its "other" field) into the answers.
func (w *wizard) sync() {
	for _, f := range w.syncs {
		f()
	}
}

// startForm initialises the current form at the current window size.
func (w *wizard) startForm() tea.Cmd {
	if w.form == nil {
		return nil
	}
	init := w.form.Init()
	w.formSized = w.formSize()
	m, cmd := w.form.Update(w.formSized)
	w.form = m.(*huh.Form)
	w.first = w.form.GetFocusedField()
	return tea.Batch(init, cmd)
}

func (w *wizard) formSize() tea.WindowSizeMsg {
	notes := 0
	if n := w.notes(); n != "" {
		notes = strings.Count(n, "\n") + 1
	}
	return tea.WindowSizeMsg{Width: w.ctx.Width, Height: max(w.ctx.Height-4-w.fixRows()-notes, 3)}
}

// fitForm gives the form the rows the notes above it leave, when they
// changed since it was last sized.
func (w *wizard) fitForm() tea.Cmd {
	if w.form == nil {
		return nil
	}
	size := w.formSize()
	if size == w.formSized {
		return nil
	}
	w.formSized = size
	m, cmd := w.form.Update(size)
	w.form = m.(*huh.Form)
	return cmd
}

// fixRows is the height of the problem a page opened by "fix it" shows
// above its form (at most fixNoteRows lines: the review shows it whole).
func (w *wizard) fixRows() int {
	if w.fixNote == "" {
		return 0
	}
	return strings.Count(w.fixView(), "\n") + 1
}

const fixNoteRows = 2

// fixView is the problem a page opened by "fix it" shows.
func (w *wizard) fixView() string {
	lines := strings.Split(widgets.Wrap("✗ "+w.fixNote, w.ctx.Width-2), "\n")
	if len(lines) > fixNoteRows {
		lines = lines[:fixNoteRows]
		lines[fixNoteRows-1] = ansi.Truncate(lines[fixNoteRows-1], w.ctx.Width-4, "") + " …"
	}
	return strings.Join(lines, "\n")
}

// back goes to the page before the current one (its answers kept).
func (w *wizard) back() tea.Cmd {
	to, ok := w.prev(w.at)
	if !ok {
		return nil
	}
	w.fixing = false
	return w.move(to)
}

// Update routes keys and messages to the current page.
func (w *wizard) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	s, cmd := w.update(msg)
	return s, tea.Batch(cmd, w.fitForm()) // the notes above the form may have changed
}

func (w *wizard) update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if w.form != nil && w.builtCols != w.ctx.Width { // its text wrapped again, the focus kept
			key := ""
			if f := w.form.GetFocusedField(); f != nil {
				key = f.GetKey()
			}
			w.form = w.build(w.at)
			cmd := w.startForm()
			if key != "" {
				ask.FocusKey(w.form, key)
			}
			return w, cmd
		}
		if w.form != nil {
			w.formSized = w.formSize()
			m, cmd := w.form.Update(w.formSized)
			w.form = m.(*huh.Form)
			return w, cmd
		}
		return w, nil
	case labeledMsg:
		w.busy = ""
		w.setReview(msg.planMsg, msg.labels...)
		return w, nil
	case planMsg:
		w.busy = ""
		w.setReview(msg)
		return w, nil
	case replaceMsg:
		w.opts.Force = true
		return w.update(msg.Msg)
	case casesMsg:
		w.busy, w.cases = "", ""
		w.caseLines = []string{"The stored cases (wopkit test runs them again):"}
		for _, l := range msg.lines {
			w.caseLines = append(w.caseLines, "  "+termsafe.String(l))
		}
		// shown first: a short screen cuts the summary's end
		w.out.summary = append(append(w.out.summary, ""), w.caseLines...)
		return w, nil
	case runMsg:
		return w, w.ran(msg)
	case tui.QuitMsg:
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
		if w.finished {
			if key.Matches(msg, w.ctx.Keys.Quit) || msg.String() == "enter" {
				return w, tea.Quit
			}
			if msg.String() == "t" && w.cases != "" {
				w.busy = "running the new pack's stored cases…"
				return w, runCases(w.cases)
			}
			return w, nil
		}
		if w.form == nil {
			return w, w.updateReview(msg)
		}
		if cmd, done := w.pageKey(msg); done {
			return w, cmd
		}
	}
	if w.form == nil {
		return w, nil
	}
	msg = ask.EditorValue(msg)
	m, cmd := w.form.Update(msg)
	w.form = m.(*huh.Form)
	return w, w.afterForm(msg, cmd)
}

// afterForm follows a form update: the name, the live check, and the next
// page once the form is complete.
func (w *wizard) afterForm(msg tea.Msg, cmd tea.Cmd) tea.Cmd {
	w.sync()
	if _, isKey := msg.(tea.KeyPressMsg); isKey && w.form.State == huh.StateNormal {
		cmd = tea.Batch(cmd, w.liveCheck())
	}
	if w.form.State == huh.StateCompleted {
		return tea.Batch(cmd, w.move(w.forward()))
	}
	return cmd
}

// pageKey handles the keys the wizard owns on a page; done is false for
// keys the form handles.
func (w *wizard) pageKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	focused := w.form.GetFocusedField()
	w.notice = ""
	switch s := k.String(); {
	case w.filtering && (s == "esc" || s == "enter"):
		w.filtering = false
		return nil, false
	case w.filtering:
		return nil, false
	case s == "/" && focused != nil && focused.GetKey() == "license":
		w.filtering = true
		return nil, false
	case key.Matches(k, w.ctx.Keys.Cancel):
		if d := w.ConfirmQuit(); d != nil {
			return tui.Push(d), true
		}
		return tea.Quit, true
	case s == "ctrl+b":
		return w.back(), true
	case s == "shift+tab" && focused == w.first:
		return w.backToLast(), true
	case s == "ctrl+e":
		if _, isText := focused.(*huh.Text); isText && os.Getenv("EDITOR") == "" && os.Getenv("VISUAL") == "" {
			w.notice = "ctrl+e opens your editor, but $EDITOR is not set: set it (e.g. EDITOR=nano) and start again, or type here"
			return nil, true
		}
	case (s == "left" || s == "right") && ask.OnSide(focused, s):
		// ← is the left option (Yes), → the right one (No): huh's confirm
		// flips on either, so the key that names the side already chosen
		// is kept from it.
		return nil, true
	case s == "enter":
		if w.warn != "" {
			w.recheckWarn()
		}
		if w.fixNote != "" && focused.GetKey() == w.fixKey && w.crossProblem(w.fixKey) == "" {
			w.fixNote = "" // fixed: the problem is no longer said above the form
		}
		return w.enter(focused, k)
	case s == "right" && w.suggestion(focused) != "":
		return w.takeSuggestion(focused), true
	}
	return nil, false
}

// suggestion is the suggestion an empty text field offers ("" when it is
// not empty or offers none).
func (w *wizard) suggestion(f huh.Field) string {
	sh, ok := w.k.Suggest[f]
	if !ok {
		return ""
	}
	return sh.Offered()
}

// takeSuggestion puts the suggestion into the focused field, to be
// edited rather than replaced (→ on an empty field; the key help says so).
func (w *wizard) takeSuggestion(f huh.Field) tea.Cmd {
	m, cmd := w.form.Update(tea.PasteMsg{Content: w.suggestion(f)})
	w.form = m.(*huh.Form)
	return w.afterForm(tea.KeyPressMsg{}, cmd)
}

// enter moves on from a field at once when its answer is fine, so that
// keys typed right after enter land in the next field. huh moves on by a
// command (NextField) whose message comes after the keys already typed: a
// key typed or pasted right after enter landed in the field left.
func (w *wizard) enter(focused huh.Field, k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch f := focused.(type) {
	case *huh.Select[string], *huh.Confirm:
		// The choice takes the enter itself (a Select commits the option
		// under the cursor and checks it); the command it answers with,
		// when its answer is fine, is only that NextField, dropped here.
		if _, cmd := f.Update(k); cmd == nil || f.Error() != nil {
			return nil, true // refused: the choice shows why, as huh would
		}
		return w.nextField(focused), true
	}
	in, ok := focused.(*huh.Input)
	if !ok {
		return nil, false
	}
	text := in.GetValue().(string)
	if check := w.k.Live[in]; check != nil && check(text) != nil {
		return nil, false // the form shows the problem
	}
	if in.GetKey() == passKey { // checked on enter only (opening the key is slow by design)
		if err := w.passCheck(text); err != nil {
			w.live = err.Error()
			return nil, true
		}
	}
	return w.nextField(focused), true
}

// nextField moves the focus on from the focused field now (the page's next
// group after its last field).
func (w *wizard) nextField(focused huh.Field) tea.Cmd {
	cmd := w.form.NextField()
	if w.form.GetFocusedField() == focused && w.form.State == huh.StateNormal {
		cmd = w.form.NextGroup() // the last field: its group's own next-group command is dropped
	}
	w.liveSeq++ // the field reached says nothing until it is typed into
	w.live = ""
	return w.afterForm(nil, cmd)
}

// ConfirmQuit implements tui.Quitter: leaving before the end offers a draft.
func (w *wizard) ConfirmQuit() tui.Screen {
	if w.finished || w.opts.DryRun { // a dry run keeps no draft: nothing to ask
		return nil
	}
	if w.start != "" && w.a.fingerprint() == w.start { // nothing answered yet: nothing to keep
		return nil
	}
	path, dirs := w.opts.draftOut(), w.opts.draftDirs(w.a)
	save := draftOf(w.a) // kept beside the screen: the answers as they are now
	keep := func() tea.Msg {
		w.opts.dropResumed()
		if err := keepIn(dirs, save); err != nil {
			// said once the screen closes, and the exit status says it
			// too (an I/O failure): the answers were not kept
			w.out.err = err
			w.out.notes = append(w.out.notes, "your answers were not kept: no draft could be written (why, below)")
			return tui.QuitMsg{}
		}
		w.out.notes = append(w.out.notes, "kept a draft of your answers in "+drafts.File(path)+": run `"+create.Command+" new` in this folder (or where the files go) to resume it, or `"+create.Command+" new --resume` anywhere")
		return tui.QuitMsg{}
	}
	c := tui.NewConfirm(w.ctx, "Keep a draft of your answers? `"+create.Command+" new` offers it next time in this directory.", keep,
		// n: no draft, not even one kept earlier (a resumed draft, or the
		// one a failed write kept).
		func() tea.Msg { w.opts.removeDrafts(dirs); return tui.QuitMsg{} })
	c.OnForce, c.ForceText = keep, "keep it and quit"
	return c
}

// fingerprint is the answers without the page they are on: two are equal
// when nothing was answered between them.
func (a *answers) fingerprint() string {
	c := *a
	c.Page, c.Entry, c.Sub = "", 0, 0
	b, _ := json.Marshal(&c)
	return string(b)
}
