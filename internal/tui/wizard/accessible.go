package wizard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/run"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
	"github.com/openwop/wopkit/internal/tui/wizard/keys"
	"github.com/openwop/wopkit/internal/tui/wizard/review"
	"github.com/openwop/wopkit/internal/tui/wizard/toward"
	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/internal/words"
)

// runAccessible asks the wizard's pages as plain line-by-line prompts
// (huh's accessible mode, for screen readers and scripts: answers are read
// from stdin, terminal or not), walking the same pages with the same
// checks and lists, then writes, packs and signs like the full-screen
// wizard. Answers read from a pipe are echoed after their questions, so
// that a log reads as a transcript, and are never asked again: a refused
// answer (or a problem the checks find) stops the run, since the next
// line is the answer to the next question. On a terminal a refused answer
// is asked again.
func runAccessible(ctx context.Context, k ask.Asker, a *answers, opts session) error {
	var in io.Reader = os.Stdin
	if opts.Input != nil {
		in = opts.Input
	}
	var out io.Writer = os.Stdout
	if opts.Screen != nil {
		out = opts.Screen
	}
	pipe := !ask.IsTerminal(in)
	if opts.pass == nil {
		opts.pass = &keys.Pass{}
	}
	tr := &ask.Transcript{Out: out, Pipe: pipe}
	lines := &ask.Lines{R: in, T: tr}
	k.Accessible = true
	if d, ok := draftToOffer(opts.Options); ok {
		resume, err := offerDraft(ctx, k, d, lines, tr, pipe)
		if err != nil {
			return err
		}
		switch {
		case resume:
			a = d
		case pipe:
			opts.otherDraft = true
		default:
			opts.removeDrafts(opts.draftDirs(d))
		}
	}
	w := newWizard(common.New(true), k, a, opts)
	ask := func() error {
		fmt.Fprintf(out, "\n%s\n", w.at.pg.title)
		w.syncs = nil
		gs := w.at.pg.groups(w, w.at)
		for n := 0; n < len(gs); n++ {
			if n > 0 { // built again: a suggestion that follows an answer of the groups before names it
				w.syncs = nil
				gs = w.at.pg.groups(w, w.at)
			}
			g := gs[n]
			if hide := w.hidden[g]; hide != nil && hide() {
				continue
			}
			f := huh.NewForm(g).WithTheme(ask.PlainTheme).WithAccessible(true).WithInput(lines).WithOutput(tr)
			if err := tr.Run(func() error { return f.RunWithContext(ctx) }); err != nil {
				return tr.Fail(err, w.at.pg.title)
			}
			if lines.EOF {
				return ask.Ended(w.at.pg.title)
			}
			w.sync()
		}
		return nil
	}
	var p review.Planned
	for tries := 0; ; {
		if w.at.pg.groups != nil {
			if err := ask(); err != nil {
				return keep(opts, a, err)
			}
			if w.at.pg.id == "sign" && needsPass(a) {
				if err := keys.Ask(in, lines, out, pipe, opts.pass, strings.TrimSpace(a.KeyPath)); err != nil {
					return keep(opts, a, err)
				}
			}
			if w.at.pg.id == "sign" && asksNewPass(a) && !pipe { // from a pipe, as keygen: unencrypted, and the summary says so
				if err := keys.AskNew(in, lines, out, opts.pass); err != nil {
					return keep(opts, a, err)
				}
			}
			w.at = w.forward()
			continue
		}
		if a.isPack() && needsKey(a.SignMethod) {
			a.keyDefaults()
		}
		p = checked(k.V, a, opts)
		if p.Err != nil {
			return p.Err
		}
		if len(p.Problems) == 0 {
			break
		}
		printProblems(out, a, p.Problems)
		if pipe { // the next line answers the next question, not this one again
			return keep(opts, a, werr.New(werr.Invalid, "scaffold_invalid", "nothing was written: the answers read from the input have %s (listed above)",
				words.Count(len(p.Problems), "problem", "problems")).
				WithHint("answers from a pipe are not asked again: fix the answers and run again"))
		}
		if tries++; tries > 5 {
			return keep(opts, a, werr.New(werr.Invalid, "scaffold_invalid", "the answers still have problems").
				WithHint("run wopkit new again: the draft keeps your answers"))
		}
		fmt.Fprintln(out, "\nThat question again:")
		w.at, w.fixing = owner(a, p.Problems[0]), true
	}
	if pipe { // answers the questions never took are said, not dropped (issue 44, item 9)
		if n, first := lines.Extra(extraWait); n > 0 {
			return keep(opts, a, werr.New(werr.Invalid, "prompt_input_extra",
				"nothing was written: %s than questions were piped (the first left over: %q)", words.Count(n, "line more", "lines more"), first).
				WithHint("answers from a pipe are one line per question, in the order asked (the transcript above): remove the extra lines, or find the answer that went to another question"))
		}
	}
	printSummary(out, p)
	if ps := p.Plan.Placeholders; len(ps) > 0 {
		var labels []string
		for _, fe := range ps {
			labels = append(labels, questionOf(a, fe))
		}
		ls := review.PlaceholderLines(ps, labels)
		fmt.Fprintln(out, review.PlaceholderHead(len(ls)))
		printLines(out, indent(ls))
		fmt.Fprintln(out)
	}
	if !pipe && !opts.DryRun { // on a terminal the author says whether to write; a script's answers are the say
		write, err := confirmWrite(ctx, k, lines, tr)
		if err != nil {
			return keep(opts, a, err)
		}
		if !write {
			if err := opts.keepDrafts(a); err != nil {
				return err
			}
			fmt.Fprintf(out, "Nothing was written. Your answers are kept as a draft (%s): run `wopkit new` in this folder again to resume it.\n", drafts.File(opts.draftOut()))
			return nil
		}
	}
	res, err := create.Run(ctx, createOptions(k.V, a, opts, p.Plan))
	if err != nil {
		return keep(opts, a, err)
	}
	printLines(out, toward.Summary(res.Summary(), towardPR(a, opts, res)))
	opts.removeDrafts(opts.draftDirs(a))
	if !res.DryRun && run.HasCases(res.Dir) {
		if pipe { // a script's answers are all read: it runs the cases itself
			fmt.Fprintf(out, "Run the new pack's stored cases with: wopkit test %s\n", res.Dir)
			return nil
		}
		yes, err := askRunCases(ctx, k, lines, tr)
		if err != nil || !yes {
			return nil // the pack is written: leaving here loses nothing
		}
		printCases(ctx, out, res.Dir)
	}
	return nil
}

