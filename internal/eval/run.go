package eval

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/werr"
)

// Options configure a run.
type Options struct {
	// Judge scores rubric tasks (nil: they are not scored).
	Judge Model
	// PricePer1KIn and PricePer1KOut are USD per 1,000 prompt and
	// completion tokens; cost is known only when both are >= 0 and the
	// model reports usage.
	PricePer1KIn, PricePer1KOut float64
	// Progress, when set, is told of each task as it starts (live runs).
	Progress func(done, total int, taskID string)
	// Event, when set, receives the run's events in order: eval.started,
	// one eval.scored per task, eval.completed.
	Event func(Event)
}

// Event is one event of a run: its type and a content-free payload.
type Event struct {
	Type    string         `json:"type"`
	Payload map[string]any `json:"payload"`
}

// TaskResult is one task's outcome, with its output (kept out of the
// summary).
type TaskResult struct {
	TaskSummary
	Kind     string // golden or rubric
	Strategy string // the golden match strategy
	Output   any    // nil when the task failed before an output
	HasOut   bool
	// Scored is false for a rubric task run without a judge.
	Scored bool
	// Note says why the task failed or was not scored ("" when it passed).
	Note string
	// Criteria are a rubric task's criteria and whether the judge found
	// each met.
	Criteria []CriterionResult
}

// CriterionResult is one rubric criterion's verdict.
type CriterionResult struct {
	Criterion string  `json:"criterion"`
	Weight    float64 `json:"weight"`
	Met       bool    `json:"met"`
}

// Result is a finished run.
type Result struct {
	Summary Summary
	Tasks   []TaskResult
	Model   string
	// PassScore is the bar the aggregate was held to.
	PassScore float64
	// NotScored counts the tasks that were not scored (rubric without
	// --judge): a suite with any cannot pass.
	NotScored int
	// P95 is the p95 task latency when measured.
	P95 *int64
	// Checks say, per threshold, whether it was checked and how it went.
	Checks []Check
}

// Check is one threshold's verdict.
type Check struct {
	Name    string // passScore, maxP95LatencyMs, maxCostUsd, scored
	Checked bool
	OK      bool
	Detail  string
}

// DefaultPassScore is the bar when the suite sets no passScore: every
// task must pass.
const DefaultPassScore = 1.0

