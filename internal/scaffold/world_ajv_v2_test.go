package scaffold

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// ajvV2 installs ajv (the registry's validator, independent of wopkit's)
// through fixtures.Ajv, and returns a function
// that validates a file against one of the repo's v2 schemas with all the
// others as references. It skips without node and npm.
func ajvV2(t *testing.T) func(schema, file string) (bool, string) {
	t.Helper()
	return ajvSchemas(t, "v2")
}

// ajvSchemas is ajvV2 over the repo's schemas/<set> directory (v2, or
// registry-v1 for the registry's v1 kind schemas).
func ajvSchemas(t *testing.T, set string) func(schema, file string) (bool, string) {
	t.Helper()
	return fixtures.AjvSchemas(t, set)
}

// TestV2ScaffoldAjv writes the default (v2) pack, with an agent and its eval
// suite, for each runtime and checks pack.json and the eval suite with ajv
// under the v2 schemas, and the v2 facts the registry checks beyond them.
func TestV2ScaffoldAjv(t *testing.T) {
	t.Parallel()
	check := ajvV2(t)
	engines := `^>=\d+(\.\d+){0,2} <\d+\.0\.0$`
	for _, lang := range []string{"javascript", "python", "go", "wasm", "remote"} {
		t.Run(lang, func(t *testing.T) {
			a := PackAnswers{}.Defaults()
			a.Name = "vendor.acme.hello"
			a.Runtime.Language = lang
			ag := AgentAnswers{}.Defaults()
			ev := EvalAnswers{}.Defaults()
			ag.Eval = &ev
			a.Agents = []AgentAnswers{ag}
			p, err := PlanPack(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := p.Write(dir, false); err != nil {
				t.Fatal(err)
			}
			if ok, out := check("node-pack-manifest.schema.json", filepath.Join(dir, "pack.json")); !ok {
				t.Errorf("ajv refuses the v2 pack.json:\n%s\n%s", out, p.File("pack.json").Data)
			}
			var doc struct {
				Kind    string            `json:"kind"`
				Engines map[string]string `json:"engines"`
				Signing any               `json:"signing"`
				Agents  []struct {
					Role         string `json:"role"`
					EvalSuiteRef string `json:"evalSuiteRef"`
				} `json:"agents"`
			}
			if err := json.Unmarshal(p.File("pack.json").Data, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Kind != "node" || doc.Signing != nil {
				t.Errorf("kind %q, signing %v: want node and no signing block (the build step writes it)", doc.Kind, doc.Signing)
			}
			r := doc.Engines["openwop"]
			if !regexp.MustCompile(engines).MatchString(r) || !strings.Contains(r, "<3.0.0") {
				t.Errorf("engines %q: want an explicit ceiling admitting major 2", r)
			}
			for _, ag := range doc.Agents {
				if ag.Role == "" {
					t.Error("agent without role")
				}
				if ag.EvalSuiteRef != "" {
					if ok, out := check("agent-eval-suite.schema.json", filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(ag.EvalSuiteRef, "./")))); !ok {
						t.Errorf("ajv refuses the eval suite %s:\n%s", ag.EvalSuiteRef, out)
					}
				}
			}
		})
	}
}

// TestAddAgentRole: an agent added to a v2 pack gets the role a new v2 pack
// gives its agents; one added to a v1 pack does not (the v1 schema has none).
func TestAddAgentRole(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string]bool{SpecV2: true, SpecV1: false} {
		a := PackAnswers{}.Defaults()
		a.Name, a.Spec = "vendor.acme.roles", spec
		p, err := PlanPack(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := p.Write(dir, false); err != nil {
			t.Fatal(err)
		}
		src, err := OpenPack(dir)
		if err != nil {
			t.Fatal(err)
		}
		ap, err := PlanAgent(src, AgentAnswers{}.Defaults(), nil)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		var doc struct {
			Agents []map[string]any `json:"agents"`
		}
		if err := json.Unmarshal(ap.File("pack.json").Data, &doc); err != nil || len(doc.Agents) != 1 {
			t.Fatalf("%s: %v %d agents", spec, err, len(doc.Agents))
		}
		if _, has := doc.Agents[0]["role"]; has != want {
			t.Errorf("%s: role present %v, want %v", spec, has, want)
		}
	}
}
