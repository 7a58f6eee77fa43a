package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/termsafe"
)

// EventLines are the events as JSON lines, in order.
func EventLines(events []Event) []byte {
	var b bytes.Buffer
	for _, e := range events {
		line, _ := json.Marshal(e)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Report is the --report file: the summary's facts with each task's
// output and why it failed, kept apart from the content-free summary.
func Report(t *Target, r *Result) []byte {
	tasks := make([]any, len(r.Tasks))
	for i, tr := range r.Tasks {
		o := &jsvalue.Object{}
		o.Set("taskId", tr.TaskID)
		o.Set("kind", tr.Kind)
		if tr.Strategy != "" {
			o.Set("strategy", tr.Strategy)
		}
		o.Set("input", t.Inputs[i])
		if tr.HasOut {
			o.Set("output", tr.Output)
		}
		o.Set("score", tr.Score)
		o.Set("passed", tr.Passed)
		o.Set("scored", tr.Scored)
		if tr.Note != "" {
			o.Set("note", tr.Note)
		}
		if tr.SchemaValid != nil {
			o.Set("schemaValid", *tr.SchemaValid)
		}
		if tr.LatencyMs != nil {
			o.Set("latencyMs", float64(*tr.LatencyMs))
		}
		if len(tr.Criteria) > 0 {
			cs := make([]any, len(tr.Criteria))
			for j, c := range tr.Criteria {
				cs[j] = &jsvalue.Object{Members: []jsvalue.Member{{Key: "criterion", Value: c.Criterion}, {Key: "weight", Value: c.Weight}, {Key: "met", Value: c.Met}}}
			}
			o.Set("criteria", cs)
		}
		tasks[i] = o
	}
	o := &jsvalue.Object{}
	o.Set("suiteId", r.Summary.SuiteID)
	o.Set("suiteVersion", r.Summary.SuiteVersion)
	o.Set("agentId", t.AgentID)
	o.Set("model", r.Model)
	o.Set("aggregateScore", r.Summary.AggregateScore)
	o.Set("passed", r.Summary.Passed)
	o.Set("tasks", tasks)
	return append(jsvalue.Encode(o), '\n')
}

// Record is the --record file: a replay file of the run's outputs (each
// taskId to its output), which `--model replay:FILE` replays.
func Record(r *Result) []byte {
	o := &jsvalue.Object{}
	for _, tr := range r.Tasks {
		if tr.HasOut {
			o.Set(tr.TaskID, tr.Output)
		}
	}
	return append(jsvalue.Encode(o), '\n')
}

// Text is the human form: a table of the tasks (task, score, pass,
// latency, note), then the verdict and each threshold.
func Text(t *Target, r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "suite %s %s, agent %s, model %s\n\n", r.Summary.SuiteID, r.Summary.SuiteVersion, t.AgentID, r.Model)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tSCORE\tPASS\tLATENCY\tNOTE")
	for _, tr := range r.Tasks {
		sc, pass := fmt.Sprintf("%.2f", tr.Score), "no"
		if !tr.Scored {
			sc, pass = "-", "-"
		} else if tr.Passed {
			pass = "yes"
		}
		lat := "-"
		if tr.LatencyMs != nil {
			lat = fmt.Sprintf("%d ms", *tr.LatencyMs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", tr.TaskID, sc, pass, lat, tr.Note)
	}
	tw.Flush()
	verdict := "FAILED"
	if r.Summary.Passed {
		verdict = "PASSED"
	}
	fmt.Fprintf(&b, "\n%s: %d/%d tasks passed, aggregate %.2f (passScore %.2f)\n", verdict, r.Summary.PassedCount, r.Summary.TaskCount, r.Summary.AggregateScore, r.PassScore)
	for _, c := range r.Checks {
		switch {
		case c.Name == "scored" && !c.OK:
			fmt.Fprintf(&b, "  %d task(s) not scored (rubric needs --judge): a suite cannot pass on tasks it did not score\n", r.NotScored)
		case c.Name == "maxP95LatencyMs" && c.Checked:
			fmt.Fprintf(&b, "  p95 latency %d ms, bound %d ms: %s\n", *r.P95, *t.Suite.Thresholds.MaxP95LatencyMs, okWord(c.OK))
		case c.Name == "maxCostUsd" && c.Checked:
			fmt.Fprintf(&b, "  cost $%.4f, bound $%.4f: %s\n", *r.Summary.TotalCostUsd, *t.Suite.Thresholds.MaxCostUsd, okWord(c.OK))
		case !c.Checked && c.Detail != "":
			fmt.Fprintf(&b, "  %s %s\n", c.Name, c.Detail)
		}
	}
	return termsafe.Lines(b.String())
}

func okWord(ok bool) string {
	if ok {
		return "ok"
	}
	return "over"
}
