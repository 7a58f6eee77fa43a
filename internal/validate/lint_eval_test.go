package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"strings"
	"testing"
)

// suiteWith builds a small valid eval suite, with replacements applied.
func suiteWith(repl ...string) string {
	return strings.NewReplacer(repl...).Replace(baseSuite)
}

const baseSuite = `{
  "suiteId": "vendor.acme.evals.basic",
  "version": "1.0.0",
  "targetAgentId": "vendor.acme.tools.one",
  "modes": ["golden", "rubric"],
  "allowedModels": ["general", "writing"],
  "tasks": [
    {"taskId": "greets", "input": "hi", "expected": {"kind": "golden", "match": {"strategy": "contains", "value": "hello"}}},
    {"taskId": "polite", "input": "hi", "expected": {"kind": "rubric", "rubric": [{"criterion": "polite", "weight": 0.7}, {"criterion": "short", "weight": 0.3}]},
     "fixtures": {"toolResponses": [{"tool": "openwop:core.openwop.http.fetch", "response": {}}]}}
  ]
}`

func TestOW011EvalSuiteRef(t *testing.T) {
	t.Parallel()
	pack := packWith(`"runtime"`, `"agents": [`+agentJSON("vendor.acme.tools.one", `, "evalSuiteRef": "evals/one.json"`)+`],
  "runtime"`)
	runLint(t, "OW011", []lintCase{
		{name: "matching suite", kind: kinds.NodePack, doc: pack, files: packFiles("evals/one.json", baseSuite)},
		{name: "missing file is OW005's", kind: kinds.NodePack, doc: pack, files: packFiles()},
		{name: "other agent, other models", kind: kinds.NodePack, doc: pack, files: packFiles("evals/one.json",
			suiteWith(`"targetAgentId": "vendor.acme.tools.one"`, `"targetAgentId": "vendor.acme.tools.two"`, `["general", "writing"]`, `["coding"]`)),
			want: []hit{
				{ptr: "/agents/0/evalSuiteRef", at: `"evals/one.json"`, hint: `set targetAgentId in evals/one.json to "vendor.acme.tools.one"`},
				{ptr: "/agents/0/evalSuiteRef", at: `"evals/one.json"`, hint: `add "general" to allowedModels`},
			}},
		{name: "invalid suite", kind: kinds.NodePack, doc: pack, files: packFiles("evals/one.json", `{"suiteId": "vendor.acme.evals.basic", "tasks": []}`),
			want: []hit{{ptr: "/agents/0/evalSuiteRef", at: `"evals/one.json"`, hint: "wopkit validate evals/one.json"}}},
		{name: "standalone agent", kind: kinds.Agent, doc: agentJSON("vendor.acme.tools.two", `, "evalSuiteRef": "evals/one.json"`),
			files: packFiles("evals/one.json", baseSuite),
			want:  []hit{{ptr: "/evalSuiteRef", at: `"evals/one.json"`, hint: "targetAgentId"}}},
	})
}

// TestOW011ReportsTheSuiteItself checks that the suite's own problems are
// reported on the suite file, with the suite's positions and rules.
func TestOW011ReportsTheSuiteItself(t *testing.T) {
	t.Parallel()
	pack := packWith(`"runtime"`, `"agents": [`+agentJSON("vendor.acme.tools.one", `, "evalSuiteRef": "evals/one.json"`)+`],
  "runtime"`)
	suite := suiteWith(`"taskId": "polite"`, `"taskId": "greets"`)
	frs := lintReports(t, lintCase{kind: kinds.NodePack, doc: pack, files: packFiles("evals/one.json", suite)})
	if len(frs) != 2 || frs[1].Path != "evals/one.json" || frs[1].Kind != kinds.EvalSuite {
		t.Fatalf("want pack.json then evals/one.json, got %+v", frs)
	}
	line, col := textPos(t, suite, `"greets"`, 1)
	if es := frs[1].Errors; len(es) != 1 || es[0].Rule != "EV001" || es[0].Line != line || es[0].Column != col {
		t.Errorf("suite problems: %s; want EV001 at %d:%d", render(es), line, col)
	}
}

func TestEV001TaskIDsUnique(t *testing.T) {
	t.Parallel()
	runLint(t, "EV001", []lintCase{
		{name: "distinct", kind: kinds.EvalSuite, doc: baseSuite},
		{name: "repeated", kind: kinds.EvalSuite, doc: suiteWith(`"taskId": "polite"`, `"taskId": "greets"`),
			want: []hit{{ptr: "/tasks/1/taskId", at: `"greets"`, nth: 1, hint: "own taskId"}}},
	})
}

func TestEV002ExpectedShape(t *testing.T) {
	t.Parallel()
	runLint(t, "EV002", []lintCase{
		{name: "complete", kind: kinds.EvalSuite, doc: baseSuite},
		{name: "golden without match, rubric without rubric", kind: kinds.EvalSuite,
			doc: suiteWith(`"kind": "golden", "match": {"strategy": "contains", "value": "hello"}`, `"kind": "golden"`,
				`"kind": "rubric", "rubric": [{"criterion": "polite", "weight": 0.7}, {"criterion": "short", "weight": 0.3}]`, `"kind": "rubric"`),
			want: []hit{
				{ptr: "/tasks/0/expected/kind", at: `"golden"`, nth: 1, hint: `"match"`},
				{ptr: "/tasks/1/expected/kind", at: `"rubric"`, nth: 1, hint: `"rubric"`},
			}},
	})
}

func TestEV003RubricWeights(t *testing.T) {
	t.Parallel()
	tenths := strings.Repeat(`{"criterion": "c", "weight": 0.1}, `, 9) + `{"criterion": "c", "weight": 0.1}`
	runLint(t, "EV003", []lintCase{
		{name: "sums to one", kind: kinds.EvalSuite, doc: baseSuite},
		{name: "ten tenths are one within 1e-9", kind: kinds.EvalSuite,
			doc: suiteWith(`[{"criterion": "polite", "weight": 0.7}, {"criterion": "short", "weight": 0.3}]`, "["+tenths+"]")},
		{name: "short of one", kind: kinds.EvalSuite, doc: suiteWith(`"weight": 0.3`, `"weight": 0.2`),
			want: []hit{{ptr: "/tasks/1/expected/rubric", at: `[{"criterion": "polite"`, hint: "add up to 1.0"}}},
	})
}

func TestEV004ToolResponses(t *testing.T) {
	t.Parallel()
	runLint(t, "EV004", []lintCase{
		{name: "scoped", kind: kinds.EvalSuite, doc: baseSuite},
		{name: "bare tool name", kind: kinds.EvalSuite, doc: suiteWith(`"openwop:core.openwop.http.fetch"`, `"http.fetch"`),
			want: []hit{{ptr: "/tasks/1/fixtures/toolResponses/0/tool", at: `"http.fetch"`, hint: "<scope>:<tool-id>"}}},
	})
}
