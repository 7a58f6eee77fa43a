package validate

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// hit is one expected lint problem. Its line and column are computed from
// the source text (the nth occurrence of at), independently of jsondoc.
type hit struct {
	ptr  string
	at   string // text the problem must point at (its first character)
	nth  int    // which occurrence of at, from 0
	file string // the file reported on, when not the document itself
	hint string // expected substring of the hint
}

// lintCase is a document, optionally with the files beside it, and the
// problems one rule must report on it (none: the rule must stay silent).
type lintCase struct {
	name  string
	kind  kinds.Kind
	doc   string
	files fstest.MapFS // nil: the document is validated alone
	reg   bool         // Options.ForRegistry
	want  []hit
}

// runLint validates each case and compares the problems of rule with want:
// same count, order, pointer, line and column.
func runLint(t *testing.T, rule string, cases []lintCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			frs := lintReports(t, tc)
			var got []Problem
			for _, fr := range frs {
				for _, p := range append(append([]Problem(nil), fr.Errors...), fr.Warnings...) {
					if p.Rule == rule {
						got = append(got, p)
					}
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%s: %d problems, want %d:\n%s", rule, len(got), len(tc.want), render(got))
			}
			for i, w := range tc.want {
				src := tc.doc
				file := "doc.json"
				if tc.kind == kinds.NodePack {
					file = "pack.json"
				}
				if w.file != "" {
					file = w.file
					src = string(tc.files[w.file].Data)
				}
				line, col := textPos(t, src, w.at, w.nth)
				p := got[i]
				if p.File != file || p.Pointer != w.ptr || p.Line != line || p.Column != col || !strings.Contains(p.Hint, w.hint) {
					t.Errorf("problem %d is\n  %s\nwant %s:%d:%d at %s (hint ~%q)", i, p, file, line, col, w.ptr, w.hint)
				}
				if p.Message == "" || p.Hint == "" {
					t.Errorf("problem %d has no message or hint: %s", i, p)
				}
			}
		})
	}
}

// lintReports validates a case the way the CLI does: a pack with its files,
// or a standalone document and then its file-reading rules.
func lintReports(t *testing.T, tc lintCase) []FileReport {
	t.Helper()
	v, err := New(Options{ForRegistry: tc.reg})
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(tc.doc)
	if tc.kind == kinds.NodePack {
		if tc.files != nil {
			return v.PackFiles("pack.json", tc.files, data)
		}
		return []FileReport{v.File("pack.json", data, kinds.NodePack)}
	}
	fr := v.File("doc.json", data, tc.kind)
	var extra []FileReport
	if tc.files != nil {
		extra = v.lintStandalone(&fr, tc.files, data)
	}
	return append([]FileReport{fr}, extra...)
}

// textPos returns the 1-based line and column (in characters) of the nth
// occurrence of needle in src.
func textPos(t *testing.T, src, needle string, nth int) (int, int) {
	t.Helper()
	off := -1
	for i, from := 0, 0; i <= nth; i++ {
		j := strings.Index(src[from:], needle)
		if j < 0 {
			t.Fatalf("test bug: occurrence %d of %q not in the document", nth, needle)
		}
		off = from + j
		from = off + 1
	}
	nl := strings.LastIndexByte(src[:off], '\n')
	return strings.Count(src[:off], "\n") + 1, utf8.RuneCountInString(src[nl+1:off]) + 1
}

// packWith builds a small valid node pack, with replacements applied.
func packWith(repl ...string) string {
	return strings.NewReplacer(repl...).Replace(basePack)
}

const basePack = `{
  "name": "vendor.acme.tools",
  "version": "1.0.0",
  "engines": {"openwop": ">=1.0.0 <2.0.0"},
  "nodes": [
    {"typeId": "vendor.acme.tools.a", "version": "1.0.0", "category": "data", "role": "pure"},
    {"typeId": "vendor.acme.tools.b", "version": "1.0.0", "category": "data", "role": "pure"}
  ],
  "runtime": {"language": "javascript", "format": "esm", "entry": "./index.mjs"}
}`

