package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/run"
	"github.com/openwop/wopkit/internal/termsafe"
)

// TestOptions are the flags of test.
type TestOptions struct {
	Watch bool
	Smoke bool
	LimitOptions
}

// newTestCmd builds `wopkit test [DIR] [NODE...]`.
func newTestCmd() *cobra.Command {
	var o TestOptions
	var out OutputOptions
	cmd := &cobra.Command{
		Use:   "test [DIR] [NODE...]",
		Short: "Run a pack's stored cases (tests/<node>/*.json) in the sandbox",
		Long: "test runs each stored case of the pack's nodes (all, or the NODEs named: a typeId or its last\n" +
			"segment) as `wopkit run` would, one node process for all of them, and prints a diff of expected\n" +
			"against actual for each mismatch. A case is {\"name\"?, \"input\", \"config\"?, \"mocks\"?, \"secrets\"?,\n" +
			"\"expect\": {\"outputs\": …} | {\"outputsMatch\": …} | {\"error\": {\"code\": …}} | {\"suspended\": {\"kind\": …}}}.\n" +
			"Exit 0 only when every case passes. --watch runs them again at every save; --smoke runs the\n" +
			"registry's pre-PR smoke test instead.",
		Example: "  wopkit test\n  wopkit test ./hello hello --json\n  wopkit test --watch\n  wopkit test --smoke",
		Args:    usageArgs(cobra.ArbitraryArgs),
		PreRunE: func(*cobra.Command, []string) error { return o.Validate() },
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, names := splitDirArgs(args)
			if o.Smoke {
				return runSmoke(cmd, dir, names, o.timeout, out.JSON)
			}
			if o.Watch {
				return watchTests(cmd, dir, names, &o, out.JSON)
			}
			passed, err := testOnce(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), dir, names, &o, out.JSON)
			if err != nil {
				return err
			}
			if !passed {
				return errSilent
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.Watch, "watch", false, "run the cases again whenever a file of the pack changes (ctrl+c leaves)")
	cmd.Flags().BoolVar(&o.Smoke, "smoke", false, "run the registry's pre-PR smoke test (scripts/test-packs.mjs) instead of the stored cases")
	o.LimitOptions.AddFlags(cmd)
	out.AddFlags(cmd)
	return cmd
}

// splitDirArgs takes a first argument that is a folder holding pack.json
// as DIR; the rest are node names.
func splitDirArgs(args []string) (string, []string) {
	if len(args) > 0 && isPackDir(args[0]) {
		return args[0], args[1:]
	}
	return ".", args
}

// testOnce runs the stored cases once and prints them.
func testOnce(ctx context.Context, w, errw io.Writer, dir string, names []string, o *TestOptions, asJSON bool) (bool, error) {
	p, err := run.LoadPack(dir)
	if err != nil {
		return false, err
	}
	if err := p.CheckRuntime(); err != nil {
		return false, err
	}
	cases, err := run.LoadCases(p, names)
	if err != nil {
		return false, err
	}
	tr := &run.TestReport{Passed: true, Cases: []run.CaseResult{}}
	if len(cases) > 0 {
		h, err := run.NewCaller(o.host(dir, p, errw), p)
		if err != nil {
			return false, err
		}
		tr, err = run.RunCases(ctx, h, p, cases)
		h.Close()
		if err != nil {
			return false, err
		}
	}
	if asJSON {
		return tr.Passed, writeJSON(w, tr)
	}
	printTests(w, tr)
	return tr.Passed, nil
}

func printTests(w io.Writer, tr *run.TestReport) {
	var b strings.Builder
	failed := 0
	for _, c := range tr.Cases {
		mark := "PASS"
		if !c.Passed {
			mark = "FAIL"
			failed++
		}
		fmt.Fprintf(&b, "%s %s %s (%s)\n", mark, c.Node, c.Name, c.File)
		if c.Passed {
			continue
		}
		if c.Error != nil && c.Status == "failure" {
			fmt.Fprintf(&b, "     %s: %s\n", c.Error.Code, clip(c.Error.Message, 300))
		}
		if c.Report != nil {
			for _, p := range c.Report.Problems {
				fmt.Fprintf(&b, "     %s:%d:%d %s: %s\n", p.File, p.Line, p.Column, pointerOrRoot(p.Pointer), p.Message)
			}
		}
		if c.Diff != nil {
			b.WriteString("     expected (-) against actual (+):\n")
			for _, l := range strings.Split(*c.Diff, "\n") {
				b.WriteString("     " + l + "\n")
			}
		}
	}
	switch {
	case len(tr.Cases) == 0:
		b.WriteString("no stored cases: write tests/<node>/<case>.json (see `wopkit test --help`)\n")
	case failed == 0:
		fmt.Fprintf(&b, "%d passed\n", len(tr.Cases))
	default:
		fmt.Fprintf(&b, "%d failed, %d passed\n", failed, len(tr.Cases)-failed)
	}
	io.WriteString(w, termsafe.Lines(b.String()))
}

// watchTests runs the cases, then again after every change to the pack's
// files (polled every 50 ms; a change is taken once the files have been
// still for 50 ms), until ctrl+c.
func watchTests(cmd *cobra.Command, dir string, names []string, o *TestOptions, asJSON bool) error {
	ctx := cmd.Context()
	w := cmd.OutOrStdout()
	tty := writerIsTerminal(w)
	last := run.Snapshot(dir)
	for {
		if tty {
			io.WriteString(w, "\x1b[H\x1b[2J")
		}
		if _, err := testOnce(ctx, w, cmd.ErrOrStderr(), dir, names, o, asJSON); err != nil {
			fmt.Fprintln(w, termsafe.String("error: "+err.Error()))
		}
		if !asJSON {
			fmt.Fprintln(w, "watching for changes (ctrl+c leaves)")
		}
		next, ok := run.WaitChange(ctx, dir, last, 50*time.Millisecond)
		if !ok {
			return nil
		}
		last = next
	}
}

// isPackDir reports whether path is a folder holding a pack.json.
func isPackDir(path string) bool {
	fi, err := os.Stat(filepath.Join(path, "pack.json"))
	return err == nil && fi.Mode().IsRegular()
}

// writerIsTerminal reports whether w is a terminal (for the watch's redraw).
func writerIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}
