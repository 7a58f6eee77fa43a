package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sandbox"
	"github.com/openwop/wopkit/internal/wasmrun/wasmtest"
)

// needRunnable skips where node or the sandbox is missing.
func needRunnable(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: wopkit run needs node 20 or later")
	}
	if err := sandbox.Supported(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
}

// newHelloPack makes a node pack with its stored case.
func newHelloPack(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hello")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"); code != 0 {
		t.Fatalf("new pack: %s", errOut)
	}
	return dir
}

// TestRunCommand: the scaffolded node runs; --json has the documented
// members; a bad input, an unknown node and another runtime end with
// their exit codes.
func TestRunCommand(t *testing.T) {
	t.Parallel()
	needRunnable(t)
	dir := newHelloPack(t)
	in := filepath.Join(t.TempDir(), "in.json")
	os.WriteFile(in, []byte(`{"text":"hi"}`), 0o644)
	out, errOut, code := runCmd(t, "run", dir, "hello", "--input", in, "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("exit %d %v: %s %s", code, err, out, errOut)
	}
	for _, k := range []string{"node", "status", "outputs", "error", "interrupt", "events", "logs", "problems", "durationMs", "peakMemoryBytes"} {
		if _, ok := r[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, out)
		}
	}
	if o, _ := r["outputs"].(map[string]any); o["text"] != "HI" || r["status"] != "success" || r["node"] != "vendor.acme.hello.hello" {
		t.Errorf("got %s", out)
	}
	out, _, code = runCmd(t, "run", dir, "vendor.acme.hello.hello", "--input", in)
	if code != 0 || !strings.Contains(out, `"text": "HI"`) {
		t.Errorf("text: exit %d: %s", code, out)
	}
	os.WriteFile(in, []byte(`{"text": 1}`), 0o644)
	out, _, code = runCmd(t, "run", dir, "hello", "--input", in)
	if code != 1 || !strings.Contains(out, "node_input_invalid") || !strings.Contains(out, in+":1:10 /text") {
		t.Errorf("bad input: exit %d: %s", code, out)
	}
	if _, errOut, code := runCmd(t, "run", dir, "nope"); code != 2 || !strings.Contains(errOut, "vendor.acme.hello.hello") {
		t.Errorf("unknown node: exit %d: %s", code, errOut)
	}
	if _, _, code := runCmd(t, "run", dir, "hello", "--timeout", "soon"); code != 2 {
		t.Errorf("bad --timeout: exit %d", code)
	}
	pj := filepath.Join(dir, "pack.json")
	b, _ := os.ReadFile(pj)
	os.WriteFile(pj, []byte(strings.Replace(string(b), `"language": "javascript"`, `"language": "python"`, 1)), 0o644)
	if _, errOut, code := runCmd(t, "run", dir, "hello"); code != 1 || !strings.Contains(errOut, "unsupported_runtime") && !strings.Contains(errOut, "cannot run") {
		t.Errorf("python: exit %d: %s", code, errOut)
	}
}

// TestRunWithoutNode: no node on PATH is runtime_unavailable, exit 3,
// saying how to install it.
func TestRunWithoutNode(t *testing.T) {
	needRunnable(t)
	dir := newHelloPack(t)
	t.Setenv("PATH", t.TempDir())
	_, errOut, code := runCmd(t, "run", dir, "hello")
	if code != 3 || !strings.Contains(errOut, "install node 20") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestTestCommand: the scaffolded case passes; a wrong expectation fails
// with a diff, exit 1; --json has the documented members.
func TestTestCommand(t *testing.T) {
	t.Parallel()
	needRunnable(t)
	dir := newHelloPack(t)
	out, errOut, code := runCmd(t, "test", dir)
	if code != 0 || !strings.Contains(out, "PASS vendor.acme.hello.hello") || !strings.Contains(out, "1 passed") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	c := filepath.Join(dir, "tests", "hello", "sample.json")
	b, _ := os.ReadFile(c)
	os.WriteFile(c, []byte(strings.Replace(string(b), `"HELLO"`, `"hello"`, 1)), 0o644)
	out, _, code = runCmd(t, "test", dir, "hello")
	if code != 1 || !strings.Contains(out, `-     "text": "hello"`) || !strings.Contains(out, `+     "text": "HELLO"`) {
		t.Errorf("exit %d: %s", code, out)
	}
	out, _, code = runCmd(t, "test", dir, "--json")
	var r struct {
		Passed bool
		Cases  []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r.Passed || len(r.Cases) != 1 {
		t.Fatalf("exit %d %v: %s", code, err, out)
	}
	for _, k := range []string{"node", "name", "file", "passed", "status", "error", "diff"} {
		if _, ok := r.Cases[0][k]; !ok {
			t.Errorf("--json lacks %q: %s", k, out)
		}
	}
}

// TestRunWasmPack: `wopkit run` runs a wasm pack's node in process (no
// node needed): --json as for JavaScript, exit 0; the memory cap is
// sandbox_memory_exceeded, exit 1.
func TestRunWasmPack(t *testing.T) {
	t.Parallel()
	dir := newWasmPack(t, `{"outcome":"completed","output":{"greeting":"hi"}}`, nil, nil)
	out, errOut, code := runCmd(t, "run", dir, "greet", "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || r["status"] != "success" || r["node"] != "vendor.acme.w.greet" {
		t.Fatalf("exit %d %v: %s %s", code, err, out, errOut)
	}
	for _, k := range []string{"node", "status", "outputs", "error", "interrupt", "events", "logs", "problems", "warnings", "durationMs", "peakMemoryBytes"} {
		if _, ok := r[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, out)
		}
	}
	dir = newWasmPack(t, "", wasmtest.Grow, nil)
	if out, _, code := runCmd(t, "run", dir, "greet", "--memory", "32MiB"); code != 1 || !strings.Contains(out, "failure sandbox_memory_exceeded") {
		t.Errorf("memory: exit %d: %s", code, out)
	}
}
