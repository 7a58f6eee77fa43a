package wizard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tui/common"
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
func runAccessible(ctx context.Context, k asker, a *answers, opts session) error {
	var in io.Reader = os.Stdin
	if opts.Input != nil {
		in = opts.Input
	}
	var out io.Writer = os.Stdout
	if opts.Screen != nil {
		out = opts.Screen
	}
	pipe := !inputIsTerminal(in)
	if opts.pass == nil {
		opts.pass = &keyPass{}
	}
	tr := &transcript{out: out, pipe: pipe}
	lines := &byteReader{r: in, tr: tr}
	k.accessible = true
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
			removeDraft(opts.draftOut())
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
			f := huh.NewForm(g).WithTheme(plainThemeOnce).WithAccessible(true).WithInput(lines).WithOutput(tr)
			if err := tr.run(func() error { return f.RunWithContext(ctx) }); err != nil {
				return tr.fail(err, w.at.pg.title)
			}
			if lines.eof {
				return ended(w.at.pg.title)
			}
			w.sync()
		}
		return nil
	}
	var p planned
	for tries := 0; ; {
		if w.at.pg.groups != nil {
			if err := ask(); err != nil {
				return keep(opts, a, err)
			}
			if w.at.pg.id == "sign" && needsPass(a) {
				if err := askPassphrase(in, lines, out, pipe, opts.pass, strings.TrimSpace(a.KeyPath)); err != nil {
					return keep(opts, a, err)
				}
			}
			w.at = w.forward()
			continue
		}
		if a.isPack() && needsKey(a.SignMethod) {
			a.keyDefaults()
		}
		p = checked(k.v, a, opts)
		if p.err != nil {
			return p.err
		}
		if len(p.problems) == 0 {
			break
		}
		printProblems(out, a, p.problems)
		if pipe { // the next line answers the next question, not this one again
			return keep(opts, a, werr.New(werr.Invalid, "scaffold_invalid", "nothing was written: the answers read from the input have %s (listed above)",
				words.Count(len(p.problems), "problem", "problems")).
				WithHint("answers from a pipe are not asked again: fix the answers and run again"))
		}
		if tries++; tries > 5 {
			return keep(opts, a, werr.New(werr.Invalid, "scaffold_invalid", "the answers still have problems").
				WithHint("run wopkit new again: the draft keeps your answers"))
		}
		fmt.Fprintln(out, "\nThat question again:")
		w.at, w.fixing = owner(a, p.problems[0]), true
	}
	printSummary(out, p)
	if ps := p.plan.Placeholders; len(ps) > 0 {
		var labels []string
		for _, fe := range ps {
			labels = append(labels, questionOf(a, fe))
		}
		ls := placeholderLines(ps, labels)
		fmt.Fprintln(out, placeholderHead(len(ls)))
		printLines(out, indent(ls))
		fmt.Fprintln(out)
	}
	if !pipe && !opts.DryRun { // on a terminal the author says whether to write; a script's answers are the say
		write, err := confirmWrite(ctx, k, lines, tr)
		if err != nil {
			return keep(opts, a, err)
		}
		if !write {
			if err := saveDraft(opts.draftOut(), a); err != nil {
				return err
			}
			fmt.Fprintf(out, "Nothing was written. Your answers are kept as a draft (%s): run `wopkit new` in this folder again to resume it.\n", draftFile(opts.draftOut()))
			return nil
		}
	}
	res, err := create.Run(ctx, createOptions(k.v, a, opts, p.plan))
	if err != nil {
		return keep(opts, a, err)
	}
	printLines(out, res.Summary())
	removeDraft(opts.draftOut())
	return nil
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
func printSummary(out io.Writer, p planned) {
	fmt.Fprintln(out, "\nAbout to write:")
	printLines(out, indent(p.where))
	fmt.Fprintln(out)
}

// confirmWrite asks whether to write what printSummary listed (yes by
// default; the end of the input keeps it).
func confirmWrite(ctx context.Context, k asker, lines *byteReader, tr *transcript) (bool, error) {
	write := true
	q := k.yes("write", "Write these files?", huh.NewPointerAccessor(&write))
	f := huh.NewForm(huh.NewGroup(q)).WithTheme(plainThemeOnce).WithAccessible(true).WithInput(lines).WithOutput(tr)
	if err := tr.run(func() error { return f.RunWithContext(ctx) }); err != nil {
		return false, tr.fail(err, "about to write")
	}
	return write, nil
}

