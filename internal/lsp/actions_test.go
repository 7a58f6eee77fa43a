package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
)

// scaffoldKind writes a declarative pack of kind (as `new pack --yes --set
// kind=...` does) into dir/name and returns its pack.json path.
func scaffoldKind(t *testing.T, dir, kind, name string) string {
	t.Helper()
	k, ok := scaffold.PackKind(kind)
	if !ok {
		t.Fatalf("kind %s", kind)
	}
	a := k.New()
	k.Pack(a).Name = name
	v, _ := validate.New(validate.Options{})
	p, err := k.Plan(a, v)
	if err != nil {
		t.Fatal(err)
	}
	pdir := filepath.Join(dir, scaffold.PackDir(name))
	if err := p.Write(pdir, false); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(pdir, "pack.json")
}

// apply makes an action's text edits to text (the edits to file only).
func apply(t *testing.T, a codeAction, text []byte) []byte {
	t.Helper()
	b, _ := json.Marshal(a.Edit)
	var e struct {
		DocumentChanges []protocol.TextDocumentEdit `json:"documentChanges"`
	}
	if err := json.Unmarshal(b, &e); err != nil || len(e.DocumentChanges) != 1 || len(e.DocumentChanges[0].Edits) != 1 {
		t.Fatalf("edit %s: %v", b, err)
	}
	ed := e.DocumentChanges[0].Edits[0]
	ls := newLines(text)
	start, end := ls.offset(ed.Range.Start), ls.offset(ed.Range.End)
	return append(append(append([]byte{}, text[:start]...), ed.NewText...), text[end:]...)
}