// agentJSON is a minimal valid agent manifest with the given id and extra members.
func agentJSON(id, extra string) string {
	return `{"agentId": "` + id + `", "persona": "Helper", "modelClass": "general", "systemPrompt": "Help."` + extra + `}`
}

func TestOW001TypeIDsUnique(t *testing.T) {
	t.Parallel()
	runLint(t, "OW001", []lintCase{
		{name: "distinct", kind: kinds.NodePack, doc: basePack},
		{name: "repeated", kind: kinds.NodePack, doc: packWith(`"vendor.acme.tools.b"`, `"vendor.acme.tools.a"`),
			want: []hit{{ptr: "/nodes/1/typeId", at: `"vendor.acme.tools.a"`, nth: 1, hint: "its own typeId"}}},
	})
}

func TestOW002ConnectorResolves(t *testing.T) {
	conn := func(action, trigger string) string {
		return packWith(`"runtime"`, `"connector": {"id": "acme", "displayName": "Acme", "actions": [{"typeId": "`+action+`", "displayName": "Act"}], "triggers": ["`+trigger+`"]},
  "runtime"`)
	}
	runLint(t, "OW002", []lintCase{
		{name: "resolved", kind: kinds.NodePack, doc: conn("vendor.acme.tools.a", "vendor.acme.tools.b")},
		{name: "no connector", kind: kinds.NodePack, doc: basePack},
		{name: "unresolved", kind: kinds.NodePack, doc: conn("vendor.acme.tools.x", "vendor.acme.tools.t"),
			want: []hit{
				{ptr: "/connector/actions/0/typeId", at: `"vendor.acme.tools.x"`, hint: `"vendor.acme.tools.a"`},
				{ptr: "/connector/triggers/0", at: `"vendor.acme.tools.t"`, hint: "add a node"},
			}},
	})
}

func TestOW003AgentPrefix(t *testing.T) {
	agents := func(ids ...string) string {
		var a []string
		for _, id := range ids {
			a = append(a, agentJSON(id, ""))
		}
		return packWith(`"runtime"`, `"agents": [`+strings.Join(a, ",\n    ")+`],
  "runtime"`)
	}
	runLint(t, "OW003", []lintCase{
		{name: "prefixed", kind: kinds.NodePack, doc: agents("vendor.acme.tools.helper", "vendor.acme.tools.other")},
		{name: "foreign and look-alike", kind: kinds.NodePack, doc: agents("vendor.other.helper", "vendor.acme.toolsx.writer", "vendor.acme.tools.ok"),
			want: []hit{
				{ptr: "/agents/0/agentId", at: `"vendor.other.helper"`, hint: `rename the agent to "vendor.acme.tools.helper"`},
				{ptr: "/agents/1/agentId", at: `"vendor.acme.toolsx.writer"`, hint: `"vendor.acme.tools.writer"`},
			}},
	})
}

func TestOW004AgentOnlyRemote(t *testing.T) {
	agentOnly := func(runtime string) string {
		return `{
  "name": "vendor.acme.helpers",
  "version": "1.0.0",
  "engines": {"openwop": "^1.1"},
  "agents": [` + agentJSON("vendor.acme.helpers.one", "") + `],
  "runtime": ` + runtime + `
}`
	}
	runLint(t, "OW004", []lintCase{
		{name: "remote", kind: kinds.NodePack, doc: agentOnly(`{"language": "remote", "entry": "pack.json"}`)},
		{name: "mixed pack keeps its runtime", kind: kinds.NodePack, doc: packWith(`"runtime"`, `"agents": [`+agentJSON("vendor.acme.tools.one", "")+`],
  "runtime"`)},
		{name: "javascript", kind: kinds.NodePack, doc: agentOnly(`{"language": "javascript", "entry": "index.mjs"}`),
			want: []hit{{ptr: "/runtime/language", at: `"javascript"`, hint: `"language": "remote"`}}},
	})
}

