package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"
	"go.lsp.dev/protocol"
)

// complete asks for completion at the first occurrence of marker in text
// (the cursor after its first `after` bytes).
func complete(t *testing.T, c *testClient, u protocol.DocumentURI, text, marker string, after int) []protocol.CompletionItem {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("no %q in the document", marker)
	}
	var cl protocol.CompletionList
	if err := c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: newLines([]byte(text)).position(i + after)}}, &cl); err != nil {
		t.Fatal(err)
	}
	return cl.Items
}

func TestCompletionSources(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	chain := scaffoldKind(t, root, "workflow-chain", "vendor.acme.chains")
	prompt := scaffoldKind(t, root, "prompt", "vendor.acme.prompts")
	// A node pack in the workspace that the chain depends on.
	dep := filepath.Join(root, "http")
	os.MkdirAll(dep, 0o755)
	os.WriteFile(filepath.Join(dep, "pack.json"), []byte(`{"name": "core.openwop.http", "version": "1.4.2", "nodes": [{"typeId": "core.openwop.http.fetch"}, {"typeId": "core.openwop.http.post"}]}`), 0o644)
	node := filepath.Join(scaffoldPackIn(t, root), "pack.json")
	c := startSession(t, root, Options{})
	defer c.stop()

	// typeIds a chain step may reference: its dependencies' nodes, pinned.
	b, _ := os.ReadFile(chain)
	text := strings.Replace(string(b), `"chains": [`, `"dependencies": {"core.openwop.http": "^1.0.0", "vendor.other.pack": "^2.0.0"},`+"\n  "+`"chains": [`, 1)
	text = strings.Replace(text, `"typeId": "core.openwop.http.fetch@1.0.0"`, `"typeId": ""`, 1)
	u := c.open(chain, text, 1)
	items := complete(t, c, u, text, `"typeId": ""`, len(`"typeId": "`))
	for _, want := range []string{"core.openwop.http.fetch@1.4.2", "core.openwop.http.post@1.4.2", "vendor.other.pack."} {
		if !containsLabel(items, want) {
			t.Errorf("typeId completion lacks %s: %v", want, labels(items, 20))
		}
	}
	// Inside "{{params." of a chain: its parameters.
	text2 := strings.Replace(text, `"{{params.url}}"`, `"{{par"`, 1)
	c.change(u, text2, 2)
	items = complete(t, c, u, text2, `"{{par"`, len(`"{{par`))
	if !containsLabel(items, "params.url") || !containsLabel(items, "params.length") {
		t.Errorf("chain template completion: %v", labels(items, 10))
	}

	// A prompt template's declared variables after "{{".
	b, _ = os.ReadFile(prompt)
	ptext := strings.Replace(string(b), "{{text}}", "{{", 1)
	pu := c.open(prompt, ptext, 1)
	items = complete(t, c, pu, ptext, `\n\n{{`, len(`\n\n{{`))
	if !containsLabel(items, "text") || !containsLabel(items, "tone") {
		t.Errorf("prompt variable completion: %v", labels(items, 10))
	}

	// Files of the pack for a *Ref member; SPDX ids for license.
	b, _ = os.ReadFile(node)
	ntext := strings.Replace(string(b), `"systemPromptRef": "prompts/writer.md"`, `"systemPromptRef": "pr"`, 1)
	nu := c.open(node, ntext, 1)
	items = complete(t, c, nu, ntext, `"systemPromptRef": "pr"`, len(`"systemPromptRef": "pr`))
	if !containsLabel(items, "prompts/writer.md") || containsLabel(items, "schemas/hello.input.json") {
		t.Errorf("systemPromptRef completion: %v", labels(items, 10))
	}
	items = complete(t, c, nu, ntext, `"inputSchemaRef": "`, len(`"inputSchemaRef": "`))
	if !containsLabel(items, "schemas/hello.input.json") || containsLabel(items, "prompts/writer.md") {
		t.Errorf("inputSchemaRef completion: %v", labels(items, 10))
	}
	items = complete(t, c, nu, ntext, `"license": "`, len(`"license": "`))
	if len(items) != len(spdxlicenses.GetLicenses()) || !containsLabel(items, "MIT") {
		t.Errorf("license completion: %d items, want %d", len(items), len(spdxlicenses.GetLicenses()))
	}
	// An enum: the runtime's language.
	items = complete(t, c, nu, ntext, `"language": "`, len(`"language": "`))
	if !containsLabel(items, "javascript") || !containsLabel(items, "python") {
		t.Errorf("runtime.language completion: %v", labels(items, 10))
	}

	// Outline of a chain pack: the chain and its dag nodes.
	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 1 || syms[0].Name != "chains" || len(syms[0].Children) != 1 || len(syms[0].Children[0].Children) != 2 ||
		syms[0].Children[0].Children[0].Name != "fetch" {
		t.Errorf("chain outline: %+v", syms)
	}
}
