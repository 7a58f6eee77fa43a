package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/testwait"
	"testing"
	"testing/fstest"
	"time"
)

// packFiles returns the files of a pack: the runtime entry plus extra
// name/content pairs.
func packFiles(kv ...string) fstest.MapFS {
	fs := fstest.MapFS{"index.mjs": {Data: []byte("export default {}\n")}}
	for i := 0; i+1 < len(kv); i += 2 {
		fs[kv[i]] = &fstest.MapFile{Data: []byte(kv[i+1])}
	}
	return fs
}

const schemaA = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}`

func TestOW005Refs(t *testing.T) {
	refs := func(nodeRefs, agentRefs string) string {
		return packWith(`tools.a", "version": "1.0.0", "category": "data", "role": "pure"`,
			`tools.a", "version": "1.0.0", "category": "data", "role": "pure", `+nodeRefs,
			`"runtime"`, `"agents": [{"agentId": "vendor.acme.tools.one", "persona": "P", "modelClass": "general", `+agentRefs+`}],
  "runtime"`)
	}
	good := refs(`"inputSchemaRef": "schemas/in.json", "outputSchemaRef": "./schemas/in.json", "configSchemaRef": "https://example.com/c.json", "envelopeContractRef": "schemas/env.json"`,
		`"systemPromptRef": "prompts/p.md", "handoff": {"taskSchemaRef": "schemas/in.json"}`)
	goodFiles := packFiles("schemas/in.json", schemaA, "schemas/env.json", `{"fields": []}`, "prompts/p.md", "Héllo, you help.\n")
	bad := refs(`"inputSchemaRef": "schemas/missing.json", "outputSchemaRef": "../outside.json", "configSchemaRef": "http://example.com/c.json", "envelopeContractRef": "schemas/broken.json"`,
		`"systemPromptRef": "prompts/latin1.md", "handoff": {"taskSchemaRef": "schemas", "returnSchemaRef": "schemas/list.json"}, "evalSuiteRef": "/abs/suite.json"`)
	badFiles := packFiles("schemas/broken.json", "{\"type\": \"object\",\n  }\n", "schemas/list.json", "[1, 2]",
		"prompts/latin1.md", "Hello\ncaf\xe9\n", "schemas/dir/x.json", "{}", "other/missing.json", "{}")
	runLint(t, "OW005", []lintCase{
		{name: "all present", kind: kinds.NodePack, doc: good, files: goodFiles},
		{name: "validated alone: not checked", kind: kinds.NodePack, doc: bad},
		{name: "every kind of broken ref", kind: kinds.NodePack, doc: bad, files: badFiles,
			want: []hit{
				{ptr: "/nodes/0/inputSchemaRef", at: `"schemas/missing.json"`, hint: `did you mean "other/missing.json"`},
				{ptr: "/nodes/0/outputSchemaRef", at: `"../outside.json"`, hint: "copy the file into the pack"},
				{ptr: "/nodes/0/configSchemaRef", at: `"http://example.com/c.json"`, hint: "https://"},
				{ptr: "/agents/0/handoff/taskSchemaRef", at: `"schemas"`, hint: "point it at a file"},
				{ptr: "/agents/0/evalSuiteRef", at: `"/abs/suite.json"`},
				{file: "schemas/broken.json", at: ",", hint: "fix the JSON"},
				{file: "prompts/latin1.md", at: "\xe9", hint: "UTF-8"},
				{file: "schemas/list.json", at: "[", hint: "JSON Schema is an object"},
			}},
		{name: "standalone agent beside its prompt", kind: kinds.Agent,
			doc:   `{"agentId": "vendor.acme.tools.one", "persona": "P", "modelClass": "general", "systemPromptRef": "prompts/gone.md"}`,
			files: fstest.MapFS{"prompts/here.md": {Data: []byte("hi")}},
			want:  []hit{{ptr: "/systemPromptRef", at: `"prompts/gone.md"`, hint: "create the file"}}},
	})
}

func TestOW006RuntimeEntry(t *testing.T) {
	entry := func(lang, e string) string {
		return packWith(`{"language": "javascript", "format": "esm", "entry": "./index.mjs"}`, `{"language": "`+lang+`", "entry": "`+e+`"}`)
	}
	wasm := fstest.MapFS{"dist/hello.wasm": {Data: []byte("\x00asm")}}
	runLint(t, "OW006", []lintCase{
		{name: "dot slash entry present", kind: kinds.NodePack, doc: basePack, files: packFiles()},
		{name: "remote needs no file", kind: kinds.NodePack, doc: entry("remote", "pack.json"), files: fstest.MapFS{}},
		{name: "validated alone: not checked", kind: kinds.NodePack, doc: basePack},
		{name: "missing, with a suggestion", kind: kinds.NodePack, doc: entry("wasm", "target/release/hello.wasm"), files: wasm,
			want: []hit{{ptr: "/runtime/entry", at: `"target/release/hello.wasm"`, hint: `"dist/hello.wasm"`}}},
		{name: "missing", kind: kinds.NodePack, doc: basePack, files: fstest.MapFS{},
			want: []hit{{ptr: "/runtime/entry", at: `"./index.mjs"`, hint: "create the file"}}},
		{name: "outside the pack", kind: kinds.NodePack, doc: entry("javascript", "../index.mjs"), files: packFiles(),
			want: []hit{{ptr: "/runtime/entry", at: `"../index.mjs"`}}},
		{name: "URL without remote", kind: kinds.NodePack, doc: entry("javascript", "https://cdn.example/x.mjs"), files: packFiles(),
			want: []hit{{ptr: "/runtime/entry", at: `"https://cdn.example/x.mjs"`, hint: `"remote"`}}},
	})
}

