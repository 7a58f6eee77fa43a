package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// pinnedChain is a v2 chain pack whose references carry the exact pin of
// RFC 0177 §E.1, written the way the registry's core.openwop.workflows.*
// packs write theirs (a typeId of four parts, a pinned compensation).
const pinnedChain = `{
  "name": "vendor.acme.signoff",
  "version": "1.0.0",
  "kind": "workflow-chain",
  "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "chains": [
    {
      "chainId": "signoff.request",
      "version": "1.0.2",
      "label": "Request sign-off",
      "description": "summarize, approve, notify",
      "parameters": {"type": "object", "properties": {"item": {"type": "string"}}},
      "dag": {
        "nodes": [
          {"id": "summarize", "typeId": "core.ai.chatCompletion@1.0.0", "config": {"systemPrompt": "Summarize {{params.item}}"}},
          {"id": "gate", "typeId": "core.chat.approvalGate@1.1.0"},
          {"id": "notify", "typeId": "feature.notifications.nodes.notify@1.0.0",
            "compensation": {"nodeTypeId": "feature.notifications.nodes.retract@1.0.0"}}
        ],
        "edges": [{"from": "summarize", "to": "gate"}, {"from": "gate.decision", "to": "notify.message"}]
      }
    }
  ]
}`

// typeIDProblems returns the problems at a typeId or nodeTypeId.
func typeIDProblems(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if strings.HasSuffix(p.Pointer, "/typeId") || strings.HasSuffix(p.Pointer, "/nodeTypeId") {
			out = append(out, p)
		}
	}
	return out
}

// TestChainPins: a pinned v2 chain reference validates (the amended
// chainTypeRef grammar), an unpinned one warns (WC010), a ranged one is an
// error (the schema and WC007); a v1 chain is not asked to pin.
func TestChainPins(t *testing.T) {
	t.Parallel()
	v := newV(t)
	fr := v.File("doc.json", []byte(pinnedChain), "")
	if fr.Kind != kinds.WorkflowChainPack || fr.Spec != kinds.V2 || len(fr.Errors)+len(fr.Warnings) != 0 {
		t.Fatalf("the pinned chain (%s %s):\n%s", fr.Kind, fr.Spec, render(append(fr.Errors, fr.Warnings...)))
	}

	unpinned := strings.Replace(pinnedChain, "core.chat.approvalGate@1.1.0", "core.chat.approvalGate", 1)
	fr = v.File("doc.json", []byte(unpinned), "")
	if len(fr.Errors) != 0 || len(fr.Warnings) != 1 || fr.Warnings[0].Rule != "WC010" ||
		fr.Warnings[0].Pointer != "/chains/0/dag/nodes/1/typeId" || !strings.Contains(fr.Warnings[0].Hint, `"core.chat.approvalGate@1.0.0"`) {
		t.Errorf("an unpinned reference: want one WC010 warning at /chains/0/dag/nodes/1/typeId, got\n%s", render(append(fr.Errors, fr.Warnings...)))
	}

	for _, pin := range []string{"^1", "1.x", ">=1", "~1.1.0", "1.1", "1.1.0-beta.1", "01.1.0"} {
		ranged := strings.Replace(pinnedChain, "core.chat.approvalGate@1.1.0", "core.chat.approvalGate@"+pin, 1)
		fr = v.File("doc.json", []byte(ranged), "")
		rules := map[string]bool{}
		for _, p := range typeIDProblems(fr.Errors) {
			if p.Pointer == "/chains/0/dag/nodes/1/typeId" {
				rules[p.Rule] = true
			}
		}
		if !rules["WC007"] || !rules["schema/pattern"] || len(fr.Errors) != 2 || len(fr.Warnings) != 0 {
			t.Errorf("@%s: want a schema/pattern and a WC007 error at the typeId, got\n%s", pin, render(append(fr.Errors, fr.Warnings...)))
		}
	}

	// a node pack's own typeId is not a reference: no pin there
	node := strings.Replace(v2Node, `"nodes": []`, `"nodes": [{"typeId": "vendor.acme.tools.echo@1.0.0", "version": "1.0.0"}]`, 1)
	if node == v2Node {
		t.Fatal("the v2 node pack has no nodes member")
	}
	if fr = v.File("pack.json", []byte(node), ""); len(typeIDProblems(fr.Errors)) == 0 {
		t.Errorf("a node pack's typeId with a pin is accepted")
	}

	// v1 chains (the registry's v1 schema admits no @): no WC010
	v1 := strings.NewReplacer("@1.0.0", "", "@1.1.0", "", `">=1.0.0 <3.0.0"`, `">=1.0.0 <2.0.0"`).Replace(pinnedChain)
	if fr = v.File("doc.json", []byte(v1), ""); fr.Spec != kinds.V1 || len(fr.Warnings) != 0 {
		t.Errorf("the v1 chain (%s):\n%s", fr.Spec, render(append(fr.Errors, fr.Warnings...)))
	}
}

