package validate

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// registryProblems validates tc and returns the problems of rule.
func registryProblems(t *testing.T, tc lintCase, rule string) []Problem {
	t.Helper()
	var out []Problem
	for _, fr := range lintReports(t, tc) {
		for _, p := range append(append([]Problem(nil), fr.Errors...), fr.Warnings...) {
			if p.Rule == rule {
				out = append(out, p)
			}
		}
	}
	return out
}

func TestOW013ForRegistry(t *testing.T) {
	t.Parallel()
	v1 := packWith(`tools.a", "version": "1.0.0", "category": "data", "role": "pure"`,
		`tools.a", "version": "1.0.0", "category": "data", "role": "pure", "inputSchemaRef": "schemas/a.input.json"`)
	// A v2 pack: new versions land in the v2 tree, where the gate refuses.
	doc := strings.Replace(v1, `"openwop": ">=1.0.0 <2.0.0"`, `"openwop": ">=1.0.0 <3.0.0"`, 1)
	if doc == v1 {
		t.Fatal("the base pack's engines changed: update this test")
	}
	stale := packFiles("schemas/a.input.json", `{"$id": "https://packs.openwop.dev/vendor.acme.tools/0.9.0/a.input.json"}`,
		"schemas/extra.json", `{"type": "string"}`, "schemas/sub/deep.json", `{"type": "string"}`)
	runLint(t, "OW013", []lintCase{
		{name: "stale and missing under --for-registry", kind: kinds.NodePack, doc: doc, reg: true, files: stale,
			want: []hit{
				{file: "schemas/a.input.json", ptr: "/$id", at: `"https://`, hint: "vendor.acme.tools/1.0.0/a.input.json"},
				{file: "schemas/extra.json", ptr: "", at: `{`, hint: `"$id": "https://packs.openwop.dev/vendor.acme.tools/1.0.0/extra.json"`},
			}},
	})
	for _, reg := range []bool{false, true} {
		ps := registryProblems(t, lintCase{kind: kinds.NodePack, doc: doc, reg: reg, files: stale}, "OW013")
		for _, p := range ps {
			want := Warning
			if reg {
				want = Error
			}
			if p.Severity != want {
				t.Errorf("reg=%v: %s has severity %s, want %s", reg, p, p.Severity, want)
			}
			if reg != strings.Contains(p.Message, "the registry refuses it (check-pack-schema-ids") {
				t.Errorf("reg=%v: message not true to its severity: %s", reg, p.Message)
			}
		}
	}
	// The v1 tree is frozen (its published packs carry older versions'
	// $ids): a v1 pack's stale $id stays a warning, a missing one silent.
	for _, p := range registryProblems(t, lintCase{kind: kinds.NodePack, doc: v1, reg: true, files: stale}, "OW013") {
		if p.Severity != Warning || strings.Contains(p.Message, "has no $id") {
			t.Errorf("v1 pack under --for-registry: %s (%s)", p, p.Severity)
		}
	}
}

func TestOW019PromptRefs(t *testing.T) {
	agents := func(ref string) string {
		return packWith(`"runtime"`, `"agents": [`+strings.Replace(agentJSON("vendor.acme.tools.one", ""), `"systemPrompt": "Help."`, `"systemPromptRef": "`+ref+`"`, 1)+`], "runtime"`)
	}
	files := packFiles("prompts/one.md", "Help.", "docs/one.md", "Help.")
	runLint(t, "OW019", []lintCase{
		{name: "prompts/*.md", kind: kinds.NodePack, doc: agents("prompts/one.md"), files: files, reg: true},
		{name: "outside, not for the registry", kind: kinds.NodePack, doc: agents("docs/one.md"), files: files},
		{name: "outside", kind: kinds.NodePack, doc: agents("docs/one.md"), files: files, reg: true,
			want: []hit{{ptr: "/agents/0/systemPromptRef", at: `"docs/one.md"`, hint: "prompts/one.md"}}},
	})
}

type catalog map[string]bool

func (c catalog) HasTypeID(id string) bool { return c[id] }