func TestOW013SchemaIDs(t *testing.T) {
	t.Parallel()
	doc := packWith(`tools.a", "version": "1.0.0", "category": "data", "role": "pure"`,
		`tools.a", "version": "1.0.0", "category": "data", "role": "pure", "inputSchemaRef": "schemas/a.input.json", "outputSchemaRef": "io/a.output.json"`)
	good := `{
  "$id": "https://packs.openwop.dev/vendor.acme.tools/1.0.0/a.input.json",
  "type": "object"
}`
	runLint(t, "OW013", []lintCase{
		{name: "served ids and no id", kind: kinds.NodePack, doc: doc, files: packFiles(
			"schemas/a.input.json", good,
			"io/a.output.json", `{"$id": "https://packs.openwop.dev/vendor.acme.tools/1.0.0/io/a.output.json"}`,
			"schemas/extra.json", `{"type": "string"}`)},
		{name: "stale version, other pack, unreferenced file", kind: kinds.NodePack, doc: doc, files: packFiles(
			"schemas/a.input.json", `{"$id": "https://packs.openwop.dev/vendor.acme.tools/0.9.0/a.input.json"}`,
			"io/a.output.json", "{\n  \"type\": \"object\",\n  \"$id\": \"https://packs.openwop.dev/vendor.other/1.0.0/a.output.json\"\n}",
			"schemas/extra.json", `{"$id": "https://example.com/extra.json"}`),
			want: []hit{
				{file: "schemas/a.input.json", ptr: "/$id", at: `"https://`, hint: "https://packs.openwop.dev/vendor.acme.tools/1.0.0/a.input.json"},
				{file: "io/a.output.json", ptr: "/$id", at: `"https://`, hint: "vendor.acme.tools/1.0.0/io/a.output.json"},
				{file: "schemas/extra.json", ptr: "/$id", at: `"https://`, hint: "vendor.acme.tools/1.0.0/extra.json"},
			}},
	})
}

// FuzzLintPack lints arbitrary pack manifests and tool manifests with
// arbitrary files beside them: never a panic, every problem positioned.
func FuzzLintPack(f *testing.F) {
	f.Add([]byte(basePack), []byte(schemaA))
	f.Add([]byte(packWith(`"runtime"`, `"agents": [`+agentJSON("vendor.acme.tools.one", `, "evalSuiteRef": "evals/one.json", "toolAllowlist": ["x"]`)+`], "runtime"`)), []byte(baseSuite))
	f.Add([]byte(baseTool), []byte("{}\n{}\n"))
	f.Add([]byte(`{"name":"core.x.y","agents":[{"agentId":"core.x.y.z","evalSuiteRef":"evals/one.json","systemPromptRef":"p.md"}],"nodes":[{"typeId":"a","inputSchemaRef":"s.json","requiresSecrets":[{"kind":"ai-provider"}]}],"connector":{"actions":[{}],"triggers":[1]}}`), []byte("\xff{"))
	v := newV(f)
	f.Fuzz(func(t *testing.T, doc, file []byte) {
		files := fstest.MapFS{"index.mjs": {Data: file}, "s.json": {Data: file}, "p.md": {Data: file},
			"evals/one.json": {Data: file}, "schemas/in.json": {Data: file}, "verify/cases.jsonl": {Data: file}}
		frs := v.PackFiles("pack.json", files, doc)
		fr := v.File("tool.json", doc, kinds.ToolManifest)
		frs = append(frs, v.lintStandalone(&fr, files, doc)...)
		for _, r := range append(frs, fr) {
			for _, p := range append(r.Errors, r.Warnings...) {
				if p.Line < 1 || p.Column < 1 || p.Rule == "" || p.Message == "" {
					t.Fatalf("unpositioned or empty problem in %s: %+v", r.Path, p)
				}
			}
		}
	})
}

// A crasher of FuzzSet (internal/scaffold/testdata/fuzz/FuzzSet): a node id
// "/\x00\xf9" put "schemas//..." into the plan's in-memory file system,
// whose directory listing then nests empty names forever; the schema $id
// walk overflowed the stack. Invalid paths are skipped and the walk bounded.
func TestSchemaWalkInvalidPaths(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"schemas//\x00x.json": {Data: []byte("{}")}, "schemas/a.json": {Data: []byte(`{"$id":"x"}`)}}
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		v.PackFiles("pack.json", fsys, []byte(`{"name":"vendor.acme.x","version":"1.0.0","description":"d","license":"MIT","nodes":[]}`))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(testwait.Ceiling):
		t.Fatal("validation did not return")
	}
}