// ended is the error of an input that ends before the questions do.
func ended(page string) error {
	return werr.New(werr.Invalid, "prompt_input_ended", "the answers ended before the questions (at %q)", page).
		WithHint("give one line per question (an empty line keeps the suggestion)")
}

// offerDraft asks whether to resume the draft d kept for the folder, as
// the full-screen wizard's first screen does: yes resumes it (each question
// then offers the draft's answer, an empty line keeps it), no starts again
// and drops it. Answers read from a pipe are not asked (the next line
// answers the first question, not this one): they start afresh, and the
// draft is said, and kept as it is.
func offerDraft(ctx context.Context, k asker, d *answers, lines *byteReader, tr *transcript, pipe bool) (bool, error) {
	name := d.What
	if d.isPack() {
		name = d.name()
	}
	if pipe {
		fmt.Fprintf(tr.out, "A draft from an earlier run is here (%s): answers read from a pipe start afresh, and the draft is kept as it is (run `%s new` on a terminal to resume it).\n", name, create.Command)
		return false, nil
	}
	resume := true
	fmt.Fprintln(tr.out, "\nyes resumes the draft (each question offers its answer: an empty line keeps it); no starts again and drops it")
	q := k.yes("draft", "A draft from an earlier run is here ("+name+"). Resume it?", huh.NewPointerAccessor(&resume))
	f := huh.NewForm(huh.NewGroup(q)).WithTheme(plainThemeOnce).WithAccessible(true).WithInput(lines).WithOutput(tr)
	if err := tr.run(func() error { return f.RunWithContext(ctx) }); err != nil {
		return false, tr.fail(err, "wopkit new")
	}
	if lines.eof {
		return false, ended("wopkit new")
	}
	return resume, nil
}

// keep saves the draft after a failure and returns the failure, which
// then says where the draft is.
func keep(opts session, a *answers, err error) error {
	if opts.draftOut() == "" { // a dry run, or a draft this run did not resume
		return err
	}
	if derr := saveDraft(opts.draftOut(), a); derr != nil { // said, not lost silently: both failures
		return errors.Join(err, derr)
	}
	return withDraftNote(err, draftFile(opts.draftOut()))
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

// byteReader reads one byte at a time, so that each prompt's line reader
// takes only its line from a pipe, notes the end of the input, and hands
// each line read to the transcript.
type byteReader struct {
	r    io.Reader
	tr   *transcript
	eof  bool
	line []byte
}

func (b *byteReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	n, err := b.r.Read(p)
	if n == 1 {
		if p[0] == '\n' {
			b.tr.answered(strings.TrimSuffix(string(b.line), "\r"))
			b.line = b.line[:0]
		} else {
			b.line = append(b.line, p[0])
		}
	}
	if err == io.EOF {
		b.eof = true
		b.tr.ended()
	}
	return n, err
}

// inputIsTerminal reports whether the answers are typed on a terminal
// (else they come from a pipe or a file).
var inputIsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func printLines(w io.Writer, ls []string) {
	for _, l := range ls {
		fmt.Fprintln(w, l)
	}
}

// transcript is the accessible prompts' output. With answers from a pipe
// it echoes each answer after its question, so that a log reads as a
// transcript, and stops the prompts at an answer they refuse (huh's
// prompts would print why and read the next line, the next question's
// answer) or at the end of the input (where they would go on with the
// suggestions). huh's prompts loop until an answer is taken and offer no
// way out, so the transcript stops them with a panic (stopped) that run
// recovers.
type transcript struct {
	out     io.Writer
	pipe    bool
	asked   strings.Builder // what was written since the last answer taken: the question
	answer  string
	pending bool  // an answer was read: the next write says whether it was taken
	stop    error // why the prompts were stopped
}

// stopped is the panic with which the transcript stops huh's prompts.
type stopped struct{}

// refusal is an answer from a pipe that a prompt refused.
type refusal struct{ question, answer, why string }

func (r *refusal) Error() string { return r.why }

// errEnded: the input ended before the questions did.
var errEnded = errors.New("the answers ended")

// answered is told of each line read: from a pipe it is echoed, and the
// next write says whether the prompt took it (a new line) or refused it
// (why).
func (t *transcript) answered(line string) {
	if !t.pipe {
		return
	}
	fmt.Fprintln(t.out, line)
	t.answer, t.pending = line, true
}

// ended is told of the end of the input: from a pipe it ends the line of
// the question left unanswered and stops the prompts.
func (t *transcript) ended() {
	if t.pipe {
		fmt.Fprintln(t.out)
		t.stop = errEnded
		panic(stopped{})
	}
}

func (t *transcript) Write(p []byte) (int, error) {
	if t.pending {
		t.pending = false
		if string(p) != "\n" {
			t.stop = &refusal{question: t.question(), answer: t.answer, why: strings.TrimSpace(ansi.Strip(string(p)))}
			panic(stopped{})
		}
		t.asked.Reset()
	}
	t.asked.Write(p)
	return t.out.Write(p)
}

// question is the first line of what was asked since the last answer: an
// input's title (with its suggestion), a choice's title above its options.
func (t *transcript) question() string {
	// A prompt's help and a suggestion of several lines are printed
	// indented, before or after its title: the question is its first line
	// that is not indented (or, failing that, its first line).
	first := ""
	for _, l := range strings.Split(ansi.Strip(t.asked.String()), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if l[0] != ' ' && l[0] != '\t' {
			return strings.TrimSpace(l)
		}
		if first == "" {
			first = strings.TrimSpace(l)
		}
	}
	return first
}

// run runs a form's prompts; an error says why they were stopped.
func (t *transcript) run(prompts func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopped); !ok {
				panic(r)
			}
			err = t.stop
		}
	}()
	t.asked.Reset()
	t.pending, t.stop = false, nil
	return prompts()
}

