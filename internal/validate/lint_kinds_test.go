package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/kinds"
)

// chainWith builds a small valid v2 workflow-chain pack, with replacements.
func chainWith(repl ...string) string {
	return strings.NewReplacer(repl...).Replace(baseChain)
}

const baseChain = `{
  "name": "vendor.acme.chains",
  "version": "1.0.0",
  "kind": "workflow-chain",
  "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "chains": [
    {
      "chainId": "vendor.acme.chains.one",
      "version": "1.0.0",
      "label": "One",
      "description": "two steps",
      "parameters": {"type": "object", "properties": {"topic": {"type": "string"}}},
      "dag": {
        "nodes": [
          {"id": "first", "typeId": "core.ai.callPrompt", "config": {"systemPrompt": "About {{params.topic}}"}},
          {"id": "second", "typeId": "vendor.acme.tools.echo"}
        ],
        "edges": [{"from": "first.out", "to": "second"}]
      }
    }
  ]
}`

func TestBaseChainValid(t *testing.T) {
	t.Parallel()
	v := newV(t)
	// pinned, as a v2 chain's references are (WC010 warns otherwise)
	fr := v.File("doc.json", []byte(chainWith(`"core.ai.callPrompt"`, `"core.ai.callPrompt@1.0.0"`, `"vendor.acme.tools.echo"`, `"vendor.acme.tools.echo@1.0.0"`)), "")
	if fr.Kind != kinds.WorkflowChainPack || fr.Spec != kinds.V2 || len(fr.Errors)+len(fr.Warnings) != 0 {
		t.Fatalf("%s %s:\n%s", fr.Kind, fr.Spec, render(append(fr.Errors, fr.Warnings...)))
	}
}

func TestWorkflowChainRules(t *testing.T) {
	t.Parallel()
	wc := kinds.WorkflowChainPack
	runLint(t, "WC001", []lintCase{
		{name: "unique", kind: wc, doc: baseChain},
		{name: "repeat", kind: wc, doc: chainWith(`"chains": [`, `"chains": [{"chainId": "vendor.acme.chains.one"}, `),
			want: []hit{{ptr: "/chains/1/chainId", at: `"vendor.acme.chains.one"`, nth: 1, hint: "own chainId"}}},
	})
	runLint(t, "WC002", []lintCase{
		{name: "unique", kind: wc, doc: baseChain},
		{name: "repeat", kind: wc, doc: chainWith(`"id": "second"`, `"id": "first"`),
			want: []hit{{ptr: "/chains/0/dag/nodes/1/id", at: `"first"`, nth: 1, hint: "own id"}}},
	})
	runLint(t, "WC003", []lintCase{
		{name: "declared, with port", kind: wc, doc: baseChain},
		{name: "undeclared", kind: wc, doc: chainWith(`"to": "second"`, `"to": "third"`),
			want: []hit{{ptr: "/chains/0/dag/edges/0/to", at: `"third"`, hint: `"first", "second"`}}},
	})
	runLint(t, "WC004", []lintCase{
		{name: "acyclic", kind: wc, doc: baseChain},
		{name: "cycle", kind: wc, doc: chainWith(`"edges": [`, `"edges": [{"from": "second", "to": "first"}, `),
			want: []hit{{ptr: "/chains/0/dag/edges/0", at: `{"from": "second"`, hint: "remove one edge"}}},
	})
	runLint(t, "WC005", []lintCase{
		{name: "declared", kind: wc, doc: baseChain},
		{name: "undeclared", kind: wc, doc: chainWith(`About {{params.topic}}`, `About {{params.topic}} in {{params.tone}}`),
			want: []hit{{ptr: "/chains/0/dag/nodes/0/config/systemPrompt", at: `"About`, hint: `declare "tone"`}}},
	})
	runLint(t, "WC006", []lintCase{
		{name: "used", kind: wc, doc: baseChain},
		{name: "unused", kind: wc, doc: chainWith(`"properties": {"topic"`, `"properties": {"spare": {}, "topic"`),
			want: []hit{{ptr: "/chains/0/parameters/properties/spare", at: `"spare"`, hint: "remove the declaration"}}},
	})
	runLint(t, "WC007", []lintCase{
		{name: "pack.node and exact pin", kind: wc, doc: chainWith(`"vendor.acme.tools.echo"`, `"vendor.acme.tools.echo@1.2.3"`)},
		{name: "no pack", kind: wc, doc: chainWith(`"vendor.acme.tools.echo"`, `"echo"`),
			want: []hit{{ptr: "/chains/0/dag/nodes/1/typeId", at: `"echo"`, hint: "core.ai.callPrompt"}}},
		{name: "range pin", kind: wc, doc: chainWith(`"vendor.acme.tools.echo"`, `"vendor.acme.tools.echo@^1.2"`),
			want: []hit{{ptr: "/chains/0/dag/nodes/1/typeId", at: `"vendor.acme.tools.echo@`, hint: "exact version"}}},
	})
	runLint(t, "WC008", []lintCase{
		{name: "declared sibling", kind: wc, doc: chainWith(`"dag": {`, `"subChains": [{"ref": "vendor.acme.chains.one"}], "dag": {`, `"typeId": "vendor.acme.tools.echo"`, `"typeId": "core.subWorkflow", "config": {"subChainRef": "vendor.acme.chains.one"}`)},
		{name: "unresolved", kind: wc, doc: chainWith(`"dag": {`, `"subChains": [{"ref": "vendor.acme.chains.two"}], "dag": {`, `"typeId": "vendor.acme.tools.echo"`, `"typeId": "core.subWorkflow", "config": {"subChainRef": "other"}`),
			want: []hit{
				{ptr: "/chains/0/subChains/0/ref", at: `"vendor.acme.chains.two"`, hint: "sibling chain"},
				{ptr: "/chains/0/dag/nodes/1/config/subChainRef", at: `"other"`, hint: `{"ref": "other"}`},
			}},
	})
}

