package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/validate"
)

// TestEditorOpensEveryKind opens one document of every kind wopkit checks
// and asks the editor for the help of a member only that kind's schema
// has: it must come from the schema the validator uses for that kind and
// spec version (the schema table), and the header names the kind.
func TestEditorOpensEveryKind(t *testing.T) {
	verdicts := filepath.Join("..", "..", "validate", "testdata", "verdicts")
	cases := []struct {
		file string // in the validate verdicts
		kind validate.Kind
		spec validate.Spec
		ptr  string
	}{
		{"pack-requires.pack.json", validate.NodePack, validate.V1, "/nodes"},
		{"node-ok.node-pack.v2.json", validate.NodePack, validate.V2, "/kind"},
		{"chain-ok.workflow-chain-pack.v2.json", validate.WorkflowChainPack, validate.V2, "/chains"},
		{"chain-ok.workflow-chain-pack.v1.json", validate.WorkflowChainPack, validate.V1, "/chains"},
		{"connection-ok.connection-pack.v2.json", validate.ConnectionPack, validate.V2, "/provider"},
		{"prompt-ok.prompt-pack.v2.json", validate.PromptPack, validate.V2, "/prompts"},
		{"prompt-ok.prompt-pack.v1.json", validate.PromptPack, validate.V1, "/prompts"},
		{"card-ok.card-pack.v2.json", validate.CardPack, validate.V2, "/cards"},
		{"card-ok.card-pack.v1.json", validate.CardPack, validate.V1, "/cards"},
		{"form-ok.form-content-pack.v2.json", validate.FormContentPack, validate.V2, "/templates"},
		{"form-ok.form-content-pack.v1.json", validate.FormContentPack, validate.V1, "/templates"},
		{"artifact-ok.artifact-type-pack.v2.json", validate.ArtifactTypePack, validate.V2, "/artifactTypes"},
		{"artifact-ok.artifact-type-pack.v1.json", validate.ArtifactTypePack, validate.V1, "/artifactTypes"},
		{"vm-card-ok.version-manifest.v2.json", validate.VersionManifest, validate.V2, "/integrity"},
		{"agent-unicode-persona.agent.json", validate.Agent, validate.V1, "/persona"},
		{"eval-ok.eval.json", validate.EvalSuite, validate.V1, "/tasks"},
		{"uri-urn.tool.json", validate.ToolManifest, validate.SpecAuto, "/tool"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(verdicts, c.file))
			if err != nil {
				t.Fatal(err)
			}
			name := "doc.json"
			if validate.IsPackKind(c.kind) {
				name = "pack.json"
			}
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := loadEditor(common.New(true), testValidator, path)
			if err != nil {
				t.Fatal(err)
			}
			if e.kind != c.kind || e.spec() != c.spec {
				t.Fatalf("opened as %s %s, want %s %s", e.kind, e.spec(), c.kind, c.spec)
			}
			msg := fieldInfoCmd(e.v, e.spec(), e.kind, c.ptr)().(fieldInfoMsg)
			want := validate.SchemaIDFor(c.spec, c.kind) + "#"
			if !strings.HasPrefix(msg.info.SchemaURL, want) {
				t.Errorf("help for %s comes from %q, want the schema %s", c.ptr, msg.info.SchemaURL, want)
			}
			if !strings.Contains(e.View(), string(c.kind)) {
				t.Errorf("the header does not name the kind %s", c.kind)
			}
		})
	}
}
