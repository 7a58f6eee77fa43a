package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scaffoldEvalPack writes a pack, an agent and its eval suite as `wopkit
// new` scaffolds them, and returns the pack folder.
func scaffoldEvalPack(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hello")
	for _, args := range [][]string{
		{"new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"},
		{"new", "agent", "--yes", "--pack", dir},
		{"new", "eval", "--yes", "--pack", dir},
	} {
		out, errOut, code := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		if args[1] == "eval" && !strings.Contains(out, "wopkit eval "+dir+" vendor.acme.hello.assistant --model echo") {
			t.Errorf("new eval's next steps do not name the command that runs the suite:\n%s", out)
		}
	}
	return dir
}

// TestEvalScaffoldedSuite: the suite the wizard scaffolds passes with
// --model echo out of the box and with a replay file, and fails (exit 1)
// with a wrong golden value; --json is the summary alone, --events the
// events in order, --record a replay file that replays.
func TestEvalScaffoldedSuite(t *testing.T) {
	t.Parallel()
	dir := scaffoldEvalPack(t)
	tmp := t.TempDir()

	out, errOut, code := runCmd(t, "eval", dir, "vendor.acme.hello.assistant", "--model", "echo")
	if code != 0 || !strings.Contains(out, "PASSED: 1/1 tasks passed") || !strings.Contains(out, "says-hello") {
		t.Fatalf("echo: exit %d\n%s%s", code, out, errOut)
	}

	replay := filepath.Join(tmp, "outputs.json")
	write(t, replay, []byte(`{"says-hello": {"answer": "hello, world"}}`))
	events := filepath.Join(tmp, "events.jsonl")
	record := filepath.Join(tmp, "recorded.json")
	out, errOut, code = runCmd(t, "eval", dir, "assistant", "--model", "replay:"+replay, "--json", "--events", events, "--record", record)
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != 0 || sum["passed"] != true || strings.Count(out, "\n") != 1 {
		t.Fatalf("replay --json: exit %d %v\n%s%s", code, err, out, errOut)
	}
	if strings.Contains(out, "hello, world") {
		t.Errorf("the summary carries the output: %s", out)
	}
	ev, _ := os.ReadFile(events)
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(string(ev)), "\n") {
		var e struct{ Type string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("event line %q: %v", line, err)
		}
		types = append(types, e.Type)
	}
	if strings.Join(types, ",") != "eval.started,eval.scored,eval.completed" {
		t.Errorf("events %v", types)
	}
	if _, _, code = runCmd(t, "eval", dir, "assistant", "--model", "replay:"+record); code != 0 {
		t.Errorf("the recorded file does not replay to a pass: exit %d", code)
	}

	// A wrong golden value: the suite fails, exit 1.
	suite := filepath.Join(dir, "evals", "assistant.json")
	b, err := os.ReadFile(suite)
	if err != nil {
		t.Fatal(err)
	}
	write(t, suite, []byte(strings.Replace(string(b), `"value": "hello"`, `"value": "goodbye"`, 1)))
	out, _, code = runCmd(t, "eval", dir, "assistant", "--model", "replay:"+replay)
	if code != 1 || !strings.Contains(out, "FAILED: 0/1 tasks passed") || !strings.Contains(out, "output does not contain the expected value") {
		t.Errorf("wrong golden value: exit %d\n%s", code, out)
	}
	if _, _, code = runCmd(t, "eval", dir, "assistant", "--model", "echo"); code != 1 {
		t.Errorf("wrong golden value under echo: exit %d, want 1", code)
	}
}

// TestEvalUsage: --model is required, an unknown model is a usage error,
// prices come in pairs.
func TestEvalUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"eval", "x"},
		{"eval", "x", "--model", "gpt"},
		{"eval", "x", "--model", "echo", "--price-per-1k-in", "1"},
	} {
		if _, _, code := runCmd(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestEvalStandaloneAgent: a standalone agent manifest scaffolded with its
// suite is run by its file, as `new`'s next steps say.
func TestEvalStandaloneAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, code := runCmd(t, "new", "agent", "--yes", "--dir", dir, "--set", "id=vendor.acme.writer", "--set", "modelClass=writing", "--set", "eval=true")
	manifest := filepath.ToSlash(filepath.Join(dir, "writer.agent.json"))
	if code != 0 || !strings.Contains(out, "wopkit eval "+manifest+" --model echo") {
		t.Fatalf("exit %d, next steps do not name the eval command:\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCmd(t, "eval", manifest, "--model", "echo", "--json")
	if code != 0 || !strings.Contains(out, `"suiteId":"vendor.acme.evals.writer"`) {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestEvalLiveRecordReplay: a live run against an OpenAI-compatible server
// on 127.0.0.1 (the key from --api-key-env's variable, sent as a bearer
// token, never printed) recorded with --record, then replayed to the same
// verdict. It sets an environment variable, so it runs alone.
func TestEvalLiveRecordReplay(t *testing.T) {
	dir := scaffoldEvalPack(t)
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		io.WriteString(w, `{"choices": [{"message": {"role": "assistant", "content": "{\"answer\": \"hello from the model\"}"}, "finish_reason": "stop"}],
			"usage": {"prompt_tokens": 12, "completion_tokens": 5}}`)
	}))
	defer srv.Close()
	t.Setenv("WOPKIT_TEST_EVAL_KEY", "sk-never-printed")
	record := filepath.Join(t.TempDir(), "recorded.json")
	out, errOut, code := runCmd(t, "eval", dir, "assistant", "--model", "openai:"+srv.URL+"/v1#local", "--api-key-env", "WOPKIT_TEST_EVAL_KEY",
		"--record", record, "--price-per-1k-in", "0.5", "--price-per-1k-out", "1.5", "--json")
	if code != 0 || auth != "Bearer sk-never-printed" || strings.Contains(out+errOut, "sk-never-printed") {
		t.Fatalf("live: exit %d, auth %q\n%s%s", code, auth, out, errOut)
	}
	var sum struct {
		TotalCostUsd float64
		Tasks        []struct{ LatencyMs *int64 }
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.TotalCostUsd != 0.0135 || len(sum.Tasks) != 1 || sum.Tasks[0].LatencyMs == nil {
		t.Errorf("live summary: %v %s", err, out)
	}
	rec, _ := os.ReadFile(record)
	if string(rec) != `{"says-hello":"{\"answer\": \"hello from the model\"}"}`+"\n" {
		t.Errorf("recorded %s", rec)
	}
	if _, _, code := runCmd(t, "eval", dir, "assistant", "--model", "replay:"+record); code != 0 {
		t.Errorf("the recording does not replay to a pass: exit %d", code)
	}
}
