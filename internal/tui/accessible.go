package tui

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/werr"
)

// runAccessible asks the wizard's questions as plain line-by-line prompts
// (huh's accessible mode, for screen readers), with the same fields and
// checks, then writes, packs and signs like the full-screen wizard.
func runAccessible(ctx context.Context, k asker, a *answers, opts NewOptions) error {
	in, out := opts.Input, opts.Screen
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	k.accessible = true
	w := newWizard(common.New(true), k, a, opts)
	ask := func(s step) error {
		f := w.formFor(s)
		if f == nil {
			return nil
		}
		f = f.WithAccessible(true).WithInput(in).WithOutput(out)
		if err := f.RunWithContext(ctx); err != nil {
			return werr.Wrap(werr.Env, "prompt_aborted", err, "the questions stopped").
				WithHint("run wopkit new again, or use --yes with --set to answer without prompts")
		}
		return nil
	}
	for w.step < stepReview {
		if err := ask(w.step); err != nil {
			return err
		}
		w.step = w.advance()
	}
	var p planned
	for tries := 0; ; tries++ {
		p = makePlan(k.v, a)
		if p.err != nil {
			return p.err
		}
		if len(p.problems) == 0 {
			break
		}
		fmt.Fprintf(out, "\n%d problems stop the files from being written:\n", len(p.problems))
		for _, fe := range p.problems {
			fmt.Fprintf(out, "  %s: %s\n", fe.Field, fe.Message)
		}
		if tries == 3 {
			return werr.New(werr.Invalid, "scaffold_invalid", "the answers still have problems").
				WithHint("run wopkit new again")
		}
		fmt.Fprintln(out, "\nThose questions again:")
		w.step, w.idx = locate(p.problems[0])
		if err := ask(w.step); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "\nFiles to write: %v\n", p.plan.Paths())
	if a.isPack() {
		if err := ask(stepSign); err != nil {
			return err
		}
	}
	sum, err := write(ctx, a, opts, p.plan)
	printLines(out, sum)
	if err == nil {
		removeDraft(opts.draftPath())
	}
	return err
}

func printLines(w io.Writer, ls []string) {
	for _, l := range ls {
		fmt.Fprintln(w, l)
	}
}
