package wizard

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/wizard/keys"
	"github.com/openwop/wopkit/internal/tui/wizard/review"
	"github.com/openwop/wopkit/internal/werr"
)

// setReview sets the review to the plan p, its problems named as the
// pages show their answers (labels, else computed here).
func (w *wizard) setReview(p planMsg, labels ...string) {
	w.rev.Set(review.Planned(p))
	w.rev.Labels = labels
	if len(p.Problems) > 0 {
		w.rev.Replace = packThere(w.a, w.opts)
	}
	if len(labels) != len(p.Problems) {
		w.rev.Labels = w.labels(w.a, p.Problems)
	}
	w.rev.ToReplace = nil
	if p.Plan != nil {
		w.rev.ToReplace = review.PlaceholderLines(p.Plan.Placeholders, w.labels(w.a, p.Plan.Placeholders))
	}
}

func (w *wizard) updateReview(k tea.KeyPressMsg) tea.Cmd {
	keys := w.ctx.Keys
	r := &w.rev
	switch {
	case key.Matches(k, keys.Up):
		r.Cursor = max(r.Cursor-1, 0)
	case key.Matches(k, keys.Down):
		r.Cursor = min(r.Cursor+1, max(len(r.Problems)-1, 0))
	case key.Matches(k, keys.PageDown):
		r.Scroll += 5
	case key.Matches(k, keys.PageUp):
		r.Scroll = max(r.Scroll-5, 0)
	case k.String() == "r" && r.Replace != "":
		return w.replaceCmd()
	case k.String() == "b" || k.String() == "shift+tab" || k.String() == "ctrl+b":
		w.dropFailDraft()
		return w.back()
	case key.Matches(k, keys.Accept):
		switch {
		case len(r.Problems) > 0:
			w.dropFailDraft()
			return w.fix(r.Problems[r.Cursor])
		case r.Plan != nil:
			w.busy = "writing…"
			return runCmd(w.k.V, w.a, w.opts, r.Plan)
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
	if !ok || !w.rev.FailDraft {
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
	if w.rev.FailDraft {
		w.opts.removeDrafts(w.opts.draftDirs(w.a))
		w.rev.FailDraft = false
	}
}

// fix opens the page that asks the answer a problem is about, focused on
// its field; once that page is answered the review comes back.
func (w *wizard) fix(fe scaffold.FieldError) tea.Cmd {
	to := owner(w.a, fe)
	line := ""
	if i := w.rev.Cursor; i < len(w.rev.Problems) && w.rev.Problems[i] == fe {
		line = w.rev.ProblemLine(i)
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
	w.setReview(planMsg{Problems: []scaffold.FieldError{fe}})
	w.rev.FailDraft = saved
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
		return scaffold.FieldError{Field: "signMethod", File: docSign, Hint: keys.TokenHint}
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
