package eval

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/werr"
)

// fakeOpenAI is an OpenAI-compatible server on 127.0.0.1 whose behaviour
// the request's model picks: "text" answers text, "tools" calls
// web.search once and answers with what the tool returned, "multi" calls
// two tools over two rounds, "rogue" calls a tool outside the allowlist,
// "greedy" calls notes.lookup until the fixtures run out, "flaky" answers
// 429 then 503 then succeeds, "malformed" answers a body that is not JSON,
// "stall" never answers, "judge" answers YES. It records what it was sent.
type fakeOpenAI struct {
	t        *testing.T
	srv      *httptest.Server
	calls    atomic.Int32
	flaky    atomic.Int32
	requests chan chatRequest
	auth     chan string
}

func newFake(t *testing.T) *fakeOpenAI {
	f := &fakeOpenAI{t: t, requests: make(chan chatRequest, 100), auth: make(chan string, 100)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOpenAI) model(name string, o ModelOptions) Model {
	f.t.Helper()
	o.Getenv = func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "sk-test-secret"
		}
		return ""
	}
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	m, err := ParseModel("openai:"+f.srv.URL+"/v1#"+name, o)
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

func textAnswer(s string) string {
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": s}, "finish_reason": "stop"}},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20}})
	return string(b)
}

func toolAnswer(calls ...[2]string) string {
	var tc []any
	for i, c := range calls {
		tc = append(tc, map[string]any{"id": "call_" + c[0] + string(rune('a'+i)), "type": "function", "function": map[string]any{"name": c[0], "arguments": c[1]}})
	}
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": nil, "tool_calls": tc}, "finish_reason": "tool_calls"}},
		"usage": map[string]any{"prompt_tokens": 50, "completion_tokens": 10}})
	return string(b)
}

func (f *fakeOpenAI) serve(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.requests <- req
	f.auth <- r.Header.Get("Authorization")
	var tools []chatMessage
	for _, m := range req.Messages {
		if m.Role == "tool" {
			tools = append(tools, m)
		}
	}
	switch req.Model {
	case "text":
		io.WriteString(w, textAnswer(`{"answer":"42"}`))
	case "judge":
		if *req.Messages[0].Content == SafetySystemPrompt {
			if strings.Contains(*req.Messages[1].Content, "rm -rf") {
				io.WriteString(w, textAnswer("UNSAFE: Jailbreak."))
			} else {
				io.WriteString(w, textAnswer("SAFE"))
			}
			return
		}
		io.WriteString(w, textAnswer("YES."))
	case "tools":
		if len(tools) == 0 {
			io.WriteString(w, toolAnswer([2]string{"openwop_web_search", `{"q":"capital of France"}`}))
			return
		}
		io.WriteString(w, textAnswer("From the search: "+*tools[0].Content))
	case "multi":
		switch len(tools) {
		case 0:
			io.WriteString(w, toolAnswer([2]string{"openwop_web_search", `{}`}))
		case 1:
			io.WriteString(w, toolAnswer([2]string{"mcp_notes_lookup", `{}`}))
		default:
			io.WriteString(w, textAnswer("search said "+*tools[0].Content+"; notes said "+*tools[1].Content))
		}
	case "rogue":
		io.WriteString(w, toolAnswer([2]string{"shell_exec", `{"cmd":"rm -rf /"}`}))
	case "greedy":
		io.WriteString(w, toolAnswer([2]string{"mcp_notes_lookup", `{}`}))
	case "flaky":
		switch f.flaky.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "0")
			http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
		case 2:
			http.Error(w, "upstream down", http.StatusServiceUnavailable)
		default:
			io.WriteString(w, textAnswer("hello after retries"))
		}
	case "always429":
		http.Error(w, "rate limited", http.StatusTooManyRequests)
	case "malformed":
		io.WriteString(w, `{"choices": [ this is not json`)
	case "stall":
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	default:
		http.Error(w, "unknown model", http.StatusNotFound)
	}
}

func drain[T any](c chan T) []T {
	var out []T
	for {
		select {
		case v := <-c:
			out = append(out, v)
		default:
			return out
		}
	}
}

// taskIndex is the index of the task of the test pack's suite.
func taskIndex(t *testing.T, tg *Target, id string) int {
	for i, task := range tg.Suite.Tasks {
		if task.TaskID == id {
			return i
		}
	}
	t.Fatalf("no task %s", id)
	return -1
}

// TestOpenAIText: the system prompt from systemPromptRef, the input as the
// user message, the allowlisted tools as functions, the key as a bearer
// token; the completion's text is the output and its usage counted.
func TestOpenAIText(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	tg := loadTestPack(t)
	ans, err := f.model("text", ModelOptions{}).Answer(context.Background(), tg, taskIndex(t, tg, "exact-answer"))
	if err != nil {
		t.Fatal(err)
	}
	if ans.Output != `{"answer":"42"}` || ans.Usage == nil || ans.Usage.PromptTokens != 100 || !ans.Measured {
		t.Errorf("answer %+v", ans)
	}
	reqs := drain(f.requests)
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != "text" || len(r.Messages) != 2 || r.Messages[0].Role != "system" || !strings.Contains(*r.Messages[0].Content, "You are a helpful assistant") {
		t.Errorf("system prompt not sent from prompts/assistant.md: %+v", r.Messages)
	}
	if u := r.Messages[1]; u.Role != "user" || *u.Content != `{"task":"What is 6 times 7?"}` {
		t.Errorf("user message %+v", u)
	}
	if len(r.Tools) != 2 || r.Tools[0].Function.Name != "openwop_web_search" || r.Tools[1].Function.Name != "mcp_notes_lookup" {
		t.Errorf("tools offered: %+v", r.Tools)
	}
	if a := drain(f.auth); len(a) != 1 || a[0] != "Bearer sk-test-secret" {
		t.Errorf("authorization %q", a)
	}
}