func TestDeclarativeKindRules(t *testing.T) {
	t.Parallel()
	card := `{"name": "vendor.acme.cards", "version": "1.0.0", "kind": "card", "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "cards": [{"cardTypeId": "vendor.acme.cards.a", "prompt": {}}, {"cardTypeId": "vendor.acme.cards.b", "prompt": {}}]}`
	runLint(t, "CD001", []lintCase{
		{name: "unique", kind: kinds.CardPack, doc: card},
		{name: "repeat", kind: kinds.CardPack, doc: strings.Replace(card, "cards.b", "cards.a", 1),
			want: []hit{{ptr: "/cards/1/cardTypeId", at: `"vendor.acme.cards.a"`, nth: 1, hint: "own cardTypeId"}}},
	})
	form := `{"name": "vendor.acme.forms", "version": "1.0.0", "kind": "form-content", "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "templates": [{"templateId": "t1", "fields": [{"id": "a"}, {"id": "b"}]}, {"templateId": "t2", "fields": [{"id": "a"}]}]}`
	runLint(t, "FC001", []lintCase{
		{name: "unique", kind: kinds.FormContentPack, doc: form},
		{name: "repeat", kind: kinds.FormContentPack, doc: strings.Replace(form, `"t2"`, `"t1"`, 1),
			want: []hit{{ptr: "/templates/1/templateId", at: `"t1"`, nth: 1, hint: "own templateId"}}},
	})
	runLint(t, "FC002", []lintCase{
		{name: "unique within a template", kind: kinds.FormContentPack, doc: form},
		{name: "repeat", kind: kinds.FormContentPack, doc: strings.Replace(form, `{"id": "b"}`, `{"id": "a"}`, 1),
			want: []hit{{ptr: "/templates/0/fields/1/id", at: `"a"`, nth: 1, hint: "own id"}}},
	})
	prompt := `{"name": "vendor.acme.prompts", "version": "1.0.0", "kind": "prompt", "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "prompts": [{"templateId": "p1"}, {"templateId": "p2"}]}`
	runLint(t, "PR001", []lintCase{
		{name: "unique", kind: kinds.PromptPack, doc: prompt},
		{name: "repeat", kind: kinds.PromptPack, doc: strings.Replace(prompt, `"p2"`, `"p1"`, 1),
			want: []hit{{ptr: "/prompts/1/templateId", at: `"p1"`, nth: 1, hint: "own templateId"}}},
	})
	art := `{"name": "vendor.acme.arts", "version": "1.0.0", "kind": "artifact-type", "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "artifactTypes": [{"artifactTypeId": "x.a", "schemaRef": "a.json"}, {"artifactTypeId": "x.b", "schemaRef": "b.json"}]}`
	runLint(t, "AT001", []lintCase{
		{name: "unique", kind: kinds.ArtifactTypePack, doc: art},
		{name: "repeat", kind: kinds.ArtifactTypePack, doc: strings.Replace(art, `"x.b"`, `"x.a"`, 1),
			want: []hit{{ptr: "/artifactTypes/1/artifactTypeId", at: `"x.a"`, nth: 1, hint: "own artifactTypeId"}}},
	})
}

