package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runOne runs node name of the pack at dir with in, on a fresh host.
func runOne(t *testing.T, dir, name string, in Input) *Report {
	t.Helper()
	p, err := LoadPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	n, err := p.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Prepare(p, n, in)
	if err != nil {
		t.Fatal(err)
	}
	h := newHost(t, dir, 10*time.Second)
	r, err := Execute(context.Background(), h, p, n, pr)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCtxContract: emit in its three shapes, log, variables, secrets as a
// record and through resolve, the data members.
func TestCtxContract(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writePack(t, map[string]string{"all": `
		ctx.emit("a.pos", {n: 1});
		ctx.emit({type: "a.typed", data: {n: 2}});
		ctx.emit({kind: "a.kind", payload: {n: 3}});
		ctx.log("info", "hello", {k: 1});
		ctx.variables.set("v", 7);
		const s = await ctx.secrets.resolve({ref: "API_KEY", purpose: "x"});
		return {status: "success", outputs: {v: ctx.variables.get("v"), same: s.plaintext === ctx.secrets.API_KEY,
			attempt: ctx.attempt, trig: ctx.triggerData.text, node: ctx.nodeId, signal: ctx.signal instanceof AbortSignal, now: ctx.now() instanceof Date,
			leak: s.plaintext}};`})
	r := runOne(t, dir, "all", Input{Input: []byte(`{"text":"t"}`), Secrets: []byte("API_KEY=s3cr3t-value\n")})
	if r.Status != "success" {
		t.Fatalf("%+v %+v", r, r.Error)
	}
	var out map[string]any
	json.Unmarshal(r.Outputs, &out)
	if out["v"] != 7.0 || out["same"] != true || out["attempt"] != 1.0 || out["trig"] != "t" || out["node"] != "all" || out["signal"] != true || out["now"] != true {
		t.Errorf("outputs %s", r.Outputs)
	}
	if out["leak"] != "[secret]" {
		t.Errorf("the secret's value is shown: %s", r.Outputs)
	}
	var types []string
	for _, e := range r.Events {
		types = append(types, e.Type+":"+e.Shape)
	}
	if strings.Join(types, ",") != "a.pos:positional,a.typed:type-data,a.kind:kind-payload" {
		t.Errorf("events %v", types)
	}
	for i, e := range r.Events {
		if p, _ := e.Payload.(map[string]any); p["n"] != float64(i+1) {
			t.Errorf("event %d payload %v", i, e.Payload)
		}
	}
	if len(r.Logs) != 1 || r.Logs[0].Message != "hello" || r.Logs[0].Level != "info" {
		t.Errorf("logs %+v", r.Logs)
	}
}

// TestResultMapping: each way a node ends, as the reference host maps it.
func TestResultMapping(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writePack(t, map[string]string{
		"errret":  `return {status: "error", error: {code: "acme_bad"}};`,
		"other":   `return {ok: true};`,
		"throwc":  `const e = new Error("no"); e.code = "Not A Code"; throw e;`,
		"thrown":  `throw null;`,
		"hostcap": `const e = new Error("no kv"); e.code = "host_capability_missing"; e.capability = "storage.kv"; throw e;`,
		"suspend": `const v = await ctx.suspend({kind: "clarification", data: {q: 1}}); return {status: "success", outputs: {text: String(v)}};`,
		"badout":  `return {status: "success", outputs: {text: 5}};`,
		"keyed":   `const a = await ctx.interrupt({key: "approve", kind: "approval"}); const b = await ctx.suspend({key: "why", kind: "clarification"}); return {status: "success", outputs: {text: a + "/" + b}};`,
		"nooutp":  `return {status: "success"};`,
		"mock":    `const a = await ctx.storage.kv.get("k"); try { await ctx.storage.kv.get("k"); } catch (e) { return {status: "success", outputs: {text: a + ":" + e.code}}; } return {status: "success", outputs: {text: "no throw"}};`,
		"exhaust": `await ctx.mcp.callTool(); await ctx.mcp.callTool(); return {status: "success", outputs: {}};`,
		"fetch":   `const r = await ctx.http.safeFetch("https://x"); return {status: "success", outputs: {text: r.status + ":" + r.headers.get("x-a") + ":" + (await r.json()).v}};`,
	})
	os.MkdirAll(filepath.Join(dir, "schemas"), 0o755)
	os.WriteFile(filepath.Join(dir, "schemas", "out.json"), []byte(`{"type":"object","properties":{"text":{"type":"string"}}}`), 0o644)
	m, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	m = []byte(strings.ReplaceAll(string(m), `"capabilities":["cacheable"]}`, `"capabilities":["cacheable"],"outputSchemaRef":"schemas/out.json"}`))
	os.WriteFile(filepath.Join(dir, "pack.json"), m, 0o644)
	p, err := LoadPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := newHost(t, dir, 10*time.Second)
	call := func(name string, in Input) *Report {
		n, err := p.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := Prepare(p, n, in)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Execute(context.Background(), h, p, n, pr)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		name, status, code, warn string
		in                       Input
	}{
		{"errret", "failure", "pack_node_error", "drops the pack's code", Input{}},
		{"other", "failure", "pack_node_error", "only {status: \"success\"", Input{}},
		{"throwc", "failure", "Not A Code", "neither a registered v2 error code", Input{}},
		{"thrown", "failure", "pack_node_error", "", Input{}},
		{"hostcap", "failure", "host_capability_missing", "the node needs storage.kv; the pack declares no peerDependencies", Input{}},
		{"suspend", "suspended", "", "", Input{}},
		{"suspend", "success", "", "", Input{Resume: []byte(`"yes"`)}},
		{"badout", "failure", "node_output_invalid", "", Input{}},
		{"keyed", "success", "", "", Input{Resume: []byte(`{"approve": true, "why": "because"}`)}},
		{"nooutp", "failure", "node_output_invalid", "", Input{}},
		{"mock", "success", "", "", Input{Mocks: []byte(`{"storage.kv": {"get": ["v1", {"$throw": {"code": "acme.nope", "message": "x"}}]}}`)}},
		{"exhaust", "failure", "mock_exhausted", "", Input{Mocks: []byte(`{"mcp": {"callTool": [1]}}`)}},
		{"fetch", "success", "", "", Input{Mocks: []byte(`{"http": {"safeFetch": [{"$response": {"status": 201, "headers": {"x-a": "b"}, "body": {"v": 7}}}]}}`)}},
	} {
		r := call(c.name, c.in)
		code := ""
		if r.Error != nil {
			code = r.Error.Code
		}
		if r.Status != c.status || code != c.code {
			t.Errorf("%s: got %s %s, want %s %s (%+v)", c.name, r.Status, code, c.status, c.code, r.Error)
		}
		if c.warn != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), c.warn) {
			t.Errorf("%s: no warning %q in %q", c.name, c.warn, r.Warnings)
		}
		switch c.name {
		case "errret":
			if r.Error.PackCode == nil || *r.Error.PackCode != "acme_bad" {
				t.Errorf("packCode %v", r.Error.PackCode)
			}
		case "suspend":
			if c.status == "suspended" && (r.Interrupt == nil || r.Interrupt.Kind != "clarification") {
				t.Errorf("interrupt %+v", r.Interrupt)
			}
			if c.status == "success" && string(r.Outputs) != `{"text":"yes"}` {
				t.Errorf("resume outputs %s", r.Outputs)
			}
		case "mock":
			if string(r.Outputs) != `{"text":"v1:acme.nope"}` {
				t.Errorf("mock outputs %s", r.Outputs)
			}
		case "keyed":
			if string(r.Outputs) != `{"text":"true/because"}` {
				t.Errorf("keyed resume outputs %s", r.Outputs)
			}
		case "fetch":
			if string(r.Outputs) != `{"text":"201:b:7"}` {
				t.Errorf("fetch outputs %s", r.Outputs)
			}
		case "badout":
			if len(r.Problems) == 0 || r.Problems[0].Pointer != "/text" {
				t.Errorf("problems %+v", r.Problems)
			}
		}
	}
}