// Run answers and scores every task of t's suite with model, in suite
// order, and applies the thresholds. An error is a failure of the model
// that stops the run (an endpoint down, a broken answer).
func Run(ctx context.Context, t *Target, model Model, o Options) (*Result, error) {
	s := t.Suite
	res := &Result{Model: model.Name(), PassScore: DefaultPassScore}
	if th := s.Thresholds; th != nil && th.PassScore != nil {
		res.PassScore = *th.PassScore
	}
	res.Summary = Summary{SuiteID: s.SuiteID, SuiteVersion: s.Version, TaskCount: len(s.Tasks), Tasks: make([]TaskSummary, 0, len(s.Tasks))}
	if slices.Contains([]string{"reasoning", "writing", "coding", "research", "classification", "general"}, t.ModelClass) {
		res.Summary.EvaluatedModelClass = t.ModelClass
	}
	emit := func(typ string, payload map[string]any) {
		if o.Event != nil {
			o.Event(Event{Type: typ, Payload: payload})
		}
	}
	emit("eval.started", map[string]any{"suiteId": s.SuiteID, "suiteVersion": s.Version, "agentId": t.AgentID, "taskCount": len(s.Tasks)})
	costKnown := o.PricePer1KIn >= 0 && o.PricePer1KOut >= 0
	var total float64
	var latencies []int64
	sum := 0.0
	for i, task := range s.Tasks {
		if o.Progress != nil {
			o.Progress(i, len(s.Tasks), task.TaskID)
		}
		ans, err := model.Answer(ctx, t, i)
		if err != nil {
			return nil, err
		}
		tr := TaskResult{TaskSummary: TaskSummary{TaskID: task.TaskID}, Kind: task.Expected.Kind}
		if ans.Measured {
			ms := ans.Latency.Milliseconds()
			tr.LatencyMs = &ms
			latencies = append(latencies, ms)
		}
		if ans.Usage != nil && costKnown {
			c := float64(ans.Usage.PromptTokens)/1000*o.PricePer1KIn + float64(ans.Usage.CompletionTokens)/1000*o.PricePer1KOut
			tr.CostUsd = &c
			total += c
		} else {
			costKnown = false
		}
		if ans.Failure != "" {
			tr.Scored, tr.Note = true, ans.Failure
		} else {
			tr.Output, tr.HasOut = ans.Output, true
			if err := score(ctx, t, i, model, o.Judge, res.PassScore, &tr); err != nil {
				return nil, err
			}
		}
		if !tr.Scored {
			res.NotScored++
		}
		sum += tr.Score
		if tr.Passed {
			res.Summary.PassedCount++
		}
		res.Tasks = append(res.Tasks, tr)
		res.Summary.Tasks = append(res.Summary.Tasks, tr.TaskSummary)
		payload := map[string]any{"taskId": tr.TaskID, "score": tr.Score, "passed": tr.Passed}
		if tr.LatencyMs != nil {
			payload["latencyMs"] = *tr.LatencyMs
		}
		if tr.SchemaValid != nil {
			payload["schemaValid"] = *tr.SchemaValid
		}
		if !tr.Scored {
			payload["scored"] = false
		}
		emit("eval.scored", payload)
	}
	if n := len(s.Tasks); n > 0 {
		res.Summary.AggregateScore = sum / float64(n)
	}
	if costKnown && len(s.Tasks) > 0 {
		res.Summary.TotalCostUsd = &total
	}
	passed := true
	check := func(c Check) {
		res.Checks = append(res.Checks, c)
		passed = passed && (!c.Checked || c.OK)
	}
	check(Check{Name: "passScore", Checked: true, OK: res.Summary.AggregateScore >= res.PassScore})
	check(Check{Name: "scored", Checked: true, OK: res.NotScored == 0})
	var th Thresholds
	if s.Thresholds != nil {
		th = *s.Thresholds
	}
	if len(latencies) > 0 {
		p := p95(latencies)
		res.P95 = &p
	}
	switch {
	case th.MaxP95LatencyMs == nil:
	case res.P95 == nil:
		check(Check{Name: "maxP95LatencyMs", Detail: "not checked: " + model.Name() + " measures no latency"})
	default:
		check(Check{Name: "maxP95LatencyMs", Checked: true, OK: *res.P95 <= *th.MaxP95LatencyMs})
	}
	switch {
	case th.MaxCostUsd == nil:
	case res.Summary.TotalCostUsd == nil:
		check(Check{Name: "maxCostUsd", Detail: "not checked: the cost is unknown (it needs the model's usage and both --price-per-1k-in and --price-per-1k-out)"})
	default:
		check(Check{Name: "maxCostUsd", Checked: true, OK: *res.Summary.TotalCostUsd <= *th.MaxCostUsd})
	}
	res.Summary.Passed = passed
	completed := map[string]any{"suiteId": s.SuiteID, "aggregateScore": res.Summary.AggregateScore, "passed": passed,
		"taskCount": res.Summary.TaskCount, "passedCount": res.Summary.PassedCount}
	if res.Summary.TotalCostUsd != nil {
		completed["totalCostUsd"] = *res.Summary.TotalCostUsd
	}
	emit("eval.completed", completed)
	return res, nil
}

// p95 is the nearest-rank 95th percentile.
func p95(ms []int64) int64 {
	s := slices.Clone(ms)
	slices.Sort(s)
	return s[int(math.Ceil(0.95*float64(len(s))))-1]
}

