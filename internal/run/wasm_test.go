package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/wasmrun/wasmtest"
)

const wasmNode = "vendor.acme.w.echo"

// writeWasmPack makes a wasm pack of one node (input {name: string},
// output {greeting: string} required) whose module is mod.
func writeWasmPack(t *testing.T, mod []byte) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pack.json": `{"name": "vendor.acme.w", "version": "1.0.0", "runtime": {"language": "wasm", "entry": "./node.wasm"},
			"nodes": [{"typeId": "` + wasmNode + `", "inputSchemaRef": "./schemas/in.json", "outputSchemaRef": "./schemas/out.json"}]}`,
		"schemas/in.json":  `{"type": "object", "properties": {"name": {"type": "string"}}}`,
		"schemas/out.json": `{"type": "object", "required": ["greeting"], "properties": {"greeting": {"type": "string"}}}`,
		"node.wasm":        string(mod),
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

// runWasm runs the pack's node with in and the limits given.
func runWasm(t *testing.T, dir string, in Input, o HostOptions) *Report {
	t.Helper()
	p, err := LoadPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckRuntime(); err != nil {
		t.Fatal(err)
	}
	n, err := p.Find("echo")
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Prepare(p, n, in)
	if err != nil {
		t.Fatal(err)
	}
	o.Dir, o.Entry = dir, p.Entry
	h, err := NewCaller(o, p)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r, err := Execute(context.Background(), h, p, n, pr)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWasmRun: a wasm node runs in process with the JavaScript nodes'
// contract: input checked before, outputs after, each limit its code.
func TestWasmRun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, input, response string
		body                  []byte
		o                     HostOptions
		status, code, outputs string
	}{
		{name: "answers", input: `{"name":"Ada"}`, response: `{"outcome":"completed","output":{"greeting":"Hello, Ada!"}}`, status: "success", outputs: `{"greeting":"Hello, Ada!"}`},
		{name: "bad input", input: `{"name":1}`, response: `{"outcome":"completed","output":{"greeting":"x"}}`, status: "failure", code: "node_input_invalid"},
		{name: "output against its schema", input: `{}`, response: `{"outcome":"completed","output":{"greeting":7}}`, status: "failure", code: "node_output_invalid"},
		{name: "output not an object", input: `{}`, response: `{"outcome":"completed","output":[1]}`, status: "failure", code: "node_output_invalid"},
		{name: "response not JSON", input: `{}`, response: `{"outcome":"completed","output":`, status: "failure", code: "sandbox_invocation_error"},
		{name: "fails with its code", input: `{}`, response: `{"outcome":"failed","error":{"code":"acme.nope","message":"no"}}`, status: "failure", code: "acme.nope"},
		{name: "suspends", input: `{}`, response: `{"outcome":"suspended","interrupt":{"kind":"approval","data":{"q":1}}}`, status: "suspended"},
		{name: "traps", input: `{}`, body: wasmtest.Trap, status: "failure", code: "sandbox_invocation_error"},
		{name: "loops", input: `{}`, body: wasmtest.Loop, o: HostOptions{Timeout: 300 * time.Millisecond}, status: "failure", code: "sandbox_timeout"},
		{name: "grows past --memory", input: `{}`, body: wasmtest.Grow, o: HostOptions{Memory: 4 << 20}, status: "failure", code: "sandbox_memory_exceeded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := runWasm(t, writeWasmPack(t, wasmtest.Module(wasmNode, c.response, c.body)), Input{Input: []byte(c.input)}, c.o)
			got := ""
			if r.Error != nil {
				got = r.Error.Code
			}
			if r.Status != c.status || got != c.code {
				t.Fatalf("status %s code %q (%+v); want %s %q", r.Status, got, r.Error, c.status, c.code)
			}
			if c.outputs != "" && string(r.Outputs) != c.outputs {
				t.Errorf("outputs %s, want %s", r.Outputs, c.outputs)
			}
			if c.code == "sandbox_memory_exceeded" && (r.PeakMemoryBytes == 0 || r.PeakMemoryBytes > 4<<20) {
				t.Errorf("peak memory %d, want within the 4 MiB cap", r.PeakMemoryBytes)
			}
			if c.status == "suspended" && (r.Interrupt == nil || r.Interrupt.Kind != "approval") {
				t.Errorf("interrupt %+v", r.Interrupt)
			}
		})
	}
}

// TestWasmStoredCase: RunCases judges a wasm node's stored case as a
// JavaScript one's.
func TestWasmStoredCase(t *testing.T) {
	t.Parallel()
	dir := writeWasmPack(t, wasmtest.Module(wasmNode, `{"outcome":"completed","output":{"greeting":"hi"}}`, nil))
	os.MkdirAll(filepath.Join(dir, "tests", "echo"), 0o755)
	os.WriteFile(filepath.Join(dir, "tests", "echo", "a-pass.json"), []byte(`{"input": {"name": "x"}, "expect": {"outputs": {"greeting": "hi"}}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "tests", "echo", "b-fail.json"), []byte(`{"input": {}, "expect": {"outputs": {"greeting": "bye"}}}`), 0o644)
	p, err := LoadPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := LoadCases(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := NewCaller(HostOptions{Dir: dir, Entry: p.Entry}, p)
	tr, err := RunCases(context.Background(), h, p, cases)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Cases) != 2 || !tr.Cases[0].Passed || tr.Cases[1].Passed || tr.Passed || tr.Cases[1].Diff == nil || !strings.Contains(*tr.Cases[1].Diff, `+     "greeting": "hi"`) {
		t.Fatalf("%+v", tr)
	}
}