// extraWait is how long accessible mode waits, after the last question,
// for piped lines not read yet (see ask.Lines.Extra).
const extraWait = 250 * time.Millisecond

// askRunCases asks whether to run the new pack's stored cases now (no by
// default: they run node).
func askRunCases(ctx context.Context, k ask.Asker, lines *ask.Lines, tr *ask.Transcript) (bool, error) {
	yes := false
	q := k.Yes("runCases", "Run the tests now?", huh.NewPointerAccessor(&yes))
	f := huh.NewForm(huh.NewGroup(q)).WithTheme(ask.PlainTheme).WithAccessible(true).WithInput(lines).WithOutput(tr)
	if err := tr.Run(func() error { return f.RunWithContext(ctx) }); err != nil {
		return false, tr.Fail(err, "run the tests")
	}
	return yes && !lines.EOF, nil
}

// printCases runs the stored cases of the pack in dir and says each
// node's outputs, or its failure.
func printCases(ctx context.Context, out io.Writer, dir string) {
	tr, err := run.TestPack(ctx, dir, nil)
	if err != nil {
		fmt.Fprintln(out, termsafe.String("The cases did not run: "+create.Text(err)))
		return
	}
	for _, l := range tr.Lines() {
		fmt.Fprintln(out, termsafe.String(l))
	}
}

// printProblems lists the problems that stop the files, each under the
// label of the question that answers it.
func printProblems(out io.Writer, a *answers, ps []scaffold.FieldError) {
	head := words.Count(len(ps), "problem stops", "problems stop") + " the files from being written:"
	fmt.Fprintf(out, "\n%s\n", head)
	for _, fe := range ps {
		fmt.Fprintf(out, "  %s: %s\n", questionOf(a, fe), fe.Message)
		if fe.Hint != "" {
			fmt.Fprintf(out, "    %s\n", fe.Hint)
		}
	}
}

