package wizard

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/keymap"
	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/internal/words"
)

// planned is what the review shows: the plan (the tool manifest folded
// in) or the problems that stop it, everything that can fail after the
// review included.
type planned struct {
	plan     *scaffold.Plan
	manifest string   // the main file, for display
	where    []string // where the files go (see where)
	problems []scaffold.FieldError
	err      error
	// compat compares the pack with the version it follows in the
	// registry checkout Options.Registry (semdiff.ReviewNote); "" when
	// there is nothing to say.
	compat string
}

// review is the wizard's review page: the files that will be written, the
// main manifest as JSON, and the problems, each leading back to its page.
type review struct {
	planned
	// labels name the answer of each problem as the pages show it
	// ("Eval task 1 › Rubric criteria"; see wizard.where).
	labels []string
	// toReplace are the plan's placeholders (scaffold.Plan.Placeholders),
	// each said once, named as the pages show its answer
	toReplace []string
	cursor    int
	scroll    int
	// replace is the folder holding a pack that r offers to replace ("" when
	// none): the run then replaces files as `new --force` does
	replace string
	// failDraft: the draft was kept by a failed run shown here; it goes
	// when the author leaves without keeping it (n to "Keep a draft?"), or
	// for a page (where esc asks about a draft again)
	failDraft bool
}

func (r *review) set(p planMsg) {
	r.planned = planned(p)
	r.labels, r.replace = nil, ""
	r.cursor, r.scroll = 0, 0
}

// setReview sets the review to the plan p, its problems named as the
// pages show their answers (labels, else computed here).
func (w *wizard) setReview(p planMsg, labels ...string) {
	w.rev.set(p)
	w.rev.labels = labels
	if len(p.problems) > 0 {
		w.rev.replace = packThere(w.a, w.opts)
	}
	if len(labels) != len(p.problems) {
		w.rev.labels = w.labels(w.a, p.problems)
	}
	w.rev.toReplace = nil
	if p.plan != nil {
		w.rev.toReplace = placeholderLines(p.plan.Placeholders, w.labels(w.a, p.plan.Placeholders))
	}
}

// placeholderLines says each placeholder once: the answer's label (its
// pointer when no page asks it), then the value and what it is.
func placeholderLines(ps []scaffold.FieldError, labels []string) []string {
	var out []string
	for i, p := range ps {
		label := p.Field
		if i < len(labels) && labels[i] != "" {
			label = labels[i]
		}
		if label == "" {
			label = p.Pointer
		}
		line := label + ": " + p.Message
		if !slices.Contains(out, line) {
			out = append(out, line)
		}
	}
	return out
}

// placeholderHead introduces the placeholders of a plan.
func placeholderHead(n int) string {
	return fmt.Sprintf("%s still a placeholder to replace before publishing (validate --strict refuses %s):",
		words.Count(n, "value is", "values are"), map[bool]string{true: "it", false: "them"}[n == 1])
}

// problemLine is a problem as the review and the page it opens say it:
// the answer's label, then what is wrong in those words.
func (r *review) problemLine(i int) string {
	p := r.problems[i]
	label := ""
	if i < len(r.labels) {
		label = r.labels[i]
	}
	switch {
	case label != "":
		return label + ": " + ask.InWords(p.Message, p.Pointer, label)
	case p.Field == "":
		return p.Pointer + ": " + p.Message
	}
	return p.Field + ": " + p.Message
}

func (w *wizard) updateReview(k tea.KeyPressMsg) tea.Cmd {
	keys := w.ctx.Keys
	r := &w.rev
	switch {
	case key.Matches(k, keys.Up):
		r.cursor = max(r.cursor-1, 0)
	case key.Matches(k, keys.Down):
		r.cursor = min(r.cursor+1, max(len(r.problems)-1, 0))
	case key.Matches(k, keys.PageDown):
		r.scroll += 5
	case key.Matches(k, keys.PageUp):
		r.scroll = max(r.scroll-5, 0)
	case k.String() == "r" && r.replace != "":
		return w.replaceCmd()
	case k.String() == "b" || k.String() == "shift+tab" || k.String() == "ctrl+b":
		w.dropFailDraft()
		return w.back()
	case key.Matches(k, keys.Accept):
		switch {
		case len(r.problems) > 0:
			w.dropFailDraft()
			return w.fix(r.problems[r.cursor])
		case r.plan != nil:
			w.busy = "writing…"
			return runCmd(w.k.V, w.a, w.opts, r.plan)
		}
	case key.Matches(k, keys.Quit):
		if d := w.confirmQuitReview(); d != nil {
			return tui.Push(d)
		}
		return tea.Quit
	}
	return nil
}