// problems is what validate reports on the document text at path.
func problems(t *testing.T, path string, text []byte) []validate.Problem {
	t.Helper()
	v, _ := validate.New(validate.Options{})
	fsys, err := untrusted.DirFS(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	rep := v.Document(filepath.ToSlash(path), fsys, text)
	var out []validate.Problem
	for _, p := range rep.Problems() {
		if filepath.Clean(p.File) == path {
			out = append(out, p)
		}
	}
	return out
}

func ruleIn(ps []validate.Problem, rule string) bool {
	for _, p := range ps {
		if p.Rule == rule {
			return true
		}
	}
	return false
}

func errorsIn(ps []validate.Problem) []validate.Problem {
	var out []validate.Problem
	for _, p := range ps {
		if p.Severity == validate.Error {
			out = append(out, p)
		}
	}
	return out
}

// removed is text without the member at pointer.
func removed(t *testing.T, text, pointer string) []byte {
	t.Helper()
	b, err := jsonedit.Remove([]byte(text), pointer)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// carriedFix are the rules whose quick fix the problem carries
// (validate.Problem.Fix): the language server knows nothing of them.
var carriedFix = map[string]bool{"PR002": true, "CD002": true, "OW005": true, "OW006": true, "IM005": true,
	"OW004": true, "OW007": true, "OW010": true, "PK003": true, "PK004": true, "CN002": true, "CD003": true,
	"OW003": true, "EV003": true, "WC006": true, "OW016": true, "PK001": true, "PK002": true, "WC005": true, "WC010": true}

// Each quick fix, applied as the client would, leaves a document on which
// validate no longer reports the rule, and no error.
func TestQuickFixesSilenceTheirRule(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	chain := scaffoldKind(t, root, "workflow-chain", "vendor.acme.chains")
	prompt := scaffoldKind(t, root, "prompt", "vendor.acme.prompts")
	card := scaffoldKind(t, root, "card", "vendor.acme.cards")
	conn := scaffoldKind(t, root, "connection", "vendor.acme.conn")
	node := filepath.Join(scaffoldPackIn(t, filepath.Join(root, "other")), "pack.json") // fixes are offered inside the workspace only
	nodeIn := filepath.Join(scaffoldPackIn(t, root), "pack.json")                       // its files are read
	suite := filepath.Join(root, "suite.json")
	suiteText := `{
  "suiteId": "vendor.acme.evals.basic",
  "version": "1.0.0",
  "modes": ["rubric"],
  "tasks": [
    {"taskId": "polite", "input": "hi", "expected": {"kind": "rubric", "rubric": [{"criterion": "polite", "weight": 0.7}, {"criterion": "short", "weight": 0.6}, {"criterion": "clear", "weight": 1}]}}
  ]
}`
	tool := filepath.Join(root, "tools", "demo.tool.json")
	if err := os.MkdirAll(filepath.Join(root, "tools", "verify"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tools", "verify", "cases.jsonl"), []byte("{\"a\":1}\n\n{\"a\":2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	toolText := `{
  "manifest_version": "0.4",
  "tool": {"id": "demo-tool", "version": "1.0.0", "name": "Demo", "summary": "A demo tool.", "homepage": "https://example.com/demo"},
  "runtime": {"kind": "shell-binary", "install": {"method": "preinstalled", "locator": {"kind": "binary-on-path", "binary": "demo"}},
    "entrypoint": {"command": ["demo", "--quiet"]}},
  "scopes": [{"resource": "net.outbound", "actions": ["read"], "rationale": "Calls the demo API."}],
  "actions": [
    {"name": "lookup", "summary": "Look a thing up.",
     "invocation": {"kind": "subcommand", "argv_template": ["lookup", "--q", "${input.q}"]},
     "input": {"type": "object", "properties": {"q": {"type": "string"}}},
     "side_effects": "read", "scopes_used": ["net.outbound"]}
  ],
  "smoke": {"kind": "action-call", "action": "lookup", "arguments": {"q": "x"}, "success": {"exit_code": 0}},
  "verify": {"suite": {"ref": "verify/cases.jsonl", "format": "jsonl-cases", "case_count": 3}},
  "kill_switch": {"kind": "manual", "instructions": "Revoke the token."}
}`
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		name, path, text, rule, title string
	}{
		{"declare a template variable", prompt, strings.Replace(read(prompt), "in a {{tone}} tone", "in a {{tone}} tone for {{audience}}", 1), "PR002", `Declare "audience" in variables[]`},
		{"declare a chain parameter", chain, strings.Replace(read(chain), `"{{params.url}}"`, `"{{params.url}}/{{params.topic}}"`, 1), "WC005", `Declare parameter "topic" in parameters.properties`},
		{"pin a chain reference", chain, strings.Replace(strings.Replace(read(chain), `"core.openwop.http.fetch@1.0.0"`, `"core.openwop.http.fetch"`, 1),
			`"chains": [`, `"dependencies": {"core.openwop.http": "^1.2.0"},`+"\n  "+`"chains": [`, 1), "WC010", "Pin core.openwop.http.fetch@1.2.0"},
		{"write a clean reference", node, strings.Replace(read(node), `"schemas/hello.input.json"`, `"schemas//hello.input.json"`, 1), "OW016", `Write "schemas/hello.input.json"`},
		{"prefix an agent id", node, strings.Replace(read(node), `"vendor.acme.hello.writer"`, `"writer"`, 1), "OW003", `Rename the agent to "vendor.acme.hello.writer"`},
		{"admit protocol major 2", node, strings.Replace(strings.Replace(read(node), `">=1.0.0 <3.0.0"`, `">=1.2.0 <2.0.0"`, 1),
			`"license": "Apache-2.0",`, `"license": "Apache-2.0", "signing": {"keyId": "acme-2026", "scheme": "ed25519-canonical-json"},`, 1), "PK001", `Write ">=1.2.0 <3.0.0"`},
		{"entry of an MCP server pack", node, strings.Replace(read(node), `"language": "javascript",
    "format": "esm",
    "entry": "index.mjs",
    "minRuntimeVersion": "node>=20"`, `"language": "remote",
    "entry": "https://old.acme.example/mcp",
    "mcpServer": {"name": "example.acme/hello", "description": "Hello", "version": "0.1.0",
      "remotes": [{"type": "streamable-http", "url": "https://mcp.acme.example/mcp"}]}`, 1), "PK004", `Set runtime.entry to "https://mcp.acme.example/mcp"`},
		{"an empty peer dependency", node, strings.Replace(read(node), `"aiProviders": "supported"`, `"aiProviders": " "`, 1), "OW010", `Write "supported" for "aiProviders"`},
		{"peer metadata without its peer", node, strings.Replace(read(node), `"nodes": [`, `"peerDependenciesMeta": {"aiProviders": {"optional": true}, "memory": {"optional": true}},
  "nodes": [`, 1), "OW010", `Remove the peerDependenciesMeta entry "memory"`},
		{"pkce on an MCP provider", conn, strings.Replace(read(conn), `"kind": "oauth2",`, `"kind": "oauth2", "pkce": "unsupported",`, 1), "CN002", `Set auth.pkce to "S256"`},
		{"an unused chain parameter", chain, strings.Replace(strings.Replace(read(chain), `"required": [`, `"required": ["topic",`, 1),
			`"properties": {`, `"properties": {"topic": {"type": "string"},`, 1), "WC006", `Remove the unused parameter "topic"`},
		{"an unused card mapping", card, strings.Replace(read(card), `"length": "inputs.length"`, `"length": "inputs.length", "tone": "inputs.length"`, 1), "CD003", `Remove the unused mapping "tone"`},
		{"a pack of agents only", node, string(removed(t, read(node), "/nodes")), "OW004", `Set "runtime": {"language": "remote", "entry": "pack.json"}`},
		{"a signing block out of order", node, strings.Replace(read(node), `"license": "Apache-2.0",`, `"license": "Apache-2.0", "signing": {"scheme": "ed25519-canonical-json", "note": "x", "keyId": "acme-2026"},`, 1),
			"PK003", "Write the signing block as {keyId, scheme}"},
		{"rubric weights that do not add up", suite, suiteText, "EV003", "Scale the weights to add up to 1.0"},
		{"a v1 peer key", node, strings.Replace(read(node), `"agentRuntime": "supported"`, `"host.agentRuntime": "supported"`, 1), "PK002",
			`Rename the peer dependency "host.agentRuntime" to the family "agentRuntime"`},
		{"a v1 peer key with a facet", node, strings.Replace(read(node), `"aiProviders": "supported"`, `"aiProviders.imageGeneration": "supported"`, 1), "PK002",
			`Rename the peer dependency "aiProviders.imageGeneration" to the family "aiProviders"`},
		{"a provider on an api key", node, strings.Replace(read(node), `"role": "pure",`, `"role": "pure", "requiresSecrets": [{"id": "k", "kind": "api-key", "provider": "openai"}],`, 1), "OW007", `Remove "provider"`},
		{"an unmapped card slot", card, string(removed(t, read(card), "/cards/0/prompt/placeholderMapping/length")), "CD002", `Map {{length}} to "inputs.length"`},
		{"a reference to a file elsewhere", nodeIn, strings.Replace(read(nodeIn), `"inputSchemaRef": "schemas/hello.input.json"`, `"inputSchemaRef": "hello.input.json"`, 1), "OW005", `Point it at "schemas/hello.input.json"`},
		{"an entry elsewhere", nodeIn, strings.Replace(read(nodeIn), `"entry": "index.mjs"`, `"entry": "dist/index.mjs"`, 1), "OW006", `Point it at "index.mjs"`},
		{"a stale case count", tool, toolText, "IM005", "Set case_count to 2"},
		{"add the missing kind", node, strings.Replace(read(node), `"kind": "node",`, "", 1), "", `Add "kind": "node"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := problems(t, tc.path, []byte(tc.text))
			if tc.rule != "" && !ruleIn(before, tc.rule) {
				t.Fatalf("the broken document raises no %s: %v", tc.rule, before)
			}
			if carriedFix[tc.rule] {
				var fix *validate.Fix
				for _, p := range before {
					if p.Rule == tc.rule && p.Fix != nil && p.Fix.Title == tc.title {
						fix = p.Fix
					}
				}
				if fix == nil {
					t.Fatalf("validate's %s does not carry the fix %q: %+v", tc.rule, tc.title, before)
				}
			}
			c := startSession(t, root, Options{})
			defer c.stop()
			u := c.open(tc.path, tc.text, 1)
			pub := c.waitDiags(u, "v1", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 })
			rng := protocol.Range{Start: protocol.Position{}, End: protocol.Position{Line: 1 << 20}}
			if d := hasCode(pub.Diagnostics, tc.rule); tc.rule != "" {
				if d == nil {
					t.Fatalf("no %s diagnostic: %+v", tc.rule, pub.Diagnostics)
				}
				rng = d.Range
			}
			var acts []codeAction
			if err := c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: rng}, &acts); err != nil {
				t.Fatal(err)
			}
			var act *codeAction
			var titles []string
			for i := range acts {
				titles = append(titles, acts[i].Title)
				if acts[i].Title == tc.title {
					act = &acts[i]
				}
			}
			if act == nil {
				t.Fatalf("no action %q among %q", tc.title, titles)
			}
			// A fix that needs a choice is offered, not preferred (an
			// editor's "fix all" leaves it, as validate --fix does).
			var choice bool
			for _, p := range before {
				if p.Rule == tc.rule && p.Fix != nil && p.Fix.Title == tc.title {
					choice = p.Fix.Choice != ""
				}
			}
			if tc.rule != "" && act.IsPreferred == choice {
				t.Errorf("%q: preferred %v, though its fix needs a choice: %v", tc.title, act.IsPreferred, choice)
			}
			after := apply(t, *act, []byte(tc.text))
			ps := problems(t, tc.path, after)
			if tc.rule != "" && ruleIn(ps, tc.rule) || len(errorsIn(ps)) > 0 {
				t.Errorf("after %q: %v\n%s", tc.title, ps, after)
			}
			if tc.rule == "" && !strings.Contains(string(after), `"kind": "node"`) {
				t.Errorf("kind not added:\n%s", after)
			}
		})
	}
}

// A v1 pack.json is offered the migration, and the migrated text is a v2
// document validate accepts.
func TestMigrateAction(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "old")
	a := scaffold.PackAnswers{}.Defaults()
	a.Name, a.Spec = "vendor.acme.old", "v1"
	v, _ := validate.New(validate.Options{})
	plan, err := scaffold.PlanPack(a, v)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	pj := filepath.Join(dir, "pack.json")
	text, _ := os.ReadFile(pj)
	c := startSession(t, dir, Options{})
	defer c.stop()
	u := c.open(pj, string(text), 1)
	var acts []codeAction
	if err := c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.Source}}}, &acts); err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 || acts[0].Kind != KindMigrate {
		t.Fatalf("actions: %+v", acts)
	}
	after := apply(t, acts[0], text)
	doc := parsed(after)
	if doc == nil {
		t.Fatalf("migrated text does not parse:\n%s", after)
	}
	if sp, _ := kinds.DetectSpec(doc.Root); sp != kinds.V2 {
		t.Errorf("migrated pack is %s:\n%s", sp, after)
	}
	if ps := errorsIn(problems(t, pj, after)); len(ps) > 0 {
		t.Errorf("migrated pack: %v", ps)
	}
}