func TestOW007SecretProvider(t *testing.T) {
	secrets := func(s string) string {
		return packWith(`tools.b", "version": "1.0.0", "category": "data", "role": "pure"}`,
			`tools.b", "version": "1.0.0", "category": "data", "role": "pure", "requiresSecrets": [`+s+`]}`)
	}
	runLint(t, "OW007", []lintCase{
		{name: "consistent", kind: kinds.NodePack, doc: secrets(`{"id": "llm", "kind": "ai-provider", "provider": "anthropic"}, {"id": "crm", "kind": "api-key"}`)},
		{name: "missing and stray provider", kind: kinds.NodePack, doc: secrets(`{"id": "llm", "kind": "ai-provider"}, {"id": "crm", "kind": "api-key", "provider": "acme"}`),
			want: []hit{
				{ptr: "/nodes/1/requiresSecrets/0", at: `{"id": "llm"`, hint: `add "provider"`},
				{ptr: "/nodes/1/requiresSecrets/1/provider", at: `"provider"`, hint: `remove "provider"`},
			}},
	})
}

func TestOW008NameScope(t *testing.T) {
	named := func(n string) string { return packWith(`"name": "vendor.acme.tools"`, `"name": "`+n+`"`) }
	runLint(t, "OW008", []lintCase{
		{name: "vendor", kind: kinds.NodePack, doc: basePack, reg: true},
		{name: "private without --for-registry", kind: kinds.NodePack, doc: named("private.host.tools")},
		{name: "core", kind: kinds.NodePack, doc: named("core.openwop.tools"),
			want: []hit{{ptr: "/name", at: `"core.openwop.tools"`, hint: "vendor.<org>"}}},
		{name: "private for a registry", kind: kinds.NodePack, doc: named("private.host.tools"), reg: true,
			want: []hit{{ptr: "/name", at: `"private.host.tools"`, hint: "before publishing"}}},
		{name: "local for a registry", kind: kinds.NodePack, doc: named("local.dev.tools"), reg: true,
			want: []hit{{ptr: "/name", at: `"local.dev.tools"`}}},
	})
}

func TestOW009Versions(t *testing.T) {
	engines := func(r string) string { return packWith(`">=1.0.0 <2.0.0"`, `"`+r+`"`) }
	runLint(t, "OW009", []lintCase{
		{name: "npm ranges with short versions", kind: kinds.NodePack, doc: engines(">=1.0 <2.0.0")},
		{name: "caret", kind: kinds.NodePack, doc: engines("^1.2")},
		{name: "or and x-range", kind: kinds.NodePack, doc: engines("1.x || >=2.5.0")},
		{name: "not a range", kind: kinds.NodePack, doc: engines("one point oh"),
			want: []hit{{ptr: "/engines/openwop", at: `"one point oh"`, hint: "npm-style range"}}},
		{name: "leading zero and short node version", kind: kinds.NodePack,
			doc: packWith(`"version": "1.0.0",
  "engines"`, `"version": "01.0.0",
  "engines"`, `"vendor.acme.tools.b", "version": "1.0.0"`, `"vendor.acme.tools.b", "version": "1.0"`),
			want: []hit{
				{ptr: "/version", at: `"01.0.0"`, hint: "MAJOR.MINOR.PATCH"},
				{ptr: "/nodes/1/version", at: `"1.0"`},
			}},
		{name: "schema pattern failures are left to the schema", kind: kinds.NodePack, doc: packWith(`"version": "1.0.0",
  "engines"`, `"version": "v1",
  "engines"`)},
	})
}

func TestOW010PeerDeps(t *testing.T) {
	peers := func(p string) string {
		return packWith(`"nodes"`, p+`,
  "nodes"`)
	}
	runLint(t, "OW010", []lintCase{
		{name: "consistent", kind: kinds.NodePack, doc: peers(`"peerDependencies": {"aiProviders": "supported"}, "peerDependenciesMeta": {"aiProviders": {"optional": true}}`)},
		{name: "empty value and stray meta", kind: kinds.NodePack, doc: peers(`"peerDependencies": {"aiProviders": " "}, "peerDependenciesMeta": {"a2a": {"optional": true}}`),
			want: []hit{
				{ptr: "/peerDependencies/aiProviders", at: `" "`, hint: "supported"},
				{ptr: "/peerDependenciesMeta/a2a", at: `"a2a"`, hint: `add "a2a" to peerDependencies`},
			}},
		{name: "meta without peers", kind: kinds.NodePack, doc: peers(`"peerDependenciesMeta": {"a2a": {}}`),
			want: []hit{{ptr: "/peerDependenciesMeta/a2a", at: `"a2a"`}}},
	})
}

