package validate

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/kinds"
)

// toolWith builds a small valid v0.4 tool manifest, with replacements applied.
func toolWith(repl ...string) string {
	return strings.NewReplacer(repl...).Replace(baseTool)
}

const baseTool = `{
  "manifest_version": "0.4",
  "tool": {"id": "demo-tool", "version": "1.0.0", "name": "Demo", "summary": "A demo tool.", "homepage": "https://example.com/demo"},
  "runtime": {"kind": "shell-binary", "install": {"method": "preinstalled", "locator": {"kind": "binary-on-path", "binary": "demo"}},
    "entrypoint": {"command": ["demo", "--quiet"]}},
  "env": [
    {"name": "API_TOKEN", "prompt": "Your API token", "secret": true},
    {"name": "REGION", "prompt": "Region", "secret": false}
  ],
  "scopes": [{"resource": "net.outbound", "actions": ["read"], "rationale": "Calls the demo API."}],
  "actions": [
    {"name": "lookup", "summary": "Look a thing up.",
     "invocation": {"kind": "subcommand", "argv_template": ["lookup", "--q", "${input.q}", "--region", "${env.REGION}"]},
     "input": {"type": "object", "properties": {"q": {"type": "string"}}},
     "side_effects": "read", "scopes_used": ["net.outbound"]},
    {"name": "store", "summary": "Store a thing.",
     "invocation": {"kind": "subcommand", "argv_template": ["store", "${input.item.name}"]},
     "input": {"type": "object", "properties": {"item": {"type": "object"}}},
     "side_effects": "write", "scopes_used": ["net.outbound"]}
  ],
  "smoke": {"kind": "action-call", "action": "lookup", "arguments": {"q": "x"}, "success": {"exit_code": 0, "json_pointer_equals": {"/region": "${REGION}"}}},
  "verify": {"suite": {"ref": "verify/cases.jsonl", "format": "jsonl-cases", "case_count": 3}},
  "kill_switch": {"kind": "manual", "instructions": "Revoke the token."}
}`

func TestIM001ScopesUsed(t *testing.T) {
	t.Parallel()
	runLint(t, "IM001", []lintCase{
		{name: "declared", kind: kinds.ToolManifest, doc: baseTool},
		{name: "undeclared", kind: kinds.ToolManifest, doc: toolWith(`"side_effects": "write", "scopes_used": ["net.outbound"]`, `"side_effects": "write", "scopes_used": ["net.outbound", "fs.write"]`),
			want: []hit{{ptr: "/actions/1/scopes_used/1", at: `"fs.write"`, hint: `"net.outbound"`}}},
	})
}

func TestIM002SmokeAction(t *testing.T) {
	t.Parallel()
	runLint(t, "IM002", []lintCase{
		{name: "read action", kind: kinds.ToolManifest, doc: baseTool},
		{name: "undeclared action", kind: kinds.ToolManifest, doc: toolWith(`"action": "lookup"`, `"action": "ping"`),
			want: []hit{{ptr: "/smoke/action", at: `"ping"`, hint: `"lookup", "store"`}}},
		{name: "writing action", kind: kinds.ToolManifest, doc: toolWith(`"action": "lookup"`, `"action": "store"`),
			want: []hit{{ptr: "/smoke/action", at: `"store"`, nth: 2, hint: `"none" or "read"`}}},
	})
}

func TestIM003SecretArgv(t *testing.T) {
	t.Parallel()
	runLint(t, "IM003", []lintCase{
		{name: "non-secret in argv", kind: kinds.ToolManifest, doc: baseTool},
		{name: "secret in argv_template and entrypoint", kind: kinds.ToolManifest,
			doc: toolWith(`"${env.REGION}"]`, `"--token=${env.API_TOKEN}"]`, `["demo", "--quiet"]`, `["demo", "${API_TOKEN}"]`),
			want: []hit{
				{ptr: "/runtime/entrypoint/command/1", at: `"${API_TOKEN}"`, hint: "read it there"},
				{ptr: "/actions/0/invocation/argv_template/4", at: `"--token=`, hint: "remove ${env.API_TOKEN}"},
			}},
	})
}

func TestIM004Placeholders(t *testing.T) {
	t.Parallel()
	runLint(t, "IM004", []lintCase{
		{name: "all resolve", kind: kinds.ToolManifest, doc: baseTool},
		{name: "unknown env, unknown input, input outside an action", kind: kinds.ToolManifest,
			doc: toolWith(`"${env.REGION}"]`, `"${env.ZONE}", "${input.query}"]`, `"/region": "${REGION}"`, `"/region": "${input.q}"`),
			want: []hit{
				{ptr: "/actions/0/invocation/argv_template/4", at: `"${env.ZONE}"`, hint: "declare ZONE in env[]"},
				{ptr: "/actions/0/invocation/argv_template/5", at: `"${input.query}"`, hint: `add "query"`},
				{ptr: "/smoke/success/json_pointer_equals/~1region", at: `"${input.q}"`, nth: 1, hint: "inside an action"},
			}},
	})
}

