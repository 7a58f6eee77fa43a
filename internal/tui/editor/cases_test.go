package editor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sandbox"
)

// TestEditorRunsFocusedNodeCases (issue 41, item 3): t on a node of
// pack.json runs that node's stored cases and shows the result beside the
// problems list (the count in the status line); elsewhere it says where to
// go.
func TestEditorRunsFocusedNodeCases(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the cases need node 20 or later")
	}
	if err := sandbox.Supported(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	dir := t.TempDir()
	manifest := `{
  "name": "vendor.acme.t",
  "version": "0.1.0",
  "kind": "node",
  "description": "Shouts.",
  "license": "MIT",
  "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "nodes": [
    {"typeId": "vendor.acme.t.up", "version": "0.1.0", "label": "Up", "description": "Upper-cases.", "category": "data", "role": "pure", "capabilities": ["cacheable"]},
    {"typeId": "vendor.acme.t.down", "version": "0.1.0", "label": "Down", "description": "Lower-cases.", "category": "data", "role": "pure", "capabilities": ["cacheable"]}
  ],
  "runtime": {"language": "javascript", "format": "esm", "entry": "index.mjs", "minRuntimeVersion": "node>=20"}
}
`
	files := map[string]string{
		"pack.json": manifest,
		"index.mjs": `export const nodes = {
  "vendor.acme.t.up": async (ctx) => ({status: "success", outputs: {text: String(ctx.inputs.text).toUpperCase()}}),
  "vendor.acme.t.down": async (ctx) => ({status: "success", outputs: {text: String(ctx.inputs.text).toLowerCase()}}),
};
export default nodes;
`,
		"tests/up/a.json":   `{"input": {"text": "a"}, "expect": {"outputs": {"text": "A"}}}`,
		"tests/down/b.json": `{"input": {"text": "B"}, "expect": {"outputs": {"text": "x"}}}`,
	}
	for name, body := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := newDriver(t, editorOn(t, filepath.Join(dir, "pack.json")))
	e := d.App.Top().(*editor)
	d.Keys("t")
	if !strings.Contains(e.status, "move into one of nodes[]") || e.cases != nil {
		t.Fatalf("t outside nodes[]: status %q", e.status)
	}
	at := func(ptr string) {
		t.Helper()
		e.expanded["/nodes"] = true
		e.rebuild()
		for i, r := range e.rows {
			if r.ptr == ptr {
				e.cursor = i
				return
			}
		}
		t.Fatalf("no row %s", ptr)
	}
	at("/nodes/0")
	d.Keys("t")
	if e.cases == nil || e.cases.node != "vendor.acme.t.up" {
		t.Fatalf("the cases did not run: %+v, status %q", e.cases, e.status)
	}
	v := d.View()
	if !strings.Contains(v, "cases of vendor.acme.t.up:") || !strings.Contains(v, "pass vendor.acme.t.up a: outputs") || !strings.Contains(e.status, "1 passed") {
		t.Errorf("the result is not shown:\n%s\nstatus %q", v, e.status)
	}
	at("/nodes/1")
	d.Keys("t")
	if v := d.View(); !strings.Contains(v, "FAIL vendor.acme.t.down b") || !strings.Contains(e.status, "1 failed") {
		t.Errorf("the failing case is not shown:\n%s\nstatus %q", v, e.status)
	}
}