func TestOW020AllowlistResolves(t *testing.T) {
	t.Parallel()
	doc := packWith(`"runtime"`, `"agents": [`+agentJSON("vendor.acme.tools.one",
		`, "toolAllowlist": ["openwop:vendor.acme.tools.a", "openwop:vendor.acme.tools.gone", "openwop:core.openwop.http.fetch", "openwop:core.*", "mcp:github/*"]`)+`], "runtime"`)
	runLint(t, "OW020", []lintCase{
		{name: "not for the registry", kind: kinds.NodePack, doc: doc},
		{name: "own namespace and wildcard", kind: kinds.NodePack, doc: doc, reg: true,
			want: []hit{
				{ptr: "/agents/0/toolAllowlist/1", at: `"openwop:vendor.acme.tools.gone"`, hint: "openwop:vendor.acme.tools.a"},
				{ptr: "/agents/0/toolAllowlist/3", at: `"openwop:core.*"`, hint: "exactly"},
			}},
	})
	v, err := New(Options{ForRegistry: true, Catalog: catalog{"core.openwop.http.fetch": true}})
	if err != nil {
		t.Fatal(err)
	}
	fr := v.File("pack.json", []byte(strings.Replace(doc, "core.openwop.http.fetch", "core.openwop.http.gone", 1)), kinds.NodePack)
	n := 0
	for _, p := range fr.Errors {
		if p.Rule == "OW020" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("with a catalog: %d OW020 errors, want 3 (gone, http.gone, core.*): %v", n, fr.Errors)
	}
}

func TestOW021SchemaTreeComplete(t *testing.T) {
	t.Parallel()
	doc := packWith(`tools.a", "version": "1.0.0", "category": "data", "role": "pure"`,
		`tools.a", "version": "1.0.0", "category": "data", "role": "pure", "inputSchemaRef": "schemas/a.input.json", "outputSchemaRef": "schemas/nested/a.output.json"`)
	files := packFiles("schemas/a.input.json", schemaA, "schemas/nested/a.output.json", schemaA)
	runLint(t, "OW021", []lintCase{
		{name: "not for the registry", kind: kinds.NodePack, doc: doc, files: files},
		{name: "nested", kind: kinds.NodePack, doc: doc, files: files, reg: true,
			want: []hit{{ptr: "/nodes/0/outputSchemaRef", at: `"schemas/nested/a.output.json"`, hint: "schemas/a.output.json"}}},
	})
}

func TestPK005ForRegistry(t *testing.T) {
	t.Parallel()
	mcp := strings.Replace(v2Node, `"entry": "https://mcp.acme.example/mcp"`, `"entry": "https://mcp.acme.example/mcp", "mcpServer": {"name": "x", "description": "d", "version": "1.0.0", "remotes": [{"type": "streamable-http", "url": "https://mcp.acme.example/mcp"}]}`, 1)
	for _, reg := range []bool{false, true} {
		ps := registryProblems(t, lintCase{kind: kinds.NodePack, doc: mcp, reg: reg}, "PK005")
		if len(ps) != 1 {
			t.Fatalf("reg=%v: %d PK005 problems, want 1", reg, len(ps))
		}
		want := Warning
		if reg {
			want = Error
		}
		if ps[0].Severity != want || reg != strings.Contains(ps[0].Message, "the registry refuses it") {
			t.Errorf("reg=%v: %s (%s), want severity %s and words true to it", reg, ps[0].Message, ps[0].Severity, want)
		}
	}
}

func TestPatternMessageNotHTMLEscaped(t *testing.T) {
	t.Parallel()
	if got := gotText(&jsondocString); got != `">=2.0.0 <x"` {
		t.Errorf("gotText = %s, want \">=2.0.0 <x\"", got)
	}
	if got := display(">=2.0.0"); got != `">=2.0.0"` {
		t.Errorf("display = %s", got)
	}
}

var jsondocString = jsondoc.Node{Kind: jsondoc.String, Str: ">=2.0.0 <x"}
