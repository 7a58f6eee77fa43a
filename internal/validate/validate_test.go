package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/werr"
)

func newV(t testing.TB) *Validator {
	t.Helper()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const goodAgent = `{
  "agentId": "vendor.acme.hello.writer",
  "persona": "Writer",
  "modelClass": "writing",
  "systemPrompt": "You write."
}`

// want describes one expected problem; an empty field is not checked.
type want struct {
	rule, pointer string
	line, col     int
	msg, hint     string
}

func checkProblems(t *testing.T, name string, got []Problem, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Errorf("%s: %d problems, want %d:\n%s", name, len(got), len(wants), render(got))
		return
	}
	for i, w := range wants {
		p := got[i]
		if w.rule != "" && p.Rule != w.rule || w.pointer != "" && p.Pointer != w.pointer ||
			w.line != 0 && (p.Line != w.line || p.Column != w.col) ||
			!strings.Contains(p.Message, w.msg) || !strings.Contains(p.Hint, w.hint) {
			t.Errorf("%s: problem %d is\n  %s\nwant rule=%s ptr=%s at %d:%d msg~%q hint~%q", name, i, p, w.rule, w.pointer, w.line, w.col, w.msg, w.hint)
		}
	}
}

func render(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("  " + p.String() + "\n")
	}
	return b.String()
}