// questions are the labels of the answers the create workflow's problems
// are about, as their pages ask them.
var questions = map[string]string{
	"name": "Pack name", "name.part": "Pack name", "version": "Version", "tool.id": "Tool id",
	"signMethod": "Pack and sign now?", "keyPath": "Key file", "keyId": "Key id",
}

// questionOf is where a problem's answer is asked: the page's title, and
// the question's label when known.
func questionOf(a *answers, fe scaffold.FieldError) string {
	page := owner(a, fe).pg.title
	if q, ok := questions[fe.Field]; ok {
		return page + ", " + q
	}
	if fe.Field == "" {
		return page
	}
	return page + ", " + fe.Field
}

// printSummary says what is about to be written, as the review lists it:
// the folder and its files, the key, the tarball and what goes beside it.
func printSummary(out io.Writer, p review.Planned) {
	fmt.Fprintln(out, "\nAbout to write:")
	printLines(out, indent(p.Where))
	fmt.Fprintln(out)
}

// confirmWrite asks whether to write what printSummary listed (yes by
// default; the end of the input keeps it).
func confirmWrite(ctx context.Context, k ask.Asker, lines *ask.Lines, tr *ask.Transcript) (bool, error) {
	write := true
	q := k.Yes("write", "Write these files?", huh.NewPointerAccessor(&write))
	f := huh.NewForm(huh.NewGroup(q)).WithTheme(ask.PlainTheme).WithAccessible(true).WithInput(lines).WithOutput(tr)
	if err := tr.Run(func() error { return f.RunWithContext(ctx) }); err != nil {
		return false, tr.Fail(err, "about to write")
	}
	return write, nil
}

// offerDraft asks whether to resume the draft d kept for the folder, as
// the full-screen wizard's first screen does: yes resumes it (each question
// then offers the draft's answer, an empty line keeps it), no starts again
// and drops it. Answers read from a pipe are not asked (the next line
// answers the first question, not this one): they start afresh, and the
// draft is said, and kept as it is.
func offerDraft(ctx context.Context, k ask.Asker, d *answers, lines *ask.Lines, tr *ask.Transcript, pipe bool) (bool, error) {
	name := d.What
	if d.isPack() {
		name = d.name()
	}
	if pipe {
		fmt.Fprintf(tr.Out, "A draft from an earlier run is here (%s): answers read from a pipe start afresh, and the draft is kept as it is (run `%s new` on a terminal to resume it).\n", name, create.Command)
		return false, nil
	}
	resume := true
	fmt.Fprintln(tr.Out, "\nyes resumes the draft (each question offers its answer: an empty line keeps it); no starts again and drops it")
	q := k.Yes("draft", "A draft from an earlier run is here ("+name+"). Resume it?", huh.NewPointerAccessor(&resume))
	f := huh.NewForm(huh.NewGroup(q)).WithTheme(ask.PlainTheme).WithAccessible(true).WithInput(lines).WithOutput(tr)
	if err := tr.Run(func() error { return f.RunWithContext(ctx) }); err != nil {
		return false, tr.Fail(err, "wopkit new")
	}
	if lines.EOF {
		return false, ask.Ended("wopkit new")
	}
	return resume, nil
}

// keep saves the draft after a failure and returns the failure, which
// then says where the draft is.
func keep(opts session, a *answers, err error) error {
	if opts.draftOut() == "" { // a dry run, or a draft this run did not resume
		return err
	}
	if derr := opts.keepDrafts(a); derr != nil { // said, not lost silently: both failures
		return errors.Join(err, derr)
	}
	return withDraftNote(err, drafts.File(opts.draftOut()))
}

// withDraftNote is err with its hint saying where the draft of the answers
// is kept (path) and how to resume it.
func withDraftNote(err error, path string) error {
	note := "your answers are kept as a draft"
	if path != "" {
		note += " (" + path + ")"
	}
	note += ": run `wopkit new` in the same folder on a terminal to resume it"
	var e *werr.Error
	if !errors.As(err, &e) {
		return fmt.Errorf("%w (%s)", err, note)
	}
	c := *e
	if c.Hint != "" {
		note = c.Hint + "; " + note
	}
	c.Hint = note
	return &c
}

func printLines(w io.Writer, ls []string) {
	for _, l := range ls {
		fmt.Fprintln(w, l)
	}
}
