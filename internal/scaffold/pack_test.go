package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/validate"
)

// packCase is one combination of runtime and options the templates offer.
type packCase struct {
	name string
	mod  func(a *PackAnswers)
}

// packCases returns every runtime crossed with every agent option.
func packCases() []packCase {
	agentOpts := []struct {
		name string
		mod  func(ag *AgentAnswers)
	}{
		{"prompt-file", func(*AgentAnswers) {}},
		{"prompt-inline", func(ag *AgentAnswers) { ag.PromptInline = true }},
		{"no-handoff-no-confidence", func(ag *AgentAnswers) { ag.Handoff = false; ag.Confidence = -1 }},
		{"memory-tools", func(ag *AgentAnswers) {
			ag.Memory = Memory{Scratchpad: true, LongTerm: true}
			ag.ToolAllowlist = []string{"openwop:core.openwop.http.fetch", "mcp:search"}
			ag.ModelClass = "research"
		}},
		{"eval-golden", func(ag *AgentAnswers) { e := EvalAnswers{}.Defaults(); ag.Eval = &e }},
		{"eval-rubric", func(ag *AgentAnswers) {
			e := EvalAnswers{}.Defaults()
			e.Modes = []string{"golden", "rubric", "adversarial"}
			e.Tasks = append(e.Tasks, TaskAnswers{ID: "is-kind", Input: "Be rude.", Kind: "rubric", Criteria: []string{"stays polite", "answers", "is short"}})
			e.PassScore = -1
			ag.Eval = &e
		}},
	}
	var out []packCase
	for _, lang := range Runtimes {
		lang := lang
		if lang != "remote" {
			out = append(out, packCase{lang + "/nodes-only", func(a *PackAnswers) { a.Runtime.Language = lang }})
			out = append(out, packCase{lang + "/two-nodes", func(a *PackAnswers) {
				a.Runtime.Language = lang
				n := NodeAnswers{}.Defaults()
				n.ID, n.Inputs, n.Outputs, n.Category, n.Role = "merge-two", []string{"left", "right"}, []string{"joined", "count"}, "integration", "side-effect"
				n.Capabilities = []string{"side-effectful"}
				a.Nodes = append(a.Nodes, n)
			}})
		}
		for _, o := range agentOpts {
			o := o
			out = append(out, packCase{lang + "/agent-" + o.name, func(a *PackAnswers) {
				a.Runtime.Language = lang
				ag := AgentAnswers{}.Defaults()
				o.mod(&ag)
				a.Agents = []AgentAnswers{ag}
			}})
		}
	}
	for _, lic := range Licenses {
		lic := lic
		out = append(out, packCase{"javascript/license-" + lic, func(a *PackAnswers) { a.License = lic }})
	}
	out = append(out, packCase{"javascript/all-metadata", func(a *PackAnswers) {
		a.Author, a.Homepage, a.Repository = "Acme <dev@acme.test>", "https://acme.test/hello", "https://github.com/acme/hello"
		a.Keywords = []string{"demo", "hello"}
		a.Description = "Says <hello> & \"goodbye\" — politely."
	}})
	return out
}

// TestPackCombinations scaffolds every combination into a directory and
// validates it from disk, strict and for the registry: no errors and no
// warnings (every schema carries the $id check-pack-schema-ids expects).
func TestPackCombinations(t *testing.T) {
	t.Parallel()
	v, err := validate.New(validate.Options{Strict: true, ForRegistry: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range packCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := scaffoldPack(t, c)
			rep, err := v.Path(dir)
			if err != nil {
				t.Fatal(err)
			}
			if e, w := rep.ErrorCount(); !rep.Valid || e+w > 0 {
				for _, p := range rep.Problems() {
					t.Error(p.String())
				}
			}
		})
	}
}