// TestOpenAIToolCalls: one round (web.search answered from its fixture,
// the memory seed sent as prior context) and several rounds (two tools in
// turn); a tool outside the allowlist and a tool without fixtures left
// fail the task, naming the tool, and the run goes on.
func TestOpenAIToolCalls(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	tg := loadTestPack(t)
	i := taskIndex(t, tg, "uses-search")
	ans, err := f.model("tools", ModelOptions{}).Answer(context.Background(), tg, i)
	if err != nil || ans.Failure != "" {
		t.Fatalf("%v %s", err, ans.Failure)
	}
	if ans.Output != `From the search: {"results":["Paris is the capital of France."]}` {
		t.Errorf("output %q: the fixture was not what the tool answered", ans.Output)
	}
	reqs := drain(f.requests)
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	first, second := reqs[0].Messages, reqs[1].Messages
	if len(first) != 3 || !strings.Contains(*first[1].Content, `{"kind":"fact","text":"The user prefers short answers."}`) {
		t.Errorf("memory seed not sent as prior context: %+v", first)
	}
	last := second[len(second)-1]
	if n := len(second); n != 5 || second[3].Role != "assistant" || len(second[3].ToolCalls) != 1 || last.Role != "tool" || last.ToolCallID != "call_openwop_web_searcha" {
		t.Errorf("second round messages: %+v", second)
	}
	if ans.Usage.PromptTokens != 150 || ans.Usage.CompletionTokens != 30 {
		t.Errorf("usage not summed over the rounds: %+v", ans.Usage)
	}

	ans, err = f.model("multi", ModelOptions{}).Answer(context.Background(), tg, i)
	if err != nil || ans.Output != `search said {"results":["Paris is the capital of France."]}; notes said no notes` {
		t.Errorf("several rounds: %v %q %s", err, ans.Output, ans.Failure)
	}
	ans, err = f.model("rogue", ModelOptions{}).Answer(context.Background(), tg, i)
	if err != nil || !strings.Contains(ans.Failure, `"shell_exec", which is not in the agent's toolAllowlist`) {
		t.Errorf("a tool outside the allowlist: %v %q", err, ans.Failure)
	}
	ans, err = f.model("greedy", ModelOptions{}).Answer(context.Background(), tg, i)
	if err != nil || !strings.Contains(ans.Failure, "mcp:notes.lookup, for which the task has no (more) fixtures.toolResponses") {
		t.Errorf("a tool without fixtures left: %v %q", err, ans.Failure)
	}
}

// TestOpenAIRetries: 429 then 503 are retried, then the answer is used;
// an endpoint that keeps answering 429 fails after the bounded retries.
func TestOpenAIRetries(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	tg := loadTestPack(t)
	ans, err := f.model("flaky", ModelOptions{}).Answer(context.Background(), tg, 0)
	if err != nil || ans.Output != "hello after retries" {
		t.Fatalf("%v %+v", err, ans)
	}
	if n := len(drain(f.requests)); n != 3 {
		t.Errorf("%d requests, want 3 (429, 503, success)", n)
	}
	_, err = f.model("always429", ModelOptions{Retries: 2}).Answer(context.Background(), tg, 0)
	if werr.CodeOf(err) != CodeModelError || !strings.Contains(err.Error(), "after 2 retries") {
		t.Errorf("got %v", err)
	}
	if n := len(drain(f.requests)); n != 3 {
		t.Errorf("%d requests, want 3 (one and two retries)", n)
	}
}

// TestOpenAIFailures: a body that is not a chat completion, a stall past
// the timeout, an endpoint that is down, and a key that never shows in a
// message.
func TestOpenAIFailures(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	tg := loadTestPack(t)
	_, err := f.model("malformed", ModelOptions{}).Answer(context.Background(), tg, 0)
	if werr.CodeOf(err) != CodeModelResponse {
		t.Errorf("malformed: %v", err)
	}
	_, err = f.model("stall", ModelOptions{Timeout: 200 * time.Millisecond}).Answer(context.Background(), tg, 0)
	if werr.CodeOf(err) != CodeModelTimeout {
		t.Errorf("stall: %v", err)
	}
	down := httptest.NewServer(http.NotFoundHandler())
	url := down.URL
	down.Close()
	m, err := ParseModel("openai:"+url+"/v1#text", ModelOptions{Getenv: func(string) string { return "sk-test-secret" }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Answer(context.Background(), tg, 0)
	if werr.CodeOf(err) != CodeModelUnreachable || werr.ExitCode(err) != 3 {
		t.Errorf("down: %v", err)
	}
	for _, e := range []error{err} {
		if strings.Contains(e.Error(), "sk-test-secret") {
			t.Errorf("the key is in a message: %v", e)
		}
	}
	if _, err := ParseModel("openai:http://example.com/v1#m", ModelOptions{}); werr.CodeOf(err) != "registry_insecure" {
		t.Errorf("plain http to a remote host must be refused (the key would cross the network): %v", err)
	}
	if _, err := ParseModel("openai:https://example.com/v1", ModelOptions{}); werr.CodeOf(err) != CodeModelInvalid {
		t.Errorf("no #MODEL: %v", err)
	}
}
