package eval

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Answer is what a model gave for one task.
type Answer struct {
	// Output is the agent's output: a string (a completion's text) or any
	// JSON value (a recorded output, an echoed input).
	Output any
	// Usage is the tokens the task took, when the model says.
	Usage *Usage
	// Latency is the task's wall-clock time, when measured (live models).
	Latency  time.Duration
	Measured bool
	// Failure, when set, fails the task without an output worth scoring
	// (a tool call outside the allowlist or without a fixture, a replay
	// file without this task); the run goes on.
	Failure string
}

// Usage is a task's token count.
type Usage struct {
	PromptTokens, CompletionTokens int
}

// Model answers the suite's tasks.
type Model interface {
	// Name is the model as --model named it (without a key: none is ever
	// in it).
	Name() string
	// Live reports whether answers come from a live endpoint (latency is
	// measured, a progress line is worth showing, --record is useful).
	Live() bool
	// Answer answers task i of t. An error stops the run (an endpoint
	// down, a broken answer); a task-level problem is Answer.Failure.
	Answer(ctx context.Context, t *Target, i int) (Answer, error)
}

// ModelOptions configure the adapters.
type ModelOptions struct {
	// APIKeyEnv names the environment variable holding the key of an
	// openai: endpoint ("" is OPENAI_API_KEY). The key is never printed.
	APIKeyEnv string
	// Getenv reads the environment (nil: os.Getenv).
	Getenv func(string) string
	// Timeout bounds one request (0: DefaultTimeout).
	Timeout time.Duration
	// Retries bounds the retries of a request answered 429 or 5xx (<0:
	// none; 0: DefaultRetries).
	Retries int
	// Backoff is the first retry's wait, doubled at each retry (0:
	// DefaultBackoff); a Retry-After of up to MaxRetryAfter wins.
	Backoff time.Duration
	// Transport carries the requests (nil: the HTTP policy's own).
	Transport http.RoundTripper
}

// The adapters' defaults.
const (
	DefaultTimeout = 2 * time.Minute
	DefaultRetries = 3
	DefaultBackoff = time.Second
	MaxRetryAfter  = 30 * time.Second
	// MaxResponse bounds one answer's body.
	MaxResponse = 4 << 20
	// MaxToolRounds bounds the tool-call rounds of one task.
	MaxToolRounds = 8
)

// ParseModel returns the adapter a --model (or --judge) value names:
// replay:FILE, echo, or openai:BASEURL#MODEL.
func ParseModel(spec string, o ModelOptions) (Model, error) {
	kind, rest, _ := strings.Cut(spec, ":")
	switch {
	case spec == "echo":
		return echoModel{}, nil
	case kind == "replay" && rest != "":
		return newReplay(rest)
	case kind == "openai" && rest != "":
		return newOpenAI(rest, o)
	}
	return nil, werr.New(werr.Usage, CodeModelInvalid, "--model %q is not a model wopkit knows", spec).
		WithHint("use replay:FILE (recorded outputs), echo (the input back) or openai:BASEURL#MODEL (an OpenAI-compatible endpoint)")
}

// echoModel answers each task with its input: it checks the plumbing (the
// suite loads, every task is scored), not the agent.
type echoModel struct{}

func (echoModel) Name() string { return "echo" }
func (echoModel) Live() bool   { return false }
func (echoModel) Answer(_ context.Context, t *Target, i int) (Answer, error) {
	return Answer{Output: t.Inputs[i]}, nil
}

// replayModel answers each task with its recorded output: a JSON object
// mapping each taskId to the agent's output (a string or any JSON value),
// as --record writes it.
type replayModel struct {
	file    string
	outputs *jsvalue.Object
}

func newReplay(file string) (Model, error) {
	b, err := untrusted.ReadNamed(file, maxFile)
	if err != nil {
		return nil, readErr(err, file)
	}
	v, err := jsvalue.Parse(b)
	o, ok := v.(*jsvalue.Object)
	if err != nil || !ok {
		return nil, werr.New(werr.Invalid, CodeReplayInvalid, "the replay file %s is not a JSON object of outputs", file).
			WithHint(`map each taskId to the agent's output, such as {"says-hello": "hello!"} (--record writes one)`)
	}
	return &replayModel{file: file, outputs: o}, nil
}

func (r *replayModel) Name() string { return "replay:" + r.file }
func (r *replayModel) Live() bool   { return false }
func (r *replayModel) Answer(_ context.Context, t *Target, i int) (Answer, error) {
	out, ok := r.outputs.Get(t.Suite.Tasks[i].TaskID)
	if !ok {
		return Answer{Failure: "the replay file has no output for this task"}, nil
	}
	return Answer{Output: out}, nil
}