func scaffoldPack(t *testing.T, c packCase) string {
	t.Helper()
	a := PackAnswers{}.Defaults()
	a.Name = "vendor.acme.hello"
	c.mod(&a)
	p, err := PlanPack(a, nil)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "hello")
	if err := p.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEntriesRun loads each scaffolded runtime entry with the real runtime
// (node, python3, go) and checks the result shape a host expects.
func TestEntriesRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, tool string
		run        []string
		want       string
	}{
		{"javascript", "node", []string{"node", "--input-type=module", "-e",
			`import m, { nodes } from './index.mjs';
if (m !== nodes) throw new Error('default export is not nodes');
const r = await m['vendor.acme.hello.hello']({ inputs: { text: 'hi' } });
const r2 = await m['vendor.acme.hello.merge-two']({ inputs: { left: 'a' } });
console.log(JSON.stringify([r, r2]));`}, `[{"status":"success","outputs":{"text":"HI"}},{"status":"success","outputs":{"joined":"A","count":"A"}}]`},
		{"javascript", "node", []string{"node", "--test"}, "# fail 0"},
		{"python", "python3", []string{"python3", "-c",
			`import asyncio, json, main; print(json.dumps(asyncio.run(main.NODES["vendor.acme.hello.hello"]({"inputs": {"text": "hi"}})), separators=(",", ":")))`},
			`{"status":"success","outputs":{"text":"HI"}}`},
		{"python", "python3", []string{"python3", "-m", "unittest"}, ""},
		{"wasm", "node", []string{"node", "--test"}, "# fail 0"},
		{"go", "go", []string{"go", "run", "."}, `{"status":"success","outputs":{"text":"HI"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.run[1], func(t *testing.T) {
			if _, err := exec.LookPath(tt.tool); err != nil {
				t.Skipf("%s is not installed: cannot run the scaffolded %s entry", tt.tool, tt.lang)
			}
			if tt.lang == "go" && testing.Short() {
				t.Skip("-short: not compiling the scaffolded Go entry")
			}
			dir := scaffoldPack(t, packCases()[indexCase(tt.lang+"/two-nodes")])
			cmd := exec.Command(tt.run[0], tt.run[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
			if tt.lang == "go" {
				cmd.Stdin = strings.NewReader(`{"typeId": "vendor.acme.hello.hello", "inputs": {"text": "hi"}}`)
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %v\n%s", tt.run, err, out)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("%v printed\n%s\nwant it to contain %s", tt.run, out, tt.want)
			}
		})
	}
}

func indexCase(name string) int {
	for i, c := range packCases() {
		if c.name == name {
			return i
		}
	}
	panic("no case " + name)
}

// TestWasmModuleIsValid checks the hand-assembled node.wasm with node's
// WebAssembly implementation (an independent decoder).
func TestWasmModuleIsValid(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: cannot check node.wasm")
	}
	f := filepath.Join(t.TempDir(), "m.wasm")
	if err := os.WriteFile(f, wasmModule, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", "-e", `const fs=require('fs');WebAssembly.instantiate(fs.readFileSync(process.argv[1])).then(({instance})=>console.log('run='+instance.exports.run()))`, f).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "run=0") {
		t.Fatalf("node rejected node.wasm: %v\n%s", err, out)
	}
}

// TestLicenseTexts checks the LICENSE of each license choice; the Apache
// text is compared with Debian's copy of the license when it is installed.
func TestLicenseTexts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ license, author, want string }{
		{"MIT", "Acme Inc", "Copyright (c) Acme Inc\n\nPermission is hereby granted"},
		{"MIT", "", "Copyright (c) the authors of vendor.acme.hello"},
		{"BSD-3-Clause", "Acme", "SPDX-License-Identifier: BSD-3-Clause"},
		{"PROPRIETARY", "Acme", "All rights reserved"},
		{"Apache-2.0", "", "Apache License\n                           Version 2.0, January 2004"},
	} {
		a := PackAnswers{}.Defaults()
		a.Name, a.License, a.Author = "vendor.acme.hello", tt.license, tt.author
		p, err := PlanPack(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := string(p.File("LICENSE").Data)
		if !strings.Contains(got, tt.want) || strings.Contains(got, "{{") || strings.Contains(got, "Uses:") {
			t.Errorf("%s: LICENSE is\n%s", tt.license, got)
		}
		if tt.license == "Apache-2.0" {
			if ref, err := os.ReadFile("/usr/share/common-licenses/Apache-2.0"); err == nil && got != string(ref) {
				t.Error("Apache-2.0 LICENSE differs from /usr/share/common-licenses/Apache-2.0")
			}
		}
	}
}

// TestAppendedNodesRun adds a node to a scaffolded pack of each runtime
// with code templates and runs the runtime's own test command: the
// appended implementation must load and be registered.
func TestAppendedNodesRun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ lang, tool, check string }{
		{"javascript", "node", `import m from './index.mjs'; const r = await m['vendor.acme.hello.hello-again']({inputs: {text: 'x'}}); if (r.status !== 'success' || r.outputs.text !== 'X') throw new Error(JSON.stringify(r));`},
		{"python", "python3", `import asyncio, main; r = asyncio.run(main.NODES["vendor.acme.hello.hello-again"]({"inputs": {"text": "x"}})); assert r == {"status": "success", "outputs": {"text": "X"}}, r`},
		{"go", "go", ""},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			if _, err := exec.LookPath(tt.tool); err != nil {
				t.Skipf("%s is not installed: cannot run the %s entry", tt.tool, tt.lang)
			}
			if tt.lang == "go" && testing.Short() {
				t.Skip("-short: not compiling the scaffolded Go entry")
			}
			dir := scaffoldPack(t, packCases()[indexCase(tt.lang+"/nodes-only")])
			src, err := OpenPack(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{"hello-again", "vendor.acme.hello.hello_again"} { // the second needs a new function name
				n := NodeAnswers{}.Defaults()
				n.ID = id
				p, err := PlanNode(src, n, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Write(dir, false); err != nil {
					t.Fatal(err)
				}
				if src, err = OpenPack(dir); err != nil {
					t.Fatal(err)
				}
			}
			var cmd *exec.Cmd
			switch tt.lang {
			case "javascript":
				cmd = exec.Command("node", "--input-type=module", "-e", tt.check)
			case "python":
				cmd = exec.Command("python3", "-c", tt.check)
			case "go":
				cmd = exec.Command("go", "test", "./...")
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
			}
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
			}
		})
	}
}

// TestHostileText puts comment and string terminators into every free-text
// answer and checks that each runtime's sources still parse (node --check,
// python3 -m py_compile; Go is parsed by the scaffold itself).
func TestHostileText(t *testing.T) {
	t.Parallel()
	nasty := "ends */ here \"\"\" and\nnew line \\ back ` tick ${x} '"
	for _, lang := range []string{"javascript", "python", "go", "wasm"} {
		t.Run(lang, func(t *testing.T) {
			a := PackAnswers{}.Defaults()
			a.Name, a.Runtime.Language, a.Description, a.Author = "vendor.acme.hello", lang, nasty, nasty
			a.Nodes[0].Description, a.Nodes[0].Label = nasty, nasty
			ag := AgentAnswers{}.Defaults()
			ag.Description, ag.Persona, ag.SystemPrompt = nasty, "P", nasty
			a.Agents = []AgentAnswers{ag}
			p, err := PlanPack(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := p.Write(dir, false); err != nil {
				t.Fatal(err)
			}
			var cmd *exec.Cmd
			switch lang {
			case "javascript":
				cmd = exec.Command("node", "--check", "index.mjs")
			case "python":
				cmd = exec.Command("python3", "-m", "py_compile", "main.py")
			default:
				return
			}
			if _, err := exec.LookPath(cmd.Args[0]); err != nil {
				t.Skipf("%s is not installed: cannot check the %s source", cmd.Args[0], lang)
			}
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
			}
		})
	}
}