// confirmQuitReview is the wizard's "Keep a draft?" from the review: after
// a failed run kept a draft, n removes it.
func (w *wizard) confirmQuitReview() tui.Screen {
	s := w.ConfirmQuit()
	c, ok := s.(*tui.Confirm)
	if !ok || !w.rev.failDraft {
		return s
	}
	no := c.OnNo
	c.OnNo = func() tea.Msg {
		w.opts.removeDrafts(w.opts.draftDirs(w.a))
		return no()
	}
	return c
}

// dropFailDraft removes the draft a failed run kept when the author leaves
// its review for a page: leaving from there asks about a draft again.
func (w *wizard) dropFailDraft() {
	if w.rev.failDraft {
		w.opts.removeDrafts(w.opts.draftDirs(w.a))
		w.rev.failDraft = false
	}
}

// fix opens the page that asks the answer a problem is about, focused on
// its field; once that page is answered the review comes back.
func (w *wizard) fix(fe scaffold.FieldError) tea.Cmd {
	to := owner(w.a, fe)
	line := ""
	if i := w.rev.cursor; i < len(w.rev.problems) && w.rev.problems[i] == fe {
		line = w.rev.problemLine(i)
	}
	cmd := w.move(to)
	w.fixing = true
	if line != "" { // the problem is said on the page that fixes it
		w.fixNote, w.fixKey = line, fieldKey(fe)
		if fe.Hint != "" {
			w.fixNote += " (" + fe.Hint + ")"
		}
	}
	return tea.Batch(cmd, w.startAt(fe))
}

// ran ends a run: the summary, or, on a failure (nothing is left written),
// the draft kept and the review with the failure leading to its page.
func (w *wizard) ran(m runMsg) tea.Cmd {
	w.busy = ""
	if m.err == nil {
		w.finished, w.done, w.err = true, m.summary, "" // the plan's notes end it (a connection's OAuth client)
		w.cases = m.cases
		w.out.ok, w.out.err, w.out.summary = true, nil, m.summary
		w.opts.removeDrafts(w.opts.draftDirs(w.a))
		return nil
	}
	w.out.err = m.err
	w.err = errText(m.err)
	note, saved := "", w.opts.keepDrafts(w.a) == nil
	if saved {
		note = "; nothing was written and your answers are kept as a draft"
	}
	fe := failedField(w.a, m.err)
	fe.Message = "could not finish: " + w.err + note
	w.setReview(planMsg{problems: []scaffold.FieldError{fe}})
	w.rev.failDraft = saved
	return nil
}

// failedField is the answer a failure after the review is about: the key
// for a key's failure, the signing method for Sigstore's (its services,
// the identity token), with what to do; else the pack's name.
func failedField(a *answers, err error) scaffold.FieldError {
	var e *werr.Error
	if !errors.As(err, &e) {
		return mainField(a)
	}
	switch {
	case e.Code == sigstore.CodeTokenMissing || e.Code == sigstore.CodeTokenInvalid:
		return scaffold.FieldError{Field: "signMethod", File: docSign, Hint: tokenHint}
	case strings.HasPrefix(e.Code, "sigstore") && e.Code != sigstore.CodeKeyUnsupported && e.Class == werr.Env:
		return scaffold.FieldError{Field: "signMethod", File: docSign,
			Hint: "check the network (and " + sigstore.FulcioEnv + ", " + sigstore.RekorEnv + " when set), then choose the same way to sign again to retry, " +
				"or choose another way to sign (a key signs offline)"}
	case strings.HasPrefix(e.Code, "sigstore") && e.Code != sigstore.CodeKeyUnsupported:
		return scaffold.FieldError{Field: "signMethod", File: docSign, Hint: "choose the same way to sign again to retry, or choose another way to sign"}
	case strings.HasPrefix(e.Code, "key") || strings.HasPrefix(e.Code, "sign") || strings.HasPrefix(e.Code, "sigstore"):
		return scaffold.FieldError{Field: "keyPath", File: docSign}
	}
	return mainField(a)
}

