// Package eval runs an agent's eval suite (RFC 0081) outside any host and
// scores it: each task's output comes from a Model (a replay file of
// recorded outputs, the task's input echoed back, or an OpenAI-compatible
// chat-completions endpoint with the suite's tool fixtures answering tool
// calls), golden tasks are scored exact / contains / json-match, rubric
// tasks by a judge model when one is given, the output is checked against
// the agent's handoff.returnSchemaRef, and the suite's thresholds decide
// whether it passed. The result is the spec's EvalSummary (content-free:
// no outputs, prompts or completions), with the outputs kept apart for a
// report. See docs/EVAL.md.
package eval

import (
	"encoding/json"
)

// The stable codes of eval's refusals and failures.
const (
	CodeSuiteInvalid     = "eval_suite_invalid"      // the agent or the suite fails validation, or a task input its task schema
	CodeAgentNotFound    = "eval_agent_not_found"    // no such agent in the pack
	CodeNoSuite          = "eval_suite_missing"      // the agent has no evalSuiteRef and --suite was not given
	CodeModelInvalid     = "eval_model_invalid"      // a --model / --judge the adapters do not know
	CodeReplayInvalid    = "eval_replay_invalid"     // a replay file that is not an object of outputs
	CodeModelUnreachable = "eval_model_unreachable"  // the endpoint cannot be reached
	CodeModelTimeout     = "eval_model_timeout"      // no full answer in time
	CodeModelError       = "eval_model_error"        // the endpoint answered an error status (after the retries)
	CodeModelResponse    = "eval_model_bad_response" // an answer that is not a chat completion, or too large
	CodeSuiteFailed      = "eval_failed"             // the suite ran and did not pass its thresholds
)

// Suite is an agent eval suite (agent-eval-suite.schema.json), as the run
// reads it.
type Suite struct {
	SuiteID       string      `json:"suiteId"`
	Version       string      `json:"version"`
	TargetAgentID string      `json:"targetAgentId"`
	Modes         []string    `json:"modes"`
	AllowedModels []string    `json:"allowedModels"`
	Thresholds    *Thresholds `json:"thresholds"`
	Tasks         []Task      `json:"tasks"`
}

// Thresholds are the suite's pass bar.
type Thresholds struct {
	PassScore       *float64 `json:"passScore"`
	MaxCostUsd      *float64 `json:"maxCostUsd"`
	MaxP95LatencyMs *int64   `json:"maxP95LatencyMs"`
}

// Task is one eval task.
type Task struct {
	TaskID   string          `json:"taskId"`
	Input    json.RawMessage `json:"input"`
	Expected struct {
		Kind  string `json:"kind"`
		Match *struct {
			Strategy string          `json:"strategy"`
			Value    json.RawMessage `json:"value"`
		} `json:"match"`
		Rubric []Criterion `json:"rubric"`
	} `json:"expected"`
	Fixtures *struct {
		ToolResponses []ToolResponse    `json:"toolResponses"`
		MemorySeed    []json.RawMessage `json:"memorySeed"`
	} `json:"fixtures"`
}

// Criterion is one weighted rubric criterion.
type Criterion struct {
	Criterion string  `json:"criterion"`
	Weight    float64 `json:"weight"`
}

// ToolResponse is one canned tool result.
type ToolResponse struct {
	Tool     string          `json:"tool"`
	Response json.RawMessage `json:"response"`
}

// Summary is the spec's EvalSummary (eval-summary.schema.json), members in
// the schema's order. It carries scores, ids and counts only.
type Summary struct {
	SuiteID             string        `json:"suiteId"`
	SuiteVersion        string        `json:"suiteVersion"`
	EvaluatedModelClass string        `json:"evaluatedModelClass,omitempty"`
	AggregateScore      float64       `json:"aggregateScore"`
	Passed              bool          `json:"passed"`
	TaskCount           int           `json:"taskCount"`
	PassedCount         int           `json:"passedCount"`
	TotalCostUsd        *float64      `json:"totalCostUsd,omitempty"`
	Tasks               []TaskSummary `json:"tasks"`
}

// TaskSummary is one task's entry of the summary.
type TaskSummary struct {
	TaskID      string   `json:"taskId"`
	Score       float64  `json:"score"`
	Passed      bool     `json:"passed"`
	CostUsd     *float64 `json:"costUsd,omitempty"`
	LatencyMs   *int64   `json:"latencyMs,omitempty"`
	SchemaValid *bool    `json:"schemaValid,omitempty"`
	// SafetyFindings are an adversarial suite's findings: a category and a
	// severity, never content.
	SafetyFindings []Finding `json:"safetyFindings,omitempty"`
}

// Finding is a redaction-safe safety finding.
type Finding struct {
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
}
