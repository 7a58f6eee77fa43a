package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChainScaffoldAjv writes the default workflow-chain pack, v2 and v1,
// and checks pack.json with ajv (independent of wopkit's validator) under
// the v2 schemas and the registry's v1 schemas; and that ajv, like wopkit,
// refuses a broken one (the test can fail).
func TestChainScaffoldAjv(t *testing.T) {
	for _, c := range []struct{ spec, set string }{{SpecV2, "v2"}, {SpecV1, "registry-v1"}} {
		t.Run(c.spec, func(t *testing.T) {
			check := ajvSchemas(t, c.set)
			a := ChainPackAnswers{}.Defaults()
			a.Name, a.Spec = "vendor.acme.chains", c.spec
			a.Author, a.Homepage, a.Keywords = "Acme", "https://acme.example/chains", []string{"summary"}
			a.Dependencies = map[string]string{"vendor.acme.tools": "^1.0.0"}
			p, err := PlanChainPack(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := p.Write(dir, false); err != nil {
				t.Fatal(err)
			}
			pj := filepath.Join(dir, "pack.json")
			if ok, out := check("workflow-chain-pack-manifest.schema.json", pj); !ok {
				t.Errorf("ajv refuses the %s chain pack:\n%s\n%s", c.spec, out, p.File("pack.json").Data)
			}
			broken := strings.Replace(string(p.File("pack.json").Data), `"typeId": "core.ai.callPrompt"`, `"typeId": "Summarize"`, 1)
			if err := os.WriteFile(pj, []byte(broken), 0o644); err != nil {
				t.Fatal(err)
			}
			if ok, _ := check("workflow-chain-pack-manifest.schema.json", pj); ok {
				t.Error("ajv accepts a chain step whose typeId is not <pack>.<node>")
			}
		})
	}
}

// TestPromptScaffoldAjv is TestChainScaffoldAjv for the prompt pack.
func TestPromptScaffoldAjv(t *testing.T) {
	for _, c := range []struct{ spec, set string }{{SpecV2, "v2"}, {SpecV1, "registry-v1"}} {
		t.Run(c.spec, func(t *testing.T) {
			check := ajvSchemas(t, c.set)
			a := PromptPackAnswers{}.Defaults()
			a.Name, a.Spec, a.Author = "vendor.acme.prompts", c.spec, "Acme"
			p, err := PlanPromptPack(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := p.Write(dir, false); err != nil {
				t.Fatal(err)
			}
			pj := filepath.Join(dir, "pack.json")
			if ok, out := check("prompt-pack-manifest.schema.json", pj); !ok {
				t.Errorf("ajv refuses the %s prompt pack:\n%s\n%s", c.spec, out, p.File("pack.json").Data)
			}
			broken := strings.Replace(string(p.File("pack.json").Data), `"kind": "user"`, `"kind": "assistant"`, 1)
			if err := os.WriteFile(pj, []byte(broken), 0o644); err != nil {
				t.Fatal(err)
			}
			if ok, _ := check("prompt-pack-manifest.schema.json", pj); ok {
				t.Error("ajv accepts a template of kind assistant")
			}
		})
	}
}