const v2Node = `{
  "name": "vendor.acme.tools",
  "version": "1.0.0",
  "kind": "node",
  "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "runtime": {"language": "remote", "entry": "https://mcp.acme.example/mcp"},
  "peerDependencies": {"aiProviders": "supported"},
  "signing": {"keyId": "acme-1", "scheme": "ed25519-canonical-json"},
  "nodes": []
}`

func TestV2PackRules(t *testing.T) {
	t.Parallel()
	runLint(t, "PK001", []lintCase{
		{name: "admits 2", kind: kinds.NodePack, doc: v2Node},
		{name: "v1 ceiling", kind: kinds.NodePack, doc: strings.Replace(v2Node, "<3.0.0", "<2.0.0", 1),
			want: []hit{{ptr: "/engines/openwop", at: `">=1.0.0 <2.0.0"`, hint: "<3.0.0"}}},
		{name: "v1 document: not checked", kind: kinds.NodePack, doc: strings.NewReplacer("<3.0.0", "<2.0.0", `"keyId": "acme-1", "scheme": "ed25519-canonical-json"`, `"method": "manual"`).Replace(v2Node)},
		// check-pack-engines-admit-major refuses a v1 source whose range
		// stops at major 1: an error with --for-registry.
		{name: "v1 document, --for-registry", kind: kinds.NodePack, reg: true, doc: strings.NewReplacer("<3.0.0", "<2.0.0", `"keyId": "acme-1", "scheme": "ed25519-canonical-json"`, `"method": "manual"`).Replace(v2Node),
			want: []hit{{ptr: "/engines/openwop", at: `">=1.0.0 <2.0.0"`, hint: "<3.0.0"}}},
	})
	runLint(t, "PK002", []lintCase{
		{name: "family", kind: kinds.NodePack, doc: v2Node},
		{name: "v1 alias", kind: kinds.NodePack, doc: strings.Replace(v2Node, `"aiProviders"`, `"host.agentRuntime"`, 1),
			want: []hit{{ptr: "/peerDependencies/host.agentRuntime", at: `"host.agentRuntime"`, hint: `"agentRuntime"`}}},
		{name: "deleted family", kind: kinds.NodePack, doc: strings.Replace(v2Node, `"aiProviders"`, `"grpc"`, 1),
			want: []hit{{ptr: "/peerDependencies/grpc", at: `"grpc"`, hint: "declaration.json"}}},
	})
	runLint(t, "PK003", []lintCase{
		{name: "keyId, scheme", kind: kinds.NodePack, doc: v2Node},
		{name: "reversed", kind: kinds.NodePack, doc: strings.Replace(v2Node, `"keyId": "acme-1", "scheme": "ed25519-canonical-json"`, `"scheme": "ed25519-canonical-json", "keyId": "acme-1"`, 1),
			want: []hit{{ptr: "/signing", at: `{"scheme"`, hint: `"keyId"`}}},
	})
	mcp := strings.Replace(v2Node, `"entry": "https://mcp.acme.example/mcp"`, `"entry": "https://mcp.acme.example/mcp", "mcpServer": {"name": "x", "description": "d", "version": "1.0.0", "remotes": [{"type": "streamable-http", "url": "https://mcp.acme.example/mcp"}]}`, 1)
	runLint(t, "PK004", []lintCase{
		{name: "equal", kind: kinds.NodePack, doc: mcp},
		{name: "differs", kind: kinds.NodePack, doc: strings.Replace(mcp, `"entry": "https://mcp.acme.example/mcp"`, `"entry": "https://other.example/mcp"`, 1),
			want: []hit{{ptr: "/runtime/entry", at: `"https://other.example/mcp"`, hint: "https://mcp.acme.example/mcp"}}},
	})
	runLint(t, "PK005", []lintCase{
		{name: "no mcpServer", kind: kinds.NodePack, doc: v2Node},
		{name: "mcpServer", kind: kinds.NodePack, doc: mcp, want: []hit{{ptr: "/runtime/mcpServer", at: `"mcpServer"`, hint: "publish once"}}},
	})
}

