package scaffold

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

// validateWritten writes p into a new directory and validates file from
// disk, strict, as `wopkit validate --strict FILE` does (with the rules
// that read the files beside it).
func validateWritten(t *testing.T, p *Plan, file string) string {
	t.Helper()
	dir := t.TempDir()
	if err := p.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	v, _ := validate.New(validate.Options{Strict: true})
	rep, err := v.Path(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range rep.Problems() {
		t.Error(pr.String())
	}
	if n := len(rep.Files); n < 1 || rep.Files[0].Kind == kinds.Unknown {
		t.Errorf("%s was not recognised: %+v", file, rep.Files)
	}
	return dir
}

// TestPlanStandaloneAgent writes a standalone agent for each option and
// validates it from disk.
func TestPlanStandaloneAgent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		mod   func(a *AgentAnswers)
		files []string
	}{
		{"defaults", func(*AgentAnswers) {}, []string{"assistant.agent.json", "prompts/assistant.md", "schemas/assistant.task.schema.json", "schemas/assistant.return.schema.json"}},
		{"inline-prompt", func(a *AgentAnswers) { a.PromptInline, a.Handoff = true, false }, []string{"assistant.agent.json"}},
		{"prompt-file", func(a *AgentAnswers) { a.PromptFile, a.Handoff = "./docs/system.md", false }, []string{"assistant.agent.json", "docs/system.md"}},
		{"writer-eval", func(a *AgentAnswers) {
			a.ID, a.ModelClass, a.Handoff, a.Confidence = "vendor.acme.writer", "writing", false, -1
			a.Memory = Memory{Scratchpad: true, LongTerm: true}
			a.ToolAllowlist = []string{"mcp:search"}
			e := EvalAnswers{}.Defaults()
			a.Eval = &e
		}, []string{"writer.agent.json", "prompts/writer.md", "evals/writer.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := AgentAnswers{}.StandaloneDefaults()
			tt.mod(&a)
			p, err := PlanStandaloneAgent(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(p.Paths(), " "); got != strings.Join(tt.files, " ") {
				t.Fatalf("files %q, want %q", got, strings.Join(tt.files, " "))
			}
			dir := validateWritten(t, p, tt.files[0])
			var m map[string]any
			b, _ := os.ReadFile(filepath.Join(dir, tt.files[0]))
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m["agentId"] != a.ID {
				t.Errorf("agentId %v, want %s", m["agentId"], a.ID)
			}
			if len(tt.files) > 1 && strings.HasSuffix(tt.files[1], ".md") && m["systemPromptRef"] != tt.files[1] {
				t.Errorf("systemPromptRef %v, want %s", m["systemPromptRef"], tt.files[1])
			}
			if a.Eval != nil {
				s, _ := os.ReadFile(filepath.Join(dir, "evals", "writer.json"))
				if !strings.Contains(string(s), `"suiteId": "vendor.acme.evals.writer"`) || !strings.Contains(string(s), `"targetAgentId": "vendor.acme.writer"`) {
					t.Errorf("eval suite:\n%s", s)
				}
			}
		})
	}
}

// TestPlanStandaloneEval writes a standalone eval suite for each option and
// validates it from disk.
func TestPlanStandaloneEval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, suite string
		mod               func(e *EvalAnswers)
	}{
		{"defaults", "my-suite.eval.json", StandaloneSuiteID, func(*EvalAnswers) {}},
		{"from-target", "writer.eval.json", "vendor.acme.evals.writer", func(e *EvalAnswers) {
			e.TargetAgentID, e.AllowedModels = "vendor.acme.writer", []string{"writing"}
		}},
		{"rubric-no-thresholds", "tone.eval.json", "community.x.evals.tone", func(e *EvalAnswers) {
			e.SuiteID, e.Modes, e.PassScore = "community.x.evals.tone", []string{"rubric", "regression"}, -1
			e.Tasks = []TaskAnswers{{ID: "polite", Input: "Reply to an angry customer.", Kind: "rubric", Criteria: []string{"polite", "concise", "correct"}}}
		}},
		{"file", "suites/s.json", StandaloneSuiteID, func(e *EvalAnswers) { e.File = "./suites/s.json" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := EvalAnswers{}.StandaloneDefaults()
			tt.mod(&e)
			p, err := PlanStandaloneEval(e, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(p.Paths(), " "); got != tt.file {
				t.Fatalf("files %q, want %q", got, tt.file)
			}
			dir := validateWritten(t, p, tt.file)
			b, _ := os.ReadFile(filepath.Join(dir, tt.file))
			if !strings.Contains(string(b), `"suiteId": "`+tt.suite+`"`) {
				t.Errorf("suite:\n%s", b)
			}
		})
	}
}

// TestStandaloneRefusals refuses bad ids with the validator's own words.
func TestStandaloneRefusals(t *testing.T) {
	v, _ := validate.New(validate.Options{Strict: true})
	words := func(k kinds.Kind, ptr string, val any) string {
		ps := v.CheckValue(k, ptr, val)
		if len(ps) == 0 {
			t.Fatalf("the validator accepts %v at %s", val, ptr)
		}
		return ps[0].Message
	}
	agent := func(mod func(a *AgentAnswers)) error {
		a := AgentAnswers{}.StandaloneDefaults()
		mod(&a)
		_, err := PlanStandaloneAgent(a, nil)
		return err
	}
	eval := func(mod func(e *EvalAnswers)) error {
		e := EvalAnswers{}.StandaloneDefaults()
		mod(&e)
		_, err := PlanStandaloneEval(e, nil)
		return err
	}
	tests := []struct {
		name, field, want string
		err               error
	}{
		{"bare agent id", "id", words(kinds.Agent, "/agentId", "assistant"), agent(func(a *AgentAnswers) { a.ID = "assistant" })},
		{"upper-case agent id", "id", words(kinds.Agent, "/agentId", "Vendor.Acme.X"), agent(func(a *AgentAnswers) { a.ID = "Vendor.Acme.X" })},
		{"empty agent id", "id", words(kinds.Agent, "/agentId", ""), agent(func(a *AgentAnswers) { a.ID = "" })},
		{"bad model class", "modelClass", words(kinds.Agent, "/modelClass", "poetry"), agent(func(a *AgentAnswers) { a.ModelClass = "poetry" })},
		{"suite id without evals", "suiteId", words(kinds.EvalSuite, "/suiteId", "vendor.acme.suite"), eval(func(e *EvalAnswers) { e.SuiteID = "vendor.acme.suite" })},
		{"empty suite id", "suiteId", words(kinds.EvalSuite, "/suiteId", ""), eval(func(e *EvalAnswers) { e.SuiteID = "" })},
		{"bad version", "version", words(kinds.EvalSuite, "/version", "1.0"), eval(func(e *EvalAnswers) { e.Version = "1.0" })},
	}
	for _, tt := range tests {
		fes, ok := tt.err.(FieldErrors)
		if !ok {
			t.Errorf("%s: error %v, want FieldErrors", tt.name, tt.err)
			continue
		}
		found := false
		for _, fe := range fes.For(tt.field) {
			found = found || fe.Message == tt.want
		}
		if !found {
			t.Errorf("%s: %v\nwant on %s: %s", tt.name, fes, tt.field, tt.want)
		}
	}
}
