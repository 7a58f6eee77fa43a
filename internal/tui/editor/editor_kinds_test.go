package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/common"
)

// TestEditorOpensEveryKind opens one document of every kind wopkit checks
// and asks the editor for the help of a member only that kind's schema
// has: it must come from the schema the validator uses for that kind and
// spec version (the schema table), and the header names the kind.
func TestEditorOpensEveryKind(t *testing.T) {
	verdicts := filepath.Join("..", "..", "validate", "testdata", "verdicts")
	cases := []struct {
		file string // in the validate verdicts
		kind kinds.Kind
		spec kinds.Spec
		ptr  string
	}{
		{"pack-requires.pack.json", kinds.NodePack, kinds.V1, "/nodes"},
		{"node-ok.node-pack.v2.json", kinds.NodePack, kinds.V2, "/kind"},
		{"chain-ok.workflow-chain-pack.v2.json", kinds.WorkflowChainPack, kinds.V2, "/chains"},
		{"chain-ok.workflow-chain-pack.v1.json", kinds.WorkflowChainPack, kinds.V1, "/chains"},
		{"connection-ok.connection-pack.v2.json", kinds.ConnectionPack, kinds.V2, "/provider"},
		{"prompt-ok.prompt-pack.v2.json", kinds.PromptPack, kinds.V2, "/prompts"},
		{"prompt-ok.prompt-pack.v1.json", kinds.PromptPack, kinds.V1, "/prompts"},
		{"card-ok.card-pack.v2.json", kinds.CardPack, kinds.V2, "/cards"},
		{"card-ok.card-pack.v1.json", kinds.CardPack, kinds.V1, "/cards"},
		{"form-ok.form-content-pack.v2.json", kinds.FormContentPack, kinds.V2, "/templates"},
		{"form-ok.form-content-pack.v1.json", kinds.FormContentPack, kinds.V1, "/templates"},
		{"artifact-ok.artifact-type-pack.v2.json", kinds.ArtifactTypePack, kinds.V2, "/artifactTypes"},
		{"artifact-ok.artifact-type-pack.v1.json", kinds.ArtifactTypePack, kinds.V1, "/artifactTypes"},
		{"vm-card-ok.version-manifest.v2.json", kinds.VersionManifest, kinds.V2, "/integrity"},
		{"agent-unicode-persona.agent.json", kinds.Agent, kinds.V1, "/persona"},
		{"eval-ok.eval.json", kinds.EvalSuite, kinds.V1, "/tasks"},
		{"uri-urn.tool.json", kinds.ToolManifest, kinds.SpecAuto, "/tool"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(verdicts, c.file))
			if err != nil {
				t.Fatal(err)
			}
			name := "doc.json"
			if kinds.IsPack(c.kind) {
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
			want := kinds.SchemaIDFor(c.spec, c.kind) + "#"
			if !strings.HasPrefix(msg.info.SchemaURL, want) {
				t.Errorf("help for %s comes from %q, want the schema %s", c.ptr, msg.info.SchemaURL, want)
			}
			if !strings.Contains(e.View(), string(c.kind)) {
				t.Errorf("the header does not name the kind %s", c.kind)
			}
		})
	}
}