func TestOW012ToolAllowlist(t *testing.T) {
	t.Parallel()
	list := `, "toolAllowlist": ["fetch", "openwop:core.openwop.http.fetch", "mcp:github/create_issue", "acme.example:search", "Acme:x"]`
	runLint(t, "OW012", []lintCase{
		{name: "well formed", kind: kinds.Agent, doc: agentJSON("vendor.acme.tools.one", `, "toolAllowlist": ["openwop:core.openwop.http.fetch", "mcp:github/create_issue", "mcp:github/*", "acme.example:*"]`)},
		{name: "standalone agent", kind: kinds.Agent, doc: agentJSON("vendor.acme.tools.one", list),
			want: []hit{
				{ptr: "/toolAllowlist/0", at: `"fetch"`, hint: "<scope>:<tool-id>"},
				{ptr: "/toolAllowlist/4", at: `"Acme:x"`},
			}},
		{name: "in a pack", kind: kinds.NodePack, doc: packWith(`"runtime"`, `"agents": [`+agentJSON("vendor.acme.tools.one", list)+`],
  "runtime"`),
			want: []hit{
				{ptr: "/agents/0/toolAllowlist/0", at: `"fetch"`},
				{ptr: "/agents/0/toolAllowlist/4", at: `"Acme:x"`},
			}},
	})
}

func TestOW014AgentIDsUnique(t *testing.T) {
	t.Parallel()
	runLint(t, "OW014", []lintCase{
		{name: "distinct", kind: kinds.NodePack, doc: packWith(`"runtime"`, `"agents": [`+agentJSON("vendor.acme.tools.one", "")+`, `+agentJSON("vendor.acme.tools.two", "")+`],
  "runtime"`)},
		{name: "repeated", kind: kinds.NodePack, doc: packWith(`"runtime"`, `"agents": [`+agentJSON("vendor.acme.tools.one", "")+`, `+agentJSON("vendor.acme.tools.one", "")+`],
  "runtime"`),
			want: []hit{{ptr: "/agents/1/agentId", at: `"vendor.acme.tools.one"`, nth: 1}}},
	})
}

func TestOW015DependencyRanges(t *testing.T) {
	deps := func(d string) string {
		return packWith(`"nodes"`, `"dependencies": {`+d+`},
  "nodes"`)
	}
	runLint(t, "OW015", []lintCase{
		{name: "ranges", kind: kinds.NodePack, doc: deps(`"vendor.acme.base": "^1.2.0", "core.openwop.flow": ">=1.0 <2"`)},
		{name: "not a range", kind: kinds.NodePack, doc: deps(`"vendor.acme.base": "latest please"`),
			want: []hit{{ptr: "/dependencies/vendor.acme.base", at: `"latest please"`}}},
	})
}

// lintCounts counts the lint problems of a report by rule and severity
// ("OW006 error"), leaving schema problems out.
func lintCounts(rep *Report) map[string]int {
	out := map[string]int{}
	for _, p := range rep.Problems() {
		if !strings.Contains(p.Rule, "/") {
			out[p.Rule+" "+string(p.Severity)]++
		}
	}
	return out
}