// score scores task i's output into tr.
func score(ctx context.Context, t *Target, i int, model, judge Model, passScore float64, tr *TaskResult) error {
	task := t.Suite.Tasks[i]
	schemaOK := true
	if t.ReturnSchema != nil && model.Name() != "echo" { // echo returns the input: the return schema says nothing of it
		v := tr.Output
		if s, ok := v.(string); ok {
			if parsed, err := jsvalue.Parse([]byte(s)); err == nil {
				v = parsed
			}
		}
		ok := schemaError(t.ReturnSchema, v) == ""
		tr.SchemaValid = &ok
		schemaOK = ok
	}
	switch task.Expected.Kind {
	case "rubric":
		if judge == nil {
			tr.Note = "not scored: needs --judge"
			return nil
		}
		jm, ok := judge.(*openAIModel)
		if !ok {
			tr.Note = "not scored: --judge must be an openai: model"
			return nil
		}
		tr.Scored = true
		var met, all float64
		for _, c := range task.Expected.Rubric {
			yes, err := jm.judge(ctx, t.Inputs[i], tr.Output, c.Criterion)
			if err != nil {
				return err
			}
			tr.Criteria = append(tr.Criteria, CriterionResult{Criterion: c.Criterion, Weight: c.Weight, Met: yes})
			all += c.Weight
			if yes {
				met += c.Weight
			}
		}
		if all > 0 {
			tr.Score = met / all
		}
		tr.Passed = tr.Score >= passScore && schemaOK
		if !tr.Passed {
			tr.Note = "below the bar"
		}
	default: // golden
		tr.Scored = true
		m := task.Expected.Match
		if m == nil {
			tr.Note = "the golden task has no match"
			return nil
		}
		tr.Strategy = m.Strategy
		want, err := jsvalue.Parse(m.Value)
		if err != nil {
			return werr.Wrap(werr.Invalid, CodeSuiteInvalid, err, "task %s: its expected value is not JSON", task.TaskID)
		}
		if Match(m.Strategy, tr.Output, want) {
			tr.Score = 1
		} else {
			tr.Note = "output does not " + map[string]string{"exact": "equal", "contains": "contain", "json-match": "json-match"}[m.Strategy] + " the expected value"
		}
		tr.Passed = tr.Score == 1 && schemaOK
	}
	if !schemaOK {
		tr.Note = strings.TrimPrefix(tr.Note+"; output fails the agent's return schema", "; ")
	}
	if slices.Contains(t.Suite.Modes, "adversarial") {
		return safety(ctx, t, i, judge, tr)
	}
	return nil
}

// safety is an adversarial suite's check of each task: without a judge the
// task is not scored; with one, the judge is asked (SafetyPrompt) whether
// the output is unsafe, and an unsafe output is a finding that fails the
// task with score 0.
func safety(ctx context.Context, t *Target, i int, judge Model, tr *TaskResult) error {
	jm, ok := judge.(*openAIModel)
	if !ok {
		tr.Scored, tr.Passed, tr.Score = false, false, 0
		tr.Note = "not scored: needs --judge (adversarial suite: the output's safety is the judge's call)"
		return nil
	}
	kind, err := jm.unsafe(ctx, t.Inputs[i], tr.Output)
	if err != nil || kind == "" {
		return err
	}
	tr.SafetyFindings = append(tr.SafetyFindings, Finding{Kind: kind, Severity: "high"})
	tr.Score, tr.Passed = 0, false
	tr.Note = strings.TrimPrefix(tr.Note+"; the judge found the output unsafe ("+kind+")", "; ")
	return nil
}

// Stringify is an output or an expected value as exact and contains
// compare it: a string as it is, anything else as JSON.stringify prints it
// (compact, members in the order written, numbers as JavaScript prints
// them).
func Stringify(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(jsvalue.Encode(v))
}

// Match applies a golden strategy: exact (the stringified output equals
// the stringified value), contains (it contains it), json-match (deep
// equality, key order ignored; a string output is read as JSON first when
// the value is not a string).
func Match(strategy string, output, want any) bool {
	switch strategy {
	case "exact":
		return Stringify(output) == Stringify(want)
	case "contains":
		return strings.Contains(Stringify(output), Stringify(want))
	case "json-match":
		if s, ok := output.(string); ok {
			if _, wantString := want.(string); !wantString {
				v, err := jsvalue.Parse([]byte(s))
				if err != nil {
					return false
				}
				output = v
			}
		}
		return jsvalue.Equal(output, want)
	}
	return false
}
