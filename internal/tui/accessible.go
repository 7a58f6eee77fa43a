package tui

import (
	"context"
	"fmt"
	"io"
	"os"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/werr"
)

// runAccessible asks the wizard's pages as plain line-by-line prompts
// (huh's accessible mode, for screen readers and scripts: answers are read
// from stdin, terminal or not), walking the same pages with the same
// checks and lists, then writes, packs and signs like the full-screen
// wizard.
func runAccessible(ctx context.Context, k asker, a *answers, opts NewOptions) error {
	var in io.Reader = os.Stdin
	if opts.Input != nil {
		in = opts.Input
	}
	var out io.Writer = os.Stdout
	if opts.Screen != nil {
		out = opts.Screen
	}
	lines := &byteReader{r: in}
	k.accessible = true
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
			f := huh.NewForm(g).WithTheme(plainThemeOnce).WithAccessible(true).WithInput(lines).WithOutput(out)
			if err := f.RunWithContext(ctx); err != nil {
				return werr.Wrap(werr.Env, "prompt_aborted", err, "the questions stopped").
					WithHint("run wopkit new again, or use --yes with --set to answer without prompts")
			}
			if lines.eof {
				return werr.New(werr.Invalid, "prompt_input_ended", "the answers ended before the questions (at %q)", w.at.pg.title).
					WithHint("give one line per question (an empty line keeps the suggestion)")
			}
			w.syncName()
		}
		return nil
	}
	var p planned
	for tries := 0; ; {
		if w.at.pg.groups != nil {
			if err := ask(); err != nil {
				return keep(opts, a, err)
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
		fmt.Fprintf(out, "\n%s stop the files from being written:\n", plural(len(p.problems), "problem", "problems"))
		for _, fe := range p.problems {
			fmt.Fprintf(out, "  %s: %s\n", fe.Field, fe.Message)
			if fe.Hint != "" {
				fmt.Fprintf(out, "    %s\n", fe.Hint)
			}
		}
		if tries++; tries > 5 {
			return keep(opts, a, werr.New(werr.Invalid, "scaffold_invalid", "the answers still have problems").
				WithHint("run wopkit new again: the draft keeps your answers"))
		}
		fmt.Fprintln(out, "\nThat question again:")
		w.at, w.fixing = owner(a, p.problems[0]), true
	}
	fmt.Fprintf(out, "\nFiles to write: %v\n", p.plan.Paths())
	sum, err := write(ctx, a, opts, p.plan)
	printLines(out, sum)
	if err != nil {
		return keep(opts, a, err)
	}
	removeDraft(opts.draftPath())
	return nil
}

// keep saves the draft after a failure and returns the failure.
func keep(opts NewOptions, a *answers, err error) error {
	_ = saveDraft(opts.draftPath(), a)
	return err
}

// byteReader reads one byte at a time, so that each prompt's line reader
// takes only its line from a pipe, and notes the end of the input.
type byteReader struct {
	r   io.Reader
	eof bool
}

func (b *byteReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	n, err := b.r.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

func printLines(w io.Writer, ls []string) {
	for _, l := range ls {
		fmt.Fprintln(w, l)
	}
}
