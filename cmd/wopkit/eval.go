package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/eval"
	"github.com/openwop/wopkit/internal/werr"
)

// evalOptions are the flags of `wopkit eval`.
type evalOptions struct {
	Suite       string
	Model       string
	Judge       string
	APIKeyEnv   string
	Timeout     time.Duration
	PriceIn     float64
	PriceOut    float64
	Events      string
	Report      string
	Record      string
	JSON        bool
	modelOpts   eval.ModelOptions // tests set a transport and a short backoff
	progressOut io.Writer         // where the progress line goes (a terminal), nil for none
}

func (o *evalOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.Suite, "suite", "", "the eval suite to run (default: the agent's evalSuiteRef)")
	f.StringVar(&o.Model, "model", "", "where outputs come from: replay:FILE (recorded outputs), echo (the input back) or openai:BASEURL#MODEL")
	f.StringVar(&o.Judge, "judge", "", "a judge model, openai:BASEURL#MODEL, that scores rubric and adversarial tasks (without one they are not scored, and the suite cannot pass)")
	f.StringVar(&o.APIKeyEnv, "api-key-env", "OPENAI_API_KEY", "the environment variable holding the endpoint's API key (never a flag, never printed)")
	f.DurationVar(&o.Timeout, "timeout", eval.DefaultTimeout, "bound on one request to a model endpoint")
	f.Float64Var(&o.PriceIn, "price-per-1k-in", -1, "price in USD of 1,000 prompt tokens, -1 for unknown (with --price-per-1k-out: the cost is computed and maxCostUsd checked)")
	f.Float64Var(&o.PriceOut, "price-per-1k-out", -1, "price in USD of 1,000 completion tokens, -1 for unknown")
	f.StringVar(&o.Events, "events", "", "write eval.started, eval.scored (one per task) and eval.completed to FILE as JSON lines")
	f.StringVar(&o.Report, "report", "", "write the outputs and why each task failed to FILE (kept out of the summary)")
	f.StringVar(&o.Record, "record", "", "write the run's outputs to FILE as a replay file (--model replay:FILE replays it)")
	f.BoolVar(&o.JSON, "json", false, "print the EvalSummary (eval-summary.schema.json) and nothing else")
}

// newEvalCmd builds `wopkit eval [DIR] AGENT`.
func newEvalCmd() *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval [DIR] AGENT",
		Short: "Run an agent's eval suite and score it",
		Long: "eval runs an agent's eval suite (RFC 0081) outside any host: the agent and the suite are validated\n" +
			"first, each task's output comes from --model, golden tasks are scored exact / contains / json-match,\n" +
			"outputs are checked against the agent's handoff.returnSchemaRef, rubric tasks are scored by --judge,\n" +
			"and the suite's thresholds decide. AGENT is an agentId of the pack in DIR (default .), or the path of\n" +
			"a standalone agent manifest. See docs/EVAL.md.\n\n" +
			"Exit status: 0 the suite passed, 1 it failed (or the agent or suite is invalid), 2 usage error,\n" +
			"3 a file could not be read or the model endpoint failed.",
		Example: "  wopkit eval ./hello vendor.acme.hello.assistant --model echo\n" +
			"  wopkit eval ./hello assistant --model replay:outputs.json --json\n" +
			"  OPENAI_API_KEY=… wopkit eval ./hello assistant --model openai:https://api.openai.com/v1#gpt-4o-mini --record outputs.json",
		Args: usageArgs(cobra.RangeArgs(1, 2)),
		PreRunE: func(*cobra.Command, []string) error {
			if o.Model == "" {
				return usageErr("eval needs --model", "use --model echo to check the plumbing, replay:FILE for recorded outputs, or openai:BASEURL#MODEL")
			}
			if (o.PriceIn >= 0) != (o.PriceOut >= 0) {
				return usageErr("give both --price-per-1k-in and --price-per-1k-out, or neither", "the cost needs the price of both kinds of tokens")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, agent := ".", args[0]
			if len(args) == 2 {
				dir, agent = args[0], args[1]
			}
			if o.progressOut == nil {
				if f, ok := cmd.ErrOrStderr().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
					o.progressOut = f
				}
			}
			return runEval(cmd.Context(), cmd.OutOrStdout(), o, dir, agent)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runEval(ctx context.Context, out io.Writer, o *evalOptions, dir, agent string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	mo := o.modelOpts
	mo.APIKeyEnv, mo.Timeout = o.APIKeyEnv, o.Timeout
	model, err := eval.ParseModel(o.Model, mo)
	if err != nil {
		return err
	}
	t, err := eval.Load(eval.LoadOptions{Dir: dir, Agent: agent, SuiteFile: o.Suite})
	if err != nil {
		return err
	}
	ro := eval.Options{PricePer1KIn: o.PriceIn, PricePer1KOut: o.PriceOut}
	if o.Judge != "" {
		if ro.Judge, err = eval.ParseModel(o.Judge, mo); err != nil {
			return err
		}
		if !ro.Judge.Live() {
			return usageErr("--judge "+o.Judge+" is not a model that can judge", "give an openai:BASEURL#MODEL judge")
		}
	}
	var events []eval.Event
	ro.Event = func(e eval.Event) { events = append(events, e) }
	if model.Live() && o.progressOut != nil {
		ro.Progress = func(done, total int, taskID string) {
			fmt.Fprintf(o.progressOut, "\r\x1b[Keval: %d/%d %s", done+1, total, taskID)
		}
	}
	res, err := eval.Run(ctx, t, model, ro)
	if ro.Progress != nil {
		fmt.Fprint(o.progressOut, "\r\x1b[K")
	}
	if err != nil {
		return err
	}
	for _, w := range []struct {
		path string
		data []byte
	}{{o.Events, eval.EventLines(events)}, {o.Report, eval.Report(t, res)}, {o.Record, eval.Record(res)}} {
		if w.path == "" {
			continue
		}
		if err := atomicfile.WriteFile(w.path, w.data, 0o644); err != nil {
			return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", w.path)
		}
	}
	if o.JSON {
		if err := writeJSON(out, res.Summary); err != nil {
			return err
		}
	} else if _, err := io.WriteString(out, eval.Text(t, res)); err != nil {
		return err
	}
	if !res.Summary.Passed {
		return silenced(werr.New(werr.Invalid, eval.CodeSuiteFailed, "suite %s did not pass", res.Summary.SuiteID))
	}
	return nil
}