// TestWasmEntryMissing: a runtime.entry the pack does not ship is
// pack_load_failure naming the modules it does ship.
func TestWasmEntryMissing(t *testing.T) {
	t.Parallel()
	dir := writeWasmPack(t, wasmtest.Module(wasmNode, `{}`, nil))
	os.Rename(filepath.Join(dir, "node.wasm"), filepath.Join(dir, "dist.wasm"))
	r := runWasm(t, dir, Input{}, HostOptions{})
	if r.Error == nil || r.Error.Code != "pack_load_failure" || !strings.Contains(r.Error.Message, "dist.wasm") {
		t.Fatalf("%+v %+v", r, r.Error)
	}
}

// TestWasmImports: openwop_log is a log, openwop_channel_write an event,
// openwop_interrupt suspends the run with its payload, or with --resume
// returns the resume value; mocks' channels reach the module, other
// surfaces and secrets give a warning each.
func TestWasmImports(t *testing.T) {
	t.Parallel()
	payload := `{"kind":"approval","data":{"q":1}}`
	dir := writeWasmPack(t, wasmtest.Module(wasmNode, payload, wasmtest.Imports(wasmNode, payload)))
	r := runWasm(t, dir, Input{Mocks: []byte(`{"channels": {"c": 1}, "callAI": {"complete": [1]}}`), Secrets: []byte(`{"K": "s3cr3t-value"}`)}, HostOptions{})
	if r.Status != "suspended" || r.Interrupt == nil || r.Interrupt.Kind != "approval" || r.Interrupt.Data.(map[string]any)["q"] != 1.0 {
		t.Fatalf("%+v %+v %+v", r, r.Interrupt, r.Error)
	}
	if len(r.Logs) != 1 || r.Logs[0].Level != "info" || r.Logs[0].Message != wasmNode {
		t.Errorf("logs %+v", r.Logs)
	}
	if len(r.Events) != 1 || r.Events[0].Type != wasmNode || r.Events[0].Shape != "channel-write" || r.Events[0].Payload.(map[string]any)["kind"] != "approval" {
		t.Errorf("events %+v", r.Events)
	}
	if len(r.Warnings) != 2 || !strings.Contains(r.Warnings[0], "callAI") || !strings.Contains(r.Warnings[1], "secrets") {
		t.Errorf("warnings %q", r.Warnings)
	}
	r = runWasm(t, dir, Input{Resume: []byte(`{"outcome":"completed","output":{"greeting":"resumed"}}`)}, HostOptions{})
	if r.Status != "success" || string(r.Outputs) != `{"greeting":"resumed"}` || len(r.Warnings) != 0 {
		t.Fatalf("resumed: %+v %+v", r, r.Error)
	}
}

// TestWasmTestPack: the wizard's and the editor's run (TestPack) runs a
// wasm pack's cases too.
func TestWasmTestPack(t *testing.T) {
	t.Parallel()
	dir := writeWasmPack(t, wasmtest.Module(wasmNode, `{"outcome":"completed","output":{"greeting":"hi"}}`, nil))
	os.MkdirAll(filepath.Join(dir, "tests", "echo"), 0o755)
	os.WriteFile(filepath.Join(dir, "tests", "echo", "ok.json"), []byte(`{"input": {}, "expect": {"outputsMatch": {"greeting": "hi"}}}`), 0o644)
	if !HasCases(dir) {
		t.Fatal("HasCases: false")
	}
	tr, err := TestPack(context.Background(), dir, nil)
	if err != nil || !tr.Passed || len(tr.Cases) != 1 {
		t.Fatalf("%v %+v", err, tr)
	}
}

// BenchmarkWasmCall is one wasm call as `wopkit run` makes it: read the
// module, compile and instantiate it, invoke, check the outputs.
func BenchmarkWasmCall(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "pack.json"), []byte(`{"name": "vendor.acme.w", "runtime": {"language": "wasm", "entry": "node.wasm"}, "nodes": [{"typeId": "`+wasmNode+`"}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "node.wasm"), wasmtest.Module(wasmNode, `{"outcome":"completed","output":{"greeting":"hi"}}`, nil), 0o644)
	p, err := LoadPack(dir)
	if err != nil {
		b.Fatal(err)
	}
	n, _ := p.Find("echo")
	h, _ := NewCaller(HostOptions{Dir: dir, Entry: p.Entry}, p)
	for b.Loop() {
		pr, _ := Prepare(p, n, Input{})
		if r, err := Execute(context.Background(), h, p, n, pr); err != nil || r.Status != "success" {
			b.Fatalf("%v %+v", err, r)
		}
	}
}