func TestDetectSpec(t *testing.T) {
	t.Parallel()
	cases := map[string]kinds.Spec{
		`{"$schema": "https://openwop.dev/spec/v2/node-pack-manifest.schema.json"}`:                                           kinds.V2,
		`{"$schema": "https://openwop.dev/spec/v1/node-pack-manifest.schema.json", "engines": {"openwop": ">=1.0.0 <3.0.0"}}`: kinds.V1,
		`{"signing": {"keyId": "k", "scheme": "ed25519-canonical-json"}}`:                                                     kinds.V2,
		`{"signing": {"method": "ed25519", "keyId": "k"}, "engines": {"openwop": "<3.0.0"}}`:                                  kinds.V1,
		`{"tarballUrl": "/v2/packs/x/-/1.0.0.tgz"}`:                                                                           kinds.V2,
		`{"engines": {"openwop": ">=1.0.0 <3.0.0"}}`:                                                                          kinds.V2,
		`{"engines": {"openwop": "^2.0.0"}}`:                                                                                  kinds.V2,
		`{"engines": {"openwop": ">=1.0.0"}}`:                                                                                 kinds.V1,
		`{"engines": {"openwop": ">=1.0.0 <2.0.0"}, "kind": "node"}`:                                                          kinds.V1,
		`{"name": "x"}`: kinds.V1,
	}
	v := newV(t)
	for src, want := range cases {
		if fr := v.File("doc.json", []byte(src), kinds.NodePack); fr.Spec != want {
			t.Errorf("%s: spec %s, want %s", src, fr.Spec, want)
		}
	}
	forced, err := New(Options{Spec: kinds.V2})
	if err != nil {
		t.Fatal(err)
	}
	if fr := forced.File("doc.json", []byte(`{"engines": {"openwop": ">=1.0.0 <2.0.0"}}`), kinds.NodePack); fr.Spec != kinds.V2 {
		t.Errorf("--spec v2 gave %s", fr.Spec)
	}
}