// TestConfigAndInputChecked: a bad config or input stops the run before
// node starts, with validate's positions.
func TestConfigAndInputChecked(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writePack(t, map[string]string{"n": `throw new Error("must not run");`})
	os.MkdirAll(filepath.Join(dir, "schemas"), 0o755)
	os.WriteFile(filepath.Join(dir, "schemas", "c.json"), []byte(`{"type":"object","required":["mode"],"properties":{"mode":{"enum":["a","b"]}}}`), 0o644)
	m, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	m = []byte(strings.ReplaceAll(string(m), `"capabilities":["cacheable"]}`, `"capabilities":["cacheable"],"configSchemaRef":"schemas/c.json","inputSchemaRef":"schemas/c.json"}`))
	os.WriteFile(filepath.Join(dir, "pack.json"), m, 0o644)
	r := runOne(t, dir, "n", Input{Config: []byte("{\n  \"mode\": \"c\"\n}"), ConfigName: "cfg.json", Input: []byte(`{"mode":"a"}`)})
	if r.Error == nil || r.Error.Code != "node_config_invalid" || len(r.Problems) != 1 {
		t.Fatalf("%+v %+v", r.Error, r.Problems)
	}
	if p := r.Problems[0]; p.File != "cfg.json" || p.Pointer != "/mode" || p.Line != 2 || p.Column != 11 {
		t.Errorf("problem %+v", p)
	}
	r = runOne(t, dir, "n", Input{Config: []byte(`{"mode":"a"}`)})
	if r.Error == nil || r.Error.Code != "node_input_invalid" {
		t.Fatalf("%+v", r.Error)
	}
}