func (r *review) view(ctx *common.Context, width, height int) string {
	st := ctx.Styles
	var b strings.Builder
	switch {
	case r.err != nil:
		b.WriteString(st.Error.Render(widgets.Wrap("cannot plan the files: "+r.err.Error(), width)) + "\n")
		return b.String()
	case len(r.problems) > 0:
		head := fmt.Sprintf("%s stop the files from being written; enter goes to the answer:", words.Count(len(r.problems), "problem", "problems"))
		if len(r.problems) == 1 {
			head = "1 problem stops the files from being written; enter goes to the answer:"
		}
		b.WriteString(st.Error.Render(widgets.Wrap(head, width)) + "\n")
		for i, p := range r.problems {
			line := r.problemLine(i)
			if i != r.cursor {
				b.WriteString("  " + widgets.Fit(line, width-2, 1) + "\n")
				continue
			}
			// the selected problem is shown whole, wrapped, with its hint
			wrapped := strings.Split(widgets.Wrap(line, width-4), "\n")
			for n, l := range wrapped {
				mark := "  "
				if n == 0 {
					mark = "> "
				}
				b.WriteString(mark + st.Selected.Render(l) + "\n")
			}
			if p.Hint != "" {
				b.WriteString(st.Dim.Render(indentText(widgets.Wrap(p.Hint, width-4), "    ")) + "\n")
			}
		}
		if r.replace != "" {
			b.WriteString(st.Dim.Render(widgets.Wrap("r replaces the pack in "+r.replace+" (put back as it was if writing fails)", width)) + "\n")
		}
		return b.String()
	case r.plan == nil:
		return ""
	}
	b.WriteString(r.whereView(width, height))
	b.WriteString(st.OK.Render("no problems") + " · " + st.Dim.Render("enter to write, b to go back") + "\n")
	if n := len(r.toReplace); n > 0 {
		b.WriteString(st.Warning.Render(widgets.Wrap(placeholderHead(n), width)) + "\n")
		for _, l := range r.toReplace {
			b.WriteString("  " + widgets.Fit(l, width-2, 1) + "\n")
		}
	}
	if r.compat != "" {
		b.WriteString(st.Dim.Render(widgets.Wrap(r.compat, width)) + "\n")
	}
	lines := strings.Split(strings.TrimRight(r.manifest, "\n"), "\n")
	room := max(height-lipglossHeight(b.String())-1, 3)
	r.scroll = min(r.scroll, max(len(lines)-room, 0))
	end := min(r.scroll+room, len(lines))
	more := ""
	if end < len(lines) { // the manifest goes on below: the row under it says so (issue 35, item 7; room leaves it)
		more = "\n" + st.Dim.Render(moreBelowHint+" (pgdn)")
	}
	b.WriteString(st.Dim.Render(strings.Join(lines[r.scroll:end], "\n")) + more)
	return b.String()
}

// whereView lists where the files go; on a short screen the list of the
// folder's files is cut (its count and folder come first), so that the
// key, the tarball, the status and some of the manifest still show.
func (r *review) whereView(width, height int) string {
	if len(r.where) == 0 {
		return ""
	}
	var rest []string
	for _, l := range r.where[1:] {
		rest = append(rest, strings.Split(widgets.Wrap(l, width), "\n")...)
	}
	files := strings.Split(widgets.Wrap(r.where[0], width), "\n")
	if room := max(height-len(rest)-4, 1); len(files) > room {
		files = files[:room]
		files[room-1] = ansi.Truncate(files[room-1], width-2, "") + " …"
	}
	return strings.Join(append(files, rest...), "\n") + "\n"
}

func indentText(s, pre string) string { return pre + strings.ReplaceAll(s, "\n", "\n"+pre) }

func lipglossHeight(s string) int { return strings.Count(s, "\n") + 1 }

func (r *review) help(k keymap.KeyMap) []key.Binding {
	back := key.NewBinding(key.WithKeys("b", "shift+tab", "ctrl+b"), key.WithHelp("b", "back"))
	if len(r.problems) > 0 {
		return []key.Binding{k.Up, k.Down, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "fix it")), back, k.Quit}
	}
	return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "write")),
		k.PageDown, k.PageUp, back, k.Quit}
}