// TestChainPinsAjv: ajv, the registry's validator, agrees with wopkit over
// the amended schemas: a pinned chain passes, a ranged pin fails.
func TestChainPinsAjv(t *testing.T) {
	t.Parallel()
	check := fixtures.AjvSchemas(t, "v2")
	dir := t.TempDir()
	for _, tc := range []struct {
		pin  string
		want bool
	}{{"@1.1.0", true}, {"", true}, {"@^1", false}, {"@1.x", false}, {"@>=1", false}} {
		f := filepath.Join(dir, "chain.json")
		doc := strings.Replace(pinnedChain, "core.chat.approvalGate@1.1.0", "core.chat.approvalGate"+tc.pin, 1)
		if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if ok, out := check("workflow-chain-pack-manifest.schema.json", f); ok != tc.want {
			t.Errorf("ajv on %q: valid %v, want %v\n%s", tc.pin, ok, tc.want, out)
		}
	}
}

// TestPublishedPinnedChains validates the registry's pinned v2 chain
// manifests (core.openwop.workflows.*, ../shared/spec-v2): no error at any
// typeId (each used to be a schema/pattern error), and ajv over the amended
// schema accepts the signed pack.json of each.
func TestPublishedPinnedChains(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(fixtures.SpecV2(t), "registry", "v2", "packs", "core.openwop.workflows*", "-", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifests []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".sbom.json") {
			manifests = append(manifests, f)
		}
	}
	if len(manifests) == 0 {
		t.Skip("no core.openwop.workflows.* version manifests under ../shared/spec-v2/registry/v2/packs: skipping the check of the registry's pinned chains (TestChainPins checks the same shapes)")
	}
	v := newV(t)
	pinned := 0
	var check func(schema, file string) (bool, string)
	dir := t.TempDir()
	for _, f := range manifests {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), `@1.`) || strings.Contains(string(data), `@0.`) || strings.Contains(string(data), `@2.`) {
			pinned++
		}
		rep, err := v.Path(f)
		if err != nil {
			t.Fatal(err)
		}
		fr := rep.Files[0]
		if ps := typeIDProblems(fr.Errors); len(ps) > 0 {
			t.Errorf("%s:\n%s", f, render(ps))
		}
		if check == nil {
			check = fixtures.AjvSchemas(t, "v2")
		}
		doc, err := jsondoc.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(stripRegistryFields(doc.Root))
		pj := filepath.Join(dir, filepath.Base(filepath.Dir(filepath.Dir(f)))+"-"+filepath.Base(f))
		if err := os.WriteFile(pj, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if ok, out := check("workflow-chain-pack-manifest.schema.json", pj); !ok {
			t.Errorf("ajv refuses %s:\n%s", f, out)
		}
	}
	t.Logf("%d manifests, %d with pinned references", len(manifests), pinned)
}