// TestCasesAndDiff: stored cases pass and fail, with a diff.
func TestCasesAndDiff(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writePack(t, map[string]string{"up": `return {status: "success", outputs: {text: String(ctx.inputs.text).toUpperCase(), n: 1}};`})
	os.MkdirAll(filepath.Join(dir, "tests", "up"), 0o755)
	for name, body := range map[string]string{
		"a-pass.json":  `{"input": {"text": "a"}, "expect": {"outputs": {"text": "A", "n": 1}}}`,
		"b-match.json": `{"input": {"text": "b"}, "expect": {"outputsMatch": {"text": "B"}}}`,
		"c-fail.json":  `{"name": "wrong", "input": {"text": "c"}, "expect": {"outputs": {"text": "c", "n": 1}}}`,
		"d-code.json":  `{"input": {"text": "d"}, "expect": {"error": {"code": "acme.x"}}}`,
	} {
		os.WriteFile(filepath.Join(dir, "tests", "up", name), []byte(body), 0o644)
	}
	p, _ := LoadPack(dir)
	cases, err := LoadCases(p, nil)
	if err != nil || len(cases) != 4 {
		t.Fatalf("%v %d", err, len(cases))
	}
	h := newHost(t, dir, 10*time.Second)
	tr, err := RunCases(context.Background(), h, p, cases)
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, c := range tr.Cases {
		got = append(got, c.Passed)
	}
	if tr.Passed || len(got) != 4 || !got[0] || !got[1] || got[2] || got[3] {
		t.Fatalf("passed %v %v", tr.Passed, got)
	}
	if d := *tr.Cases[2].Diff; !strings.Contains(d, `-     "text": "c"`) || !strings.Contains(d, `+     "text": "C"`) {
		t.Errorf("diff:\n%s", d)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	if got := Diff("a\nb\nc", "a\nx\nc"); got != "  a\n- b\n+ x\n  c" {
		t.Errorf("got %q", got)
	}
}

// TestTestPackLines: the wizard's and editor's one call, in words.
func TestTestPackLines(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := writePack(t, map[string]string{"up": `return {status: "success", outputs: {text: String(ctx.inputs.text).toUpperCase()}};`, "bad": `throw Object.assign(new Error("no"), {code: "acme.no"});`})
	if HasCases(dir) {
		t.Fatal("HasCases without tests/")
	}
	for _, n := range []string{"up", "bad"} {
		os.MkdirAll(filepath.Join(dir, "tests", n), 0o755)
		os.WriteFile(filepath.Join(dir, "tests", n, "a.json"), []byte(`{"input": {"text": "a"}, "expect": {"outputs": {"text": "A"}}}`), 0o644)
	}
	if !HasCases(dir) {
		t.Fatal("no cases found")
	}
	tr, err := TestPack(context.Background(), dir, []string{"up"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tr.Lines(), "\n"); got != "pass vendor.acme.t.up a: outputs {\"text\":\"A\"}\n1 passed" {
		t.Errorf("got %q", got)
	}
	tr, err = TestPack(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tr.Lines(), "\n"); !strings.Contains(got, "FAIL vendor.acme.t.bad a: acme.no: no") || !strings.HasSuffix(got, "1 failed, 1 passed (wopkit test shows the diffs)") {
		t.Errorf("got %q", got)
	}
}