// TestV2RegistryManifests validates every saved v2 version manifest as the
// CLI does (detection, both schemas, every lint rule): the registry
// published them, so wopkit must find no error in any.
func TestV2RegistryManifests(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(fixtures.SpecV2(t), "registry", "v2", "packs", "*", "-", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	v := newV(t)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".sbom.json") {
			continue
		}
		n++
		rep, err := v.Path(f)
		if err != nil {
			t.Fatal(err)
		}
		fr := rep.Files[0]
		if fr.Kind != kinds.VersionManifest || fr.Spec != kinds.V2 || len(fr.Errors) > 0 {
			t.Errorf("%s: %s %s\n%s", f, fr.Kind, fr.Spec, render(fr.Errors))
		}
	}
	if n < 10 {
		t.Fatalf("only %d v2 version manifests found", n)
	}
}

// --schemas DIR replaces a schema of the table by $id, for the v2 and the
// registry-v1 sets too: here the v2 chain schema is replaced by one that
// requires a member the base chain does not have, while the v1 chain schema
// (another $id) is untouched.
func TestSchemasOverrideByID(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	override := `{"$id": "` + kinds.SchemaIDFor(kinds.V2, kinds.WorkflowChainPack) + `", "type": "object", "required": ["x-reviewed"]}`
	if err := os.WriteFile(filepath.Join(dir, "chain.json"), []byte(override), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{SchemaDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	fr := v.File("doc.json", []byte(baseChain), "")
	if len(fr.Errors) != 1 || !strings.Contains(fr.Errors[0].Message, "x-reviewed") {
		t.Errorf("v2 override not used:\n%s", render(fr.Errors))
	}
	v1 := strings.Replace(baseChain, "<3.0.0", "<2.0.0", 1)
	if fr := v.File("doc.json", []byte(v1), ""); fr.Spec != kinds.V1 || strings.Contains(render(fr.Errors), "x-reviewed") {
		t.Errorf("the v1 chain schema was overridden too: %s\n%s", fr.Spec, render(fr.Errors))
	}
}

const baseCard = `{"name": "vendor.acme.cards", "version": "1.0.0", "kind": "card", "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "cards": [{"cardTypeId": "vendor.acme.cards.sum",
    "inputs": [{"id": "source", "type": "text"}, {"id": "length", "type": "text"}],
    "prompt": {"template": "Summarize at {{length}}: {{source}}", "placeholderMapping": {"source": "inputs.source", "length": "inputs.length"}}}]}`

func TestCardRules(t *testing.T) {
	t.Parallel()
	v := newV(t)
	if fr := v.File("doc.json", []byte(baseCard), ""); len(fr.Errors)+len(fr.Warnings) != 0 {
		t.Fatalf("base card:\n%s", render(append(fr.Errors, fr.Warnings...)))
	}
	runLint(t, "CD002", []lintCase{
		{name: "mapped", kind: kinds.CardPack, doc: baseCard},
		{name: "unmapped slot", kind: kinds.CardPack, doc: strings.Replace(baseCard, "{{source}}", "{{source}} {{tone}}", 1),
			want: []hit{{ptr: "/cards/0/prompt/template", at: `"Summarize`, hint: `"tone": "inputs.<id>"`}}},
	})
	runLint(t, "CD003", []lintCase{
		{name: "used", kind: kinds.CardPack, doc: baseCard},
		{name: "unused mapping", kind: kinds.CardPack, doc: strings.Replace(baseCard, `"length": "inputs.length"}`, `"length": "inputs.length", "spare": "inputs.source"}`, 1),
			want: []hit{{ptr: "/cards/0/prompt/placeholderMapping/spare", at: `"spare"`, hint: "remove the mapping"}}},
	})
	runLint(t, "CD004", []lintCase{
		{name: "declared input", kind: kinds.CardPack, doc: baseCard},
		{name: "undeclared input", kind: kinds.CardPack, doc: strings.Replace(baseCard, `"inputs.length"`, `"inputs.size"`, 1),
			want: []hit{{ptr: "/cards/0/prompt/placeholderMapping/length", at: `"inputs.size"`, hint: `"size"`}}},
	})
	runLint(t, "CD005", []lintCase{
		{name: "unique", kind: kinds.CardPack, doc: baseCard},
		{name: "repeat", kind: kinds.CardPack, doc: strings.Replace(baseCard, `{"id": "length"`, `{"id": "source"`, 1),
			want: []hit{{ptr: "/cards/0/inputs/1/id", at: `"source"`, nth: 1, hint: "own id"}}},
	})
	runLint(t, "WC009", []lintCase{
		{name: "edges", kind: kinds.WorkflowChainPack, doc: baseChain},
		{name: "one node, no edges", kind: kinds.WorkflowChainPack, doc: chainWith(`,
          {"id": "second", "typeId": "vendor.acme.tools.echo"}`, "", `,
        "edges": [{"from": "first.out", "to": "second"}]`, "")},
		{name: "two nodes, no edges", kind: kinds.WorkflowChainPack, doc: chainWith(`,
        "edges": [{"from": "first.out", "to": "second"}]`, ""),
			want: []hit{{ptr: "/chains/0/dag", at: `{
        "nodes"`, hint: `"edges"`}}},
	})
}

func TestPromptRules(t *testing.T) {
	t.Parallel()
	doc := `{"name": "vendor.acme.prompts", "version": "1.0.0", "kind": "prompt", "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "prompts": [{"templateId": "vendor.acme.prompts.w", "version": "1.0.0", "kind": "system",
    "text": "Write about {{topic}} in a {{{tone}}} voice.{{#extra}} More.{{/extra}}{{! note }}",
    "variables": [{"name": "topic", "type": "string", "required": true}, {"name": "tone", "type": "string", "required": false}]}]}`
	runLint(t, "PR002", []lintCase{
		{name: "declared (sections and comments are not variables)", kind: kinds.PromptPack, doc: doc},
		{name: "undeclared", kind: kinds.PromptPack, doc: strings.Replace(doc, "{{topic}}", "{{topic}} for {{audience}}", 1),
			want: []hit{{ptr: "/prompts/0/text", at: `"Write`, hint: `"audience"`}}},
	})
	runLint(t, "PR003", []lintCase{
		{name: "unique", kind: kinds.PromptPack, doc: doc},
		{name: "repeat", kind: kinds.PromptPack, doc: strings.Replace(doc, `{"name": "tone"`, `{"name": "topic"`, 1),
			want: []hit{{ptr: "/prompts/0/variables/1/name", at: `"topic"`, nth: 1, hint: "own name"}}},
	})
}

func TestConnectionRules(t *testing.T) {
	t.Parallel()
	conn := `{"name": "vendor.acme.conn", "version": "1.0.0", "kind": "connection", "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "provider": {"id": "acme", "displayName": "Acme",
    "auth": {"kind": "oauth2", "issuer": "https://auth.acme.example", "pkce": "S256"},
    "reach": {"mcp": {"server": {"url": "https://mcp.acme.example/mcp", "transport": "http"}}}}}`
	runLint(t, "CN001", []lintCase{
		{name: "issuer declared", kind: kinds.ConnectionPack, doc: conn},
		{name: "no issuer", kind: kinds.ConnectionPack, doc: strings.Replace(conn, `"issuer": "https://auth.acme.example", `, "", 1),
			want: []hit{{ptr: "/provider/auth", at: `{"kind"`, hint: `add "issuer"`}}},
		{name: "api key: no issuer needed", kind: kinds.ConnectionPack, doc: strings.NewReplacer(`"issuer": "https://auth.acme.example", `, "", `"oauth2"`, `"api_key"`).Replace(conn)},
		{name: "not reached as MCP", kind: kinds.ConnectionPack, doc: strings.NewReplacer(`"issuer": "https://auth.acme.example", `, "",
			`{"mcp": {"server": {"url": "https://mcp.acme.example/mcp", "transport": "http"}}}`, `{"integration": {"node": "core.openwop.integration.acme"}}`).Replace(conn)},
	})
	runLint(t, "CN002", []lintCase{
		{name: "S256", kind: kinds.ConnectionPack, doc: conn},
		{name: "unsupported over MCP", kind: kinds.ConnectionPack, doc: strings.Replace(conn, `"S256"`, `"unsupported"`, 1),
			want: []hit{{ptr: "/provider/auth/pkce", at: `"unsupported"`, hint: "S256"}}},
		{name: "unsupported over OpenAPI", kind: kinds.ConnectionPack, doc: strings.NewReplacer(`"S256"`, `"unsupported"`,
			`{"mcp": {"server": {"url": "https://mcp.acme.example/mcp", "transport": "http"}}}`, `{"openapi": {"ref": "https://api.acme.example/openapi.json"}}`).Replace(conn)},
	})
}

// OW008 applies to every pack kind the registry publishes (issue 18 item
// 7): a core.* name warns always, a private.* or local.* name only for a
// registry; a vendor.* or community.* name never.
func TestOW008EveryKind(t *testing.T) {
	engines := `"engines": {"openwop": ">=1.0.0 <3.0.0"}`
	docs := map[kinds.Kind]string{kinds.NodePack: `{"name": "NAME", "version": "1.0.0", "kind": "node", ` + engines + `, "nodes": []}`, kinds.WorkflowChainPack: strings.Replace(baseChain, `"vendor.acme.chains"`, `"NAME"`, 1), kinds.ConnectionPack: `{"name": "NAME", "version": "1.0.0", "kind": "connection", ` + engines + `,
  "provider": {"id": "acme", "displayName": "Acme", "category": "other", "auth": {"kind": "api_key"}, "reach": {"integration": {"node": "core.openwop.integration.acme"}}}}`, kinds.PromptPack: `{"name": "NAME", "version": "1.0.0", "kind": "prompt", ` + engines + `, "prompts": [{"templateId": "p1"}]}`, kinds.CardPack: strings.Replace(baseCard, `"vendor.acme.cards"`, `"NAME"`, 1), kinds.FormContentPack: `{"name": "NAME", "version": "1.0.0", "kind": "form-content", ` + engines + `, "templates": [{"templateId": "t1", "fields": []}]}`, kinds.ArtifactTypePack: `{"name": "NAME", "version": "1.0.0", "kind": "artifact-type", ` + engines + `, "artifactTypes": [{"artifactTypeId": "x.a", "schemaRef": "https://x.example/a.json"}]}`,
	}
	if len(docs) != len(kinds.PackNames())-1 { // every kind but frontend-plugin, which the registry does not publish
		t.Fatalf("a pack kind has no OW008 case: %d cases for %d kinds", len(docs), len(kinds.PackNames()))
	}
	for kind, doc := range docs {
		named := func(n string) string { return strings.Replace(doc, `"NAME"`, `"`+n+`"`, 1) }
		runLint(t, "OW008", []lintCase{
			{name: string(kind) + "/vendor", kind: kind, doc: named("vendor.acme.things"), reg: true},
			{name: string(kind) + "/community", kind: kind, doc: named("community.someone.things"), reg: true},
			{name: string(kind) + "/private without --for-registry", kind: kind, doc: named("private.host.things")},
			{name: string(kind) + "/core", kind: kind, doc: named("core.openwop.things"),
				want: []hit{{ptr: "/name", at: `"core.openwop.things"`, hint: "vendor.<org>"}}},
			{name: string(kind) + "/private for a registry", kind: kind, doc: named("private.host.things"), reg: true,
				want: []hit{{ptr: "/name", at: `"private.host.things"`, hint: "before publishing"}}},
			{name: string(kind) + "/local for a registry", kind: kind, doc: named("local.dev.things"), reg: true,
				want: []hit{{ptr: "/name", at: `"local.dev.things"`, hint: "before publishing"}}},
		})
	}
}
