package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

// answerCase is one refused edit of a kind's answers: the answer field the
// problem must name and what its message must say.
type answerCase[A any] struct {
	name, field, msg string
	edit             func(a *A)
}

// checkAnswerCases applies each case to fresh answers and checks that
// Check names the field in those words; and that the kind's defaults, as
// they are, have no problem.
func checkAnswerCases[A interface {
	Defaults() A
	Check(*validate.Validator) FieldErrors
}](t *testing.T, fresh func() A, cases []answerCase[A]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := fresh()
			c.edit(&a)
			errs := a.Check(nil)
			if len(errs.For(c.field)) == 0 {
				t.Fatalf("no problem for %s; got %v", c.field, errs)
			}
			if !strings.Contains(errs.For(c.field).Error(), c.msg) {
				t.Errorf("%s: %v, want it to say %q", c.field, errs.For(c.field), c.msg)
			}
		})
	}
	var zero A
	if errs := zero.Defaults().Check(nil); errs != nil {
		t.Errorf("defaults: %v", errs)
	}
}

// TestDeclarativeScaffoldAjv writes each declarative kind's pack, v2 and
// (where the kind has one) v1, and checks pack.json with ajv (independent
// of wopkit's validator) under the v2 schemas and the registry's v1
// schemas; and that ajv, like wopkit, refuses a broken one (the test can
// fail).
func TestDeclarativeScaffoldAjv(t *testing.T) {
	t.Parallel()
	both := []string{SpecV2, SpecV1}
	checks := map[string]func(schema, file string) (bool, string){SpecV2: ajvSchemas(t, "v2"), SpecV1: ajvSchemas(t, "registry-v1")}
	for _, k := range []struct {
		kind, schema string
		specs        []string
		plan         func(spec string) (*Plan, error)
		old, new     string // a change ajv refuses
		refused      string // what the changed pack has
		more         func(t *testing.T, pj string)
	}{
		{kind: KindWorkflowChain, schema: "workflow-chain-pack-manifest.schema.json", specs: both,
			plan: func(spec string) (*Plan, error) {
				a := ChainPackAnswers{}.Defaults()
				a.Name, a.Spec = "vendor.acme.chains", spec
				a.Author, a.Homepage, a.Keywords = "Acme", "https://acme.example/chains", []string{"summary"}
				a.Dependencies = map[string]string{"vendor.acme.tools": "^1.0.0"}
				return PlanChainPack(a, nil)
			},
			old: `"typeId": "core.ai.chatCompletion`, new: `"typeId": "Summarize`, refused: "a chain step whose typeId is not <pack>.<node>"},
		{kind: KindPrompt, schema: "prompt-pack-manifest.schema.json", specs: both,
			plan: func(spec string) (*Plan, error) {
				a := PromptPackAnswers{}.Defaults()
				a.Name, a.Spec, a.Author = "vendor.acme.prompts", spec, "Acme"
				return PlanPromptPack(a, nil)
			},
			old: `"kind": "user"`, new: `"kind": "assistant"`, refused: "a template of kind assistant"},
		{kind: KindConnection, schema: "connection-pack-manifest.schema.json", specs: []string{SpecV2},
			plan: func(spec string) (*Plan, error) {
				a := ConnectionPackAnswers{}.Defaults()
				a.Name, a.Author, a.Provider.DocsURL = "vendor.acme.connections.acme", "Acme", "https://docs.acme.example/oauth"
				return PlanConnectionPack(a, nil)
			},
			old: `"url": "https://mcp.acme.example/mcp"`, new: `"url": "http://mcp.acme.example/mcp"`, refused: "an http MCP server"},
		{kind: KindCard, schema: "chat-card-pack-manifest.schema.json", specs: both,
			plan: func(spec string) (*Plan, error) {
				a := CardPackAnswers{}.Defaults()
				a.Name, a.Spec = "vendor.acme.cards", spec
				a.Cards[0].Inputs = append(a.Cards[0].Inputs, CardInputAnswers{ID: "bullets", Type: "boolean", Label: "As bullets", Default: "false"})
				a.Cards[0].Template += " {{bullets}}"
				return PlanCardPack(a, nil)
			},
			old: `"type": "longtext"`, new: `"type": "textarea"`, refused: "input type textarea",
			more: func(t *testing.T, pj string) {
				if !strings.Contains(pj, `"default": false`) {
					t.Errorf("a boolean default is not written as a boolean:\n%s", pj)
				}
			}},
		{kind: KindFormContent, schema: "form-content-pack-manifest.schema.json", specs: both,
			plan: func(spec string) (*Plan, error) {
				a := FormPackAnswers{}.Defaults()
				a.Name, a.Spec = "vendor.acme.forms", spec
				a.Templates[0].Fields = append(a.Templates[0].Fields, FormFieldAnswers{ID: "topic", Type: "select", Label: "Topic",
					Options: []string{"sales", "support"}, Default: "support"})
				return PlanFormPack(a, nil)
			},
			old: `"format": "email"`, new: `"format": "phone"`, refused: "format phone"},
		// the written schema file parses as a draft 2020-12 schema for ajv too
		{kind: KindArtifactType, schema: "artifact-type-pack-manifest.schema.json", specs: both,
			plan: func(spec string) (*Plan, error) {
				a := ArtifactPackAnswers{}.Defaults()
				a.Name, a.Spec = "vendor.acme.artifacts", spec
				return PlanArtifactPack(a, nil)
			},
			old: `"display": "markdown"`, new: `"display": "video"`, refused: "display video"},
	} {
		for _, spec := range k.specs {
			t.Run(k.kind+"/"+spec, func(t *testing.T) {
				check := checks[spec]
				p, err := k.plan(spec)
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				if err := p.Write(dir, false); err != nil {
					t.Fatal(err)
				}
				pj := filepath.Join(dir, "pack.json")
				data := string(p.File("pack.json").Data)
				if ok, out := check(k.schema, pj); !ok {
					t.Errorf("ajv refuses the %s %s pack:\n%s\n%s", spec, k.kind, out, data)
				}
				if k.more != nil {
					k.more(t, data)
				}
				if err := os.WriteFile(pj, []byte(strings.Replace(data, k.old, k.new, 1)), 0o644); err != nil {
					t.Fatal(err)
				}
				if ok, _ := check(k.schema, pj); ok {
					t.Error("ajv accepts " + k.refused)
				}
			})
		}
	}
}