// TestLintRegistryPacks lints every published pack of the registry slice
// as the registry serves it. Each problem below is a real one of the
// published bytes (see docs/RULES.md, "The real registry").
func TestLintRegistryPacks(t *testing.T) {
	t.Parallel()
	want := map[string]map[string]int{
		"community.openwop-team.demo": {},
		// 36 of its 51 schemas carry the $id of version 1.0.0; the source has 1.1.0.
		"core.openwop.a2a":               {"OW008 warning": 1, "OW013 warning": 36},
		"core.openwop.agents.classifier": {"OW008 warning": 1},
		// both schemas carry the $id of version 1.0.1; the source has 1.0.3.
		"core.openwop.agents.react": {"OW008 warning": 1, "OW013 warning": 2},
		// 74 of its 75 schemas carry the $id of version 1.0.0.
		"core.openwop.flow":                 {"OW008 warning": 1, "OW013 warning": 74},
		"vendor.myndhyve.ads-copy-generate": {},
		// runtime.entry names target/wasm32-unknown-unknown/release/rust_hello.wasm;
		// the tarball ships dist/rust_hello.wasm. Its README's curl command
		// sends "Authorization: Bearer …" on the line after its `\`, which
		// gitleaks' curl-auth-header reports (as `gitleaks dir` does).
		"vendor.openwop.rust-hello": {"OW006 error": 1, "pack_secret error": 1},
	}
	tgzs := fixtures.Tarballs(t, "")
	v := newV(t)
	for _, tgz := range tgzs {
		name := filepath.Base(filepath.Dir(filepath.Dir(tgz)))
		t.Run(name, func(t *testing.T) {
			exp, ok := want[name]
			if !ok {
				t.Fatalf("no expectation for %s", name)
			}
			rep, err := v.Path(fixtures.Untar(t, tgz, t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			if got := lintCounts(rep); !maps.Equal(got, exp) {
				t.Errorf("lint problems %v, want %v:\n%s", got, exp, render(rep.Problems()))
			}
		})
	}
}

// TestLintSourcePacks lints the real source packs (their JavaScript entry,
// removed from the fixtures, replaced by a placeholder): no lint errors, and
// unlike their published tarballs, their schema $ids are right.
func TestLintSourcePacks(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob(fixtures.Path(t, "source-packs", "*"))
	if len(dirs) == 0 {
		t.Fatal("no source packs in the fixtures")
	}
	v := newV(t)
	for _, src := range dirs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "index.mjs"), []byte("export default {};\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := v.Path(dir)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int{}
			if strings.HasPrefix(filepath.Base(src), "core.") {
				want["OW008 warning"] = 1 // the reserved core.* scope
			}
			if got := lintCounts(rep); !maps.Equal(got, want) {
				t.Errorf("lint problems %v, want %v:\n%s", got, want, render(rep.Problems()))
			}
		})
	}
}

// BenchmarkLintA2A runs the whole `wopkit validate DIR` (schema, lint, the
// 51 referenced schema files) on the largest published pack, unpacked.
func BenchmarkLintA2A(b *testing.B) {
	dir := fixtures.Untar(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), b.TempDir())
	v := newV(b)
	if _, err := v.Path(dir); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := v.Path(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLintDocA2A runs the document lint rules alone (no files) on the
// largest published pack.json: their share of a per-keystroke re-check.
func BenchmarkLintDocA2A(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	doc, err := jsondoc.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	v := newV(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.lint("pack.json", kinds.V1, kinds.NodePack, doc, nil)
	}
}

// TestRulesDocumented keeps the rule table and docs/RULES.md in step: every
// rule has a unique id, a summary, kinds and a check, and a row in the docs
// with its severity; the docs name no rule that does not exist.
func TestRulesDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "RULES.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // id → severity column
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 3 && len(strings.TrimSpace(cells[1])) == 5 {
			rows[strings.TrimSpace(cells[1])] = strings.TrimSpace(cells[2])
		}
	}
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] || r.Summary == "" || len(r.Kinds) == 0 || r.check == nil {
			t.Errorf("rule %s: repeated, or without summary, kinds or check", r.ID)
		}
		seen[r.ID] = true
		if sev, ok := rows[r.ID]; !ok || sev != string(r.Severity) {
			t.Errorf("docs/RULES.md: rule %s has row %v with severity %q, want %q", r.ID, ok, sev, r.Severity)
		}
	}
	for id := range rows {
		if !seen[id] {
			t.Errorf("docs/RULES.md documents %s, which is not a rule", id)
		}
	}
}
