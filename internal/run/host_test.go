package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/proc"
)

// needNode skips a test where node 20 or the sandbox is missing.
func needNode(t testing.TB) {
	t.Helper()
	if _, err := proc.LookPath("node"); err != nil {
		t.Skip("node is not installed: the run tests need node 20 or later")
	}
	if err := sandboxSupported(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
}

// writePack writes a node pack with one node per entry of fns (typeId
// suffix -> the body of `async function (ctx)`).
func writePack(t testing.TB, fns map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	var nodes, js []string
	for name, body := range fns {
		id := "vendor.acme.t." + name
		nodes = append(nodes, `{"typeId":"`+id+`","version":"0.1.0","label":"T","description":"t","category":"data","role":"pure","capabilities":["cacheable"]}`)
		js = append(js, `  "`+id+`": async function (ctx) {`+body+`},`)
	}
	manifest := `{"name":"vendor.acme.t","version":"0.1.0","kind":"node","description":"t","license":"MIT","engines":{"openwop":">=1.0.0 <3.0.0"},` +
		`"nodes":[` + strings.Join(nodes, ",") + `],"runtime":{"language":"javascript","format":"esm","entry":"index.mjs","minRuntimeVersion":"node>=20"}}`
	src := "export const nodes = {\n" + strings.Join(js, "\n") + "\n};\nexport default nodes;\n"
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.mjs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func newHost(t testing.TB, dir string, timeout time.Duration) *Host {
	t.Helper()
	h, err := NewHost(HostOptions{Dir: dir, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestHostServesSeveralCalls: one process, several calls, each with a
// fresh import of the entry (module state does not carry over).
func TestHostServesSeveralCalls(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writePack(t, map[string]string{
		"up": `globalThis.__n = (globalThis.__n ?? 0) + 1; return {status: "success", outputs: {text: String(ctx.inputs.text).toUpperCase(), pid: process.pid, n: globalThis.__n}};`,
	})
	h := newHost(t, dir, 10*time.Second)
	var pids []string
	for i, in := range []string{"a", "b", "c"} {
		o, err := h.Call(context.Background(), Call{TypeID: "vendor.acme.t.up", Ctx: map[string]any{"inputs": map[string]any{"text": in}}})
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != "success" || !strings.Contains(string(o.Outputs), `"text":"`+strings.ToUpper(in)+`"`) {
			t.Fatalf("call %d: %+v %s %s", i, o, o.Outputs, o.Stderr)
		}
		pid := string(o.Outputs)[strings.Index(string(o.Outputs), `"pid"`):]
		pids = append(pids, pid[:strings.IndexByte(pid, ',')])
	}
	if pids[0] != pids[1] || pids[1] != pids[2] {
		t.Errorf("the calls ran in different processes: %v", pids)
	}
}

// TestMinimalCtx: the smoke test's context, exactly.
func TestMinimalCtx(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writePack(t, map[string]string{
		"keys": `return {status: "success", outputs: {keys: Object.keys(ctx).sort().join(","), log: typeof ctx.log, inputs: JSON.stringify(ctx.inputs)}};`,
	})
	h := newHost(t, dir, 10*time.Second)
	o, err := h.Call(context.Background(), Call{TypeID: "vendor.acme.t.keys", Minimal: true, Ctx: map[string]any{"inputs": map[string]any{"x": 1}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"keys":"config,inputs,log,nodeId,runId,triggerData","log":"function","inputs":"{}"}`
	if o.Status != "success" || string(o.Outputs) != want {
		t.Fatalf("got %s %s, want %s", o.Status, o.Outputs, want)
	}
}