func TestIM005CaseCount(t *testing.T) {
	t.Parallel()
	cases := fstest.MapFS{"verify/cases.jsonl": {Data: []byte("{\"a\":1}\n{\"a\":2}\n\n{\"a\":3}\n")}}
	two := fstest.MapFS{"verify/cases.jsonl": {Data: []byte("{\"a\":1}\n{\"a\":2}")}}
	runLint(t, "IM005", []lintCase{
		{name: "matches (blank lines ignored)", kind: kinds.ToolManifest, doc: baseTool, files: cases},
		{name: "file absent", kind: kinds.ToolManifest, doc: baseTool, files: fstest.MapFS{}},
		{name: "validated alone", kind: kinds.ToolManifest, doc: baseTool},
		{name: "too many", kind: kinds.ToolManifest, doc: baseTool, files: two,
			want: []hit{{ptr: "/verify/suite/case_count", at: "3}", hint: "set case_count to 2"}}},
	})
}

func TestIM006ToolNamesUnique(t *testing.T) {
	t.Parallel()
	runLint(t, "IM006", []lintCase{
		{name: "unique", kind: kinds.ToolManifest, doc: baseTool},
		{name: "repeats", kind: kinds.ToolManifest, doc: toolWith(`"name": "REGION"`, `"name": "API_TOKEN"`, `"name": "store"`, `"name": "lookup"`,
			`"scopes": [{"resource": "net.outbound", "actions": ["read"], "rationale": "Calls the demo API."}]`,
			`"scopes": [{"resource": "net.outbound", "actions": ["read"], "rationale": "Calls the demo API."}, {"resource": "net.outbound", "actions": ["write"], "rationale": "Posts."}]`),
			want: []hit{
				{ptr: "/env/1/name", at: `"API_TOKEN"`, nth: 1, hint: "once"},
				{ptr: "/actions/1/name", at: `"lookup"`, nth: 2, hint: "its own name"},
				{ptr: "/scopes/1/resource", at: `"net.outbound"`, nth: 1, hint: "declare each resource once"},
			}},
	})
}

func TestIM007PlaceholderNamespaces(t *testing.T) {
	t.Parallel()
	runLint(t, "IM007", []lintCase{
		{name: "env, input and bare declared env", kind: kinds.ToolManifest, doc: baseTool},
		{name: "shell variable and typo", kind: kinds.ToolManifest, doc: toolWith(`"${REGION}"`, `"${HOME}"`, `"${input.q}"`, `"${inputs.q}"`),
			want: []hit{
				{ptr: "/actions/0/invocation/argv_template/2", at: `"${inputs.q}"`, hint: "${input.name}"},
				{ptr: "/smoke/success/json_pointer_equals/~1region", at: `"${HOME}"`},
			}},
	})
}

func TestIM008SmokeArguments(t *testing.T) {
	t.Parallel()
	closed := `"input": {"type": "object", "required": ["q"], "additionalProperties": false, "properties": {"q": {"type": "string"}}}`
	runLint(t, "IM008", []lintCase{
		{name: "required passed", kind: kinds.ToolManifest, doc: toolWith(`"input": {"type": "object", "properties": {"q": {"type": "string"}}}`, closed)},
		{name: "open schema takes extra arguments", kind: kinds.ToolManifest, doc: toolWith(`"arguments": {"q": "x"}`, `"arguments": {"q": "x", "limit": 1}`)},
		{name: "required missing, extra refused", kind: kinds.ToolManifest,
			doc: toolWith(`"input": {"type": "object", "properties": {"q": {"type": "string"}}}`, closed, `"arguments": {"q": "x"}`, `"arguments": {"query": "x"}`),
			want: []hit{
				{ptr: "/smoke/arguments", at: `{"query"`, hint: `add "q"`},
				{ptr: "/smoke/arguments/query", at: `"query"`, hint: "remove the argument"},
			}},
		{name: "no arguments at all", kind: kinds.ToolManifest,
			doc:  toolWith(`"input": {"type": "object", "properties": {"q": {"type": "string"}}}`, closed, `"arguments": {"q": "x"}, `, ``),
			want: []hit{{ptr: "/smoke", at: `{"kind": "action-call"`, hint: `add "q"`}}},
	})
}

// TestLintStandaloneFromDisk runs `validate FILE` on testdata: the tool
// manifest's verify suite and the agent's prompt are read beside them.
func TestLintStandaloneFromDisk(t *testing.T) {
	t.Parallel()
	v := newV(t)
	for _, tc := range []struct {
		file  string
		rules []string
	}{
		{"tool/tool.json", []string{"IM005"}},
		{"agent/agent.json", []string{"OW012", "OW005"}},
		{"agent/graded.json", []string{"OW011", "EV001"}}, // the suite's own report follows the agent's
		{"pack", []string{"OW003", "OW005", "OW006"}},
	} {
		rep, err := v.Path(filepath.Join("testdata", "lint", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range rep.Problems() {
			got = append(got, p.Rule)
		}
		if strings.Join(got, " ") != strings.Join(tc.rules, " ") || rep.Valid {
			t.Errorf("%s: rules %v, want %v (valid=%v):\n%s", tc.file, got, tc.rules, rep.Valid, render(rep.Problems()))
		}
	}
}

// TestLintRealToolManifests: the real tool manifests pass every IM rule
// (the invalid one fails the schema only; the v0.3 one fails its const).
func TestLintRealToolManifests(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(fixtures.Path(t, "tool-manifests", "*.json"))
	if len(files) == 0 {
		t.Fatal("no tool manifests in the fixtures")
	}
	v := newV(t)
	for _, f := range files {
		rep, err := v.Path(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := lintCounts(rep); len(got) != 0 {
			t.Errorf("%s: lint problems %v:\n%s", filepath.Base(f), got, render(rep.Problems()))
		}
	}
}
