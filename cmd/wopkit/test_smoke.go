package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/smoke"
	"github.com/openwop/wopkit/internal/termsafe"
)

// runSmoke is `wopkit test --smoke [DIR] [NODE...]`: the registry's pre-PR
// smoke test (scripts/test-packs.mjs) on the pack in dir, its nodes run in
// the sandbox; nodes limits the calls (a typeId or its last segment);
// timeout bounds one call (zero: smoke.DefaultTimeout). It prints the
// verdicts for a person, or as JSON; a failed pack is exit 1.
func runSmoke(cmd *cobra.Command, dir string, nodes []string, timeout time.Duration, jsonOut bool) error {
	rep, err := smoke.Run(cmd.Context(), dir, smoke.Options{Nodes: nodes, Timeout: timeout})
	if err != nil {
		return err
	}
	if jsonOut {
		if err := writeJSON(cmd.OutOrStdout(), rep); err != nil {
			return err
		}
	} else {
		printSmoke(cmd.OutOrStdout(), rep)
	}
	if !rep.Passed {
		return errSilent
	}
	return nil
}

// printSmoke writes the smoke test's verdicts: the pack's line, the checks
// passed, the pack's problems, one line per node (with its failures and
// warnings below it), then a summary.
func printSmoke(w io.Writer, rep *smoke.Report) {
	mark := map[bool]string{true: "✓", false: "✗"}
	safeLine(w, "%s %s (%s pack)", mark[rep.Passed], rep.Pack, rep.Kind)
	if rep.Note != "" {
		safeLine(w, "  %s", rep.Note)
	}
	for _, c := range rep.Checks {
		safeLine(w, "  %s", c)
	}
	for _, p := range rep.Problems {
		printFinding(w, "  ", "✗ ", p)
	}
	passed, failed, notRun := 0, 0, 0
	for _, nv := range rep.Nodes {
		switch nv.Status {
		case smoke.Passed:
			passed++
			what := nv.Outcome
			if nv.Code != "" {
				what += " " + nv.Code
			}
			safeLine(w, "  ✓ %s (%s)", nv.TypeID, what)
		case smoke.Failed:
			failed++
			safeLine(w, "  ✗ %s", nv.TypeID)
			for _, f := range nv.Failures {
				printFinding(w, "      ", "", f)
			}
		default:
			notRun++
			safeLine(w, "  - %s (not run)", nv.TypeID)
		}
		for _, f := range nv.Warnings {
			printFinding(w, "      ", "warning: ", f)
		}
	}
	verdict := "passed"
	if !rep.Passed {
		verdict = "FAILED"
	}
	fmt.Fprintf(w, "smoke: %s: %d nodes, %d passed, %d failed, %d not run, %d warnings\n", verdict, len(rep.Nodes), passed, failed, notRun, rep.Warnings())
}

// printFinding writes one failure or warning at indent, after mark, and
// its hint below it.
func printFinding(w io.Writer, indent, mark string, f smoke.Finding) {
	msg := "[" + string(f.Check) + "] " + f.Message
	if f.Code != "" {
		msg += " (" + f.Code + ")"
	}
	fmt.Fprintln(w, indent+mark+termsafe.String(msg))
	if f.Hint != "" {
		fmt.Fprintln(w, indent+"  hint: "+termsafe.String(f.Hint))
	}
}