// fail is the error of prompts stopped on page.
func (t *transcript) fail(err error, page string) error {
	var r *refusal
	switch {
	case errors.As(err, &r):
		return werr.New(werr.Invalid, "prompt_answer_refused", "%s, %q: the answer %q was refused: %s", page, r.question, r.answer, r.why).
			WithHint("answers read from a pipe are not asked again, since the next line answers the next question: fix that line and run again; an empty line keeps the suggestion")
	case errors.Is(err, errEnded):
		return ended(page)
	}
	return werr.Wrap(werr.Env, "prompt_aborted", err, "the questions stopped").
		WithHint("run wopkit new again, or use --yes with --set to answer without prompts")
}

// askPassphrase asks the passphrase of the encrypted key file path in
// accessible mode, checked by opening the key: on a terminal read without
// echo, asked again when wrong; from a pipe one line, never echoed to the
// transcript, and a wrong one stops the run (the next line answers
// another question).
func askPassphrase(in io.Reader, lines *byteReader, out io.Writer, pipe bool, p *keyPass, path string) error {
	for tries := 0; ; tries++ {
		fmt.Fprintf(out, "Key passphrase (%s is encrypted; not shown, never kept): ", path)
		var s string
		if f, ok := in.(*os.File); ok && !pipe {
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(out)
			if err != nil {
				return werr.Wrap(werr.Env, "key_passphrase_unavailable", err, "cannot read the passphrase from the terminal")
			}
			s = string(b)
		} else {
			line, err := secretLine(lines.r)
			fmt.Fprintln(out)
			if err != nil {
				lines.eof = true
				return ended("pack and sign")
			}
			s = line
		}
		err := p.check(path, s)
		if err == nil {
			return nil
		}
		if pipe || tries >= 4 {
			return werr.New(werr.Invalid, "key_passphrase_wrong", "%s", err.Error()).
				WithHint("check the passphrase, or set %s", sign.PassphraseEnv)
		}
		fmt.Fprintln(out, "  "+err.Error())
	}
}

// secretLine reads one line from r a byte at a time (the answers after it
// stay unread), without handing it to the transcript.
func secretLine(r io.Reader) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for {
		n, err := r.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				return strings.TrimSuffix(string(b), "\r"), nil
			}
			b = append(b, one[0])
		}
		if err == io.EOF && len(b) > 0 {
			return string(b), nil
		}
		if err != nil {
			return "", err
		}
	}
}
