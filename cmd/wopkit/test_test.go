package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/wasmrun/wasmtest"
)

// newWasmPack makes a wasm pack of one node, vendor.acme.w.greet, whose
// module answers response (or runs body), with a stored case of each
// expectation given (file name: case JSON).
func newWasmPack(t *testing.T, response string, body []byte, cases map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "w")
	files := map[string]string{
		"pack.json": `{"name": "vendor.acme.w", "version": "1.0.0", "runtime": {"language": "wasm", "entry": "node.wasm"},
			"nodes": [{"typeId": "vendor.acme.w.greet", "outputSchemaRef": "./out.json"}]}`,
		"out.json":  `{"type": "object", "required": ["greeting"]}`,
		"node.wasm": string(wasmtest.Module("vendor.acme.w.greet", response, body)),
	}
	for name, c := range cases {
		files["tests/greet/"+name] = c
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTestWasmPack: `wopkit test` runs a wasm pack's stored cases (no node
// needed): exit 0 when they pass, 1 with the diff when one does not.
func TestTestWasmPack(t *testing.T) {
	t.Parallel()
	resp := `{"outcome":"completed","output":{"greeting":"hi"}}`
	dir := newWasmPack(t, resp, nil, map[string]string{"ok.json": `{"input": {}, "expect": {"outputs": {"greeting": "hi"}}}`})
	out, errOut, code := runCmd(t, "test", dir)
	if code != 0 || !strings.Contains(out, "PASS vendor.acme.w.greet ok") || !strings.Contains(out, "1 passed") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	dir = newWasmPack(t, resp, nil, map[string]string{"bye.json": `{"input": {}, "expect": {"outputs": {"greeting": "bye"}}}`,
		"loops.json": `{"input": {}, "expect": {"error": {"code": "sandbox_timeout"}}}`})
	out, _, code = runCmd(t, "test", dir, "greet", "--json")
	var tr struct {
		Passed bool
		Cases  []struct {
			Name   string
			Passed bool
			Diff   *string
		}
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil || code != 1 || tr.Passed || len(tr.Cases) != 2 || tr.Cases[0].Passed || tr.Cases[0].Diff == nil || !strings.Contains(*tr.Cases[0].Diff, `-     "greeting": "bye"`) {
		t.Fatalf("exit %d %v: %s", code, err, out)
	}
	// a node that loops meets --timeout
	dir = newWasmPack(t, "", wasmtest.Loop, map[string]string{"loops.json": `{"input": {}, "expect": {"error": {"code": "sandbox_timeout"}}}`})
	if out, errOut, code := runCmd(t, "test", dir, "--timeout", "300ms"); code != 0 {
		t.Fatalf("loop: exit %d: %s %s", code, out, errOut)
	}
}