// TestDeclarativeKinds: each declarative kind's constant is its schema's
// const "kind", its default answers (New, their identity through Pack)
// are planned as set, and PackKinds lists node then these in order.
func TestDeclarativeKinds(t *testing.T) {
	t.Parallel()
	want := []string{KindNode}
	for _, k := range Kinds() {
		if !k.IsPack() || k.Name == KindNode {
			continue
		}
		if got := orDefault(nil).FieldFor(kinds.V2, k.Schema, "/kind").Enum; len(got) != 1 || got[0] != k.Name {
			t.Errorf("%s: the %s schema's kind is %v", k.Name, k.Schema, got)
		}
		a := k.New()
		id := k.Pack(a)
		if err := Set(a, "name", "vendor.acme.x"); err != nil {
			t.Fatal(err)
		}
		p, err := k.Plan(a, nil)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if pj := string(p.File("pack.json").Data); id.Name != "vendor.acme.x" || !strings.Contains(pj, `"name": "vendor.acme.x"`) ||
			!strings.Contains(pj, `"kind": "`+k.Name+`"`) {
			t.Errorf("%s: the plan does not follow the answers:\n%s", k.Name, pj)
		}
		want = append(want, k.Name)
	}
	if got := strings.Join(PackKinds(), ","); got != strings.Join(want, ",") {
		t.Errorf("PackKinds %s, want %s", got, strings.Join(want, ","))
	}
}
