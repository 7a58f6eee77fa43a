package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/scaffold"
)

// Every kind of document the issue names (pack.json of each kind, an
// agent manifest, an eval suite, a tool manifest, a registry version
// manifest), as written and with an unknown member added, gets exactly
// the problems `wopkit validate FILE` reports.
func TestDiagnosticsEqualValidateForEveryKind(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	var files []string
	for _, k := range []string{"workflow-chain", "prompt", "card", "form-content", "connection", "artifact-type"} {
		files = append(files, scaffoldKind(t, root, k, "vendor.acme."+strings.ReplaceAll(k, "-", "")))
	}
	write := func(dir string, plan func() (*scaffold.Plan, error)) string {
		p, err := plan()
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Write(dir, false); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(dir, p.Files[0].Path)
	}
	ag := scaffold.NewAgent(0)
	ag.ID = "vendor.acme.writer"
	files = append(files, write(filepath.Join(root, "agent"), func() (*scaffold.Plan, error) { return scaffold.PlanStandaloneAgent(ag, nil) }))
	ev := scaffold.EvalAnswers{}.Defaults()
	ev.TargetAgentID = "vendor.acme.writer"
	files = append(files, write(filepath.Join(root, "eval"), func() (*scaffold.Plan, error) { return scaffold.PlanStandaloneEval(ev, nil) }))
	files = append(files, write(filepath.Join(root, "tool"), func() (*scaffold.Plan, error) { return scaffold.PlanTool(scaffold.ToolAnswers{}.Defaults(), "", nil) }))
	if _, ok := fixtures.Find(); ok {
		vm := filepath.Join(root, "registry", "1.1.0.json")
		b, err := os.ReadFile(filepath.Join(fixtures.Registry(t), "v1", "packs", "core.openwop.a2a", "-", "1.1.0.json"))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(vm), 0o755)
		os.WriteFile(vm, b, 0o644)
		files = append(files, vm)
	}
	c := startSession(t, root, Options{})
	defer c.stop()
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		u := c.open(f, string(text), 1)
		for i, variant := range []string{string(text), strings.Replace(string(text), "{", "{\n  \"bogus\": 1,", 1)} {
			v := int32(i + 2)
			c.change(u, variant, v)
			if err := os.WriteFile(f, []byte(variant), 0o644); err != nil {
				t.Fatal(err)
			}
			pub := c.waitDiags(u, "the variant", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == uint32(v) })
			got, exp := published(pub.Diagnostics), validateFile(t, f)
			if strings.Join(got, "\n") != strings.Join(exp, "\n") {
				t.Errorf("%s (variant %d): diagnostics differ from wopkit validate:\n got %q\nwant %q", f, i, got, exp)
			}
			if i == 1 && len(exp) == 0 {
				t.Errorf("%s: an unknown member raises nothing", f)
			}
		}
	}
}

// A JSON file that is no document wopkit knows (package.json, a schema)
// gets no diagnostic of its own, though validate calls it kind/unknown; a
// problem a pack reports on it (OW013 on a schema's $id) is published there.
func TestForeignJSONIsLeftAlone(t *testing.T) {
	t.Parallel()
	dir := scaffoldPack(t)
	c := startSession(t, dir, Options{})
	defer c.stop()
	u := c.open(filepath.Join(dir, "package.json"), `{"name": "x", "private": true}`, 1)
	if p := c.waitDiags(u, "v1", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 }); len(p.Diagnostics) != 0 {
		t.Errorf("package.json: %+v", p.Diagnostics)
	}
	schema := filepath.Join(dir, "schemas", "hello.input.json")
	b, _ := os.ReadFile(schema)
	stale := strings.Replace(string(b), "/0.1.0/", "/0.0.9/", 1)
	su := c.open(schema, stale, 1)
	pj := filepath.Join(dir, "pack.json")
	pt, _ := os.ReadFile(pj)
	c.open(pj, string(pt), 1)
	p := c.waitDiags(su, "OW013 from the pack", func(p protocol.PublishDiagnosticsParams) bool { return hasCode(p.Diagnostics, "OW013") != nil })
	if hasCode(p.Diagnostics, "kind/unknown") != nil {
		t.Errorf("schema file: %+v", p.Diagnostics)
	}
}