func TestSchemaMessages(t *testing.T) {
	t.Parallel()
	v := newV(t)
	cases := []struct {
		name, src string
		kind      kinds.Kind
		wants     []want
	}{
		{"valid agent", goodAgent, kinds.Agent, nil},
		{"unknown property at its key", strings.Replace(goodAgent, `"persona"`, "\"role\": \"skill\",\n  \"persona\"", 1), kinds.Agent, []want{{rule: "schema/additionalProperties", pointer: "/role", line: 3, col: 3, msg: "`role` is not allowed", hint: "--schemas"}}},
		{"both prompts", strings.Replace(goodAgent, `"systemPrompt"`, "\"systemPromptRef\": \"prompts/w.md\",\n  \"systemPrompt\"", 1), kinds.Agent, []want{{rule: "schema/oneOf", pointer: "", msg: "`systemPrompt` and `systemPromptRef` cannot be used together", hint: "keep exactly one"}}},
		{"no prompt", strings.Replace(goodAgent, ",\n  \"systemPrompt\": \"You write.\"", "", 1), kinds.Agent, []want{{rule: "schema/oneOf", msg: "missing one of `systemPrompt` or `systemPromptRef`", hint: "exactly one"}}},
		{"enum with words", strings.Replace(goodAgent, `"writing"`, `"poetry"`, 1), kinds.Agent, []want{{rule: "schema/enum", pointer: "/modelClass", line: 4, col: 17, msg: `"poetry" is not an allowed value`, hint: `"reasoning"`}}},
		{"pattern in words", strings.Replace(goodAgent, `vendor.acme.hello.writer`, `Acme`, 1), kinds.Agent, []want{{rule: "schema/pattern", pointer: "/agentId", line: 2, col: 14, hint: "pack name plus a dot"}}},
		{"tool: install branch chosen by method", `{"manifest_version":"0.4","tool":{"id":"abc","version":"1.0.0","name":"A","summary":"s","homepage":"https://x.dev"},
"runtime":{"kind":"mcp-stdio","install":{"method":"pip"}},"smoke":{"kind":"shell","command":["x"],"success":{}},"kill_switch":{"kind":"none"}}`, kinds.ToolManifest, []want{{rule: "schema/required", pointer: "/runtime/install", msg: "missing required property `package`"}}},
		{"tool: unknown method names the choices", `{"manifest_version":"0.4","tool":{"id":"abc","version":"1.0.0","name":"A","summary":"s","homepage":"https://x.dev"},
"runtime":{"kind":"mcp-stdio","install":{"method":"brew"}},"smoke":{"kind":"shell","command":["x"],"success":{}},"kill_switch":{"kind":"none"}}`, kinds.ToolManifest, []want{{rule: "schema/oneOf", pointer: "/runtime/install/method", msg: "`method` \"brew\" is not one of the known values", hint: `"pip", "npm"`}}},
		{"tool: if/then uses the title", `{"manifest_version":"0.4","tool":{"id":"abc","version":"1.0.0","name":"A","summary":"s","homepage":"https://x.dev"},
"runtime":{"kind":"python-module","install":{"method":"pip","package":"p"}},"smoke":{"kind":"shell","command":["x"],"success":{}},"kill_switch":{"kind":"none"}}`, kinds.ToolManifest, []want{{rule: "schema/required", msg: "actions[] required when runtime.kind is not self-describing: missing required property `actions`"}}},
		{"format asserted", `{"manifest_version":"0.4","tool":{"id":"abc","version":"1.0.0","name":"A","summary":"s","homepage":"not a uri"},
"runtime":{"kind":"mcp-stdio","install":{"method":"pip","package":"p"}},"smoke":{"kind":"shell","command":["x"],"success":{}},"kill_switch":{"kind":"none"}}`, kinds.ToolManifest, []want{{rule: "schema/format", pointer: "/tool/homepage", line: 1, col: 100, msg: `"not a uri" is not a valid uri`}}},
		{"agent ref: not-required pair", `{"agentId":"core.chat","version":"1.0.0","channel":"stable"}`, kinds.AgentRef, []want{{rule: "schema/not", msg: "`version` and `channel` cannot be used together"}}},
	}
	for _, c := range cases {
		fr := v.File("x.json", []byte(c.src), c.kind)
		checkProblems(t, c.name, append(fr.Errors, fr.Warnings...), c.wants)
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	v := newV(t)
	cases := map[string]kinds.Kind{
		goodAgent:                    kinds.Agent,
		`{"manifest_version":"0.3"}`: kinds.ToolManifest,
		`{"suiteId":"vendor.acme.evals.w","version":"1.0.0","tasks":[]}`: kinds.EvalSuite,
		`{"name":"vendor.acme.x","engines":{},"runtime":{}}`:             kinds.NodePack,
		`{"name":"vendor.acme.x","kind":"workflow-chain","steps":[]}`:    kinds.WorkflowChainPack,
		`{"name":"vendor.acme.x","kind":"widget","steps":[]}`:            kinds.OtherPack,
		`{"name":"vendor.acme.x","kind":"card","integrity":"sha256-x"}`:  kinds.VersionManifest,
		`{"hello":"world"}`: kinds.Unknown,
	}
	for src, k := range cases {
		fr := v.File("doc.json", []byte(src), "")
		if fr.Kind != k {
			t.Errorf("%s: kind %s, want %s", src, fr.Kind, k)
		}
	}
	// Issue 9 changed this contract: every kind the registry publishes is
	// schema-checked; other-pack is left for kinds no schema covers.
	other := v.Bytes("widget.json", []byte(`{"name":"vendor.acme.x","kind":"widget","steps":[]}`), "")
	if !other.Valid || !strings.Contains(other.Files[0].Note, "not schema-checked") {
		t.Errorf("other-pack: %+v", other.Files[0])
	}
	unknown := v.Bytes("doc.json", []byte(`{"hello":"world"}`), "")
	if unknown.Valid || unknown.Files[0].Errors[0].Rule != "kind/unknown" {
		t.Errorf("unknown: %+v", unknown.Files[0])
	}
}

func TestBadInputIsAProblemNotAPanic(t *testing.T) {
	t.Parallel()
	v := newV(t)
	cases := []struct {
		name string
		data []byte
		rule string
	}{
		{"malformed", []byte("{\n  \"a\": 1,\n}"), "json/syntax"},
		{"duplicate key", []byte("{\"agentId\": \"a\",\n \"agentId\": \"b\"}"), "json/duplicate_key"},
		{"not utf-8", []byte("{\"persona\": \"\xc3\x28\"}"), "json/encoding"},
		{"utf-16", []byte("\xff\xfe{\x00}\x00"), "json/encoding"},
		{"empty", nil, "json/empty"},
		{"only spaces", []byte(" \n\t "), "json/empty"},
	}
	for _, c := range cases {
		rep := v.Bytes("x.json", c.data, "")
		if rep.Valid || len(rep.Files[0].Errors) != 1 || rep.Files[0].Errors[0].Rule != c.rule {
			t.Errorf("%s: %+v", c.name, rep.Files[0])
		}
	}
}

func TestPathErrors(t *testing.T) {
	t.Parallel()
	v := newV(t)
	dir := t.TempDir()
	if _, err := v.Path(dir); werr.CodeOf(err) != "pack_manifest_missing" || werr.ExitCode(err) != 1 {
		t.Errorf("dir without pack.json: %v", err)
	}
	if _, err := v.Path(filepath.Join(dir, "absent.json")); werr.ExitCode(err) != 3 {
		t.Errorf("missing file: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	f, _ := os.Create(big)
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := v.Path(big); werr.CodeOf(err) != "file_too_large" {
		t.Errorf("huge file: %v", err)
	}
}

func TestSchemaOverrideByID(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := os.ReadFile("../../schemas/agent-manifest.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	newer := strings.Replace(string(b), `"label": {`, `"role": { "type": "string", "enum": ["skill", "assistant"] },
    "label": {`, 1)
	if err := os.WriteFile(filepath.Join(dir, "agent.json"), []byte(newer), 0o644); err != nil {
		t.Fatal(err)
	}
	withRole := strings.Replace(goodAgent, `"persona"`, "\"role\": \"skill\",\n  \"persona\"", 1)
	if rep := newV(t).Bytes("a.json", []byte(withRole), kinds.Agent); rep.Valid {
		t.Fatal("seed schema accepted role")
	}
	v, err := New(Options{SchemaDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep := v.Bytes("a.json", []byte(withRole), kinds.Agent); !rep.Valid {
		t.Fatalf("override not used: %s", render(rep.Problems()))
	}
	// The embedded set is shared by the Validators without --schemas: an
	// override never reaches it.
	if rep := newV(t).Bytes("a.json", []byte(withRole), kinds.Agent); rep.Valid {
		t.Fatal("a Validator without --schemas used the override")
	}
	if _, err := New(Options{SchemaDir: t.TempDir()}); werr.CodeOf(err) != "schemas_dir_empty" {
		t.Errorf("empty schema dir: %v", err)
	}
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte(goodAgent))
	f.Add([]byte(`{"manifest_version":"0.4","tool":{},"runtime":{"install":{"method":"x"}}}`))
	f.Add([]byte(`{"name":"vendor.a.b","engines":{"openwop":"^1"},"runtime":{"language":"remote","entry":"pack.json"},"agents":[{}]}`))
	f.Add([]byte(`{"suiteId":"a.evals.b","tasks":[{"taskId":"x","expected":{"kind":"rubric","rubric":[{"weight":2}]}}]}`))
	// The kinds of issue 9: a v2 chain with a cycle and an undeclared
	// parameter, a card, a version manifest.
	f.Add([]byte(`{"name":"v.a.b","kind":"workflow-chain","engines":{"openwop":"<3.0.0"},"chains":[{"chainId":"c","parameters":{"properties":{"p":{}}},"subChains":[{"ref":"x"}],"dag":{"nodes":[{"id":"a","typeId":"a@^1"},{"id":"b","config":{"t":"{{params.q}}","subChainRef":"y"}}],"edges":[{"from":"a.o","to":"b"},{"from":"b","to":"a"}]}}]}`))
	f.Add([]byte(`{"name":"v.a.b","kind":"card","signing":{"scheme":"ed25519-canonical-json","keyId":"k"},"cards":[{"cardTypeId":"x","inputs":[{"id":"i"}],"prompt":{"template":"{{a}}","placeholderMapping":{"b":"inputs.z"}}}]}`))
	f.Add([]byte(`{"name":"v.a.b","kind":"prompt","integrity":"sha256-x","tarballUrl":"/v2/packs/x.tgz","peerDependencies":{"host.x":"y"},"prompts":[{"text":"{{v}}","variables":[{"name":"w"}]}]}`))
	v := newV(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rep := v.Bytes("fuzz.json", data, "")
		for _, p := range rep.Problems() {
			if p.Line < 1 || p.Column < 1 || p.Rule == "" || p.Message == "" {
				t.Fatalf("unpositioned or empty problem: %+v", p)
			}
		}
	})
}
