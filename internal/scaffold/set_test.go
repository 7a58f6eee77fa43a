package scaffold

import (
	"reflect"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

func TestSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key, value string
		check      func(a *PackAnswers) bool
	}{
		{"name", "vendor.acme.x", func(a *PackAnswers) bool { return a.Name == "vendor.acme.x" }},
		{"runtime.language", "python", func(a *PackAnswers) bool { return a.Runtime.Language == "python" }},
		{"keywords", "a, b,,c", func(a *PackAnswers) bool { return reflect.DeepEqual(a.Keywords, []string{"a", "b", "c"}) }},
		{"nodes.0.id", "shout", func(a *PackAnswers) bool { return a.Nodes[0].ID == "shout" }},
		{"nodes.1.id", "second", func(a *PackAnswers) bool {
			return len(a.Nodes) == 2 && a.Nodes[1].ID == "second" && a.Nodes[1].Version == "0.1.0"
		}},
		{"agents.0.memory.longTerm", "true", func(a *PackAnswers) bool { return len(a.Agents) == 1 && a.Agents[0].Memory.LongTerm }},
		{"agents.0.confidence", "0.5", func(a *PackAnswers) bool { return a.Agents[0].Confidence == 0.5 }},
		{"agents.0.eval", "true", func(a *PackAnswers) bool { return a.Agents[0].Eval != nil && a.Agents[0].Eval.Version == "0.1.0" }},
		{"agents.0.eval.modes", "golden,rubric", func(a *PackAnswers) bool {
			return a.Agents[0].Eval != nil && reflect.DeepEqual(a.Agents[0].Eval.Modes, []string{"golden", "rubric"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			a := PackAnswers{}.Defaults()
			if err := Set(&a, tt.key, tt.value); err != nil {
				t.Fatal(err)
			}
			if !tt.check(&a) {
				t.Errorf("after %s=%s: %+v", tt.key, tt.value, a)
			}
		})
	}
	for _, bad := range []struct{ key, value, want string }{
		{"nmae", "x", `unknown key "nmae"`},
		{"runtime.lang", "x", `unknown key "lang"`},
		{"nodes.5.id", "x", "set index 1 first"},
		{"agents.0.handoff", "maybe", "not true or false"},
		{"agents.0.confidence", "high", "not a number"},
	} {
		a := PackAnswers{}.Defaults()
		err := Set(&a, bad.key, bad.value)
		unknown := strings.Contains(bad.want, "unknown key")
		if werr.ExitCode(err) != 2 || !strings.Contains(err.Error(), bad.want) || unknown != strings.Contains(err.Error(), "known keys: ") {
			t.Errorf("%s=%s: %v", bad.key, bad.value, err)
		}
	}
}

func TestValuesAndKeys(t *testing.T) {
	t.Parallel()
	a := ToolAnswers{}.Defaults()
	if err := Values(&a, []byte(`{"tool": {"id": "acme-search"}, "runtime": {"kind": "container"}, "env": [{"name": "K", "prompt": "Key.", "secret": true, "required": true}]}`)); err != nil {
		t.Fatal(err)
	}
	if a.Tool.ID != "acme-search" || a.Tool.Version != "0.1.0" || a.Runtime.Kind != "container" || len(a.Env) != 1 || !a.Env[0].IsSecret() {
		t.Errorf("values not merged: %+v", a)
	}
	if err := Values(&a, []byte(`{"tool": {"idd": 1}}`)); werr.ExitCode(err) != 2 {
		t.Errorf("unknown member: %v", err)
	}
	keys := strings.Join(Keys(&ToolAnswers{}), " ")
	for _, k := range []string{"tool.id", "runtime.kind", "install.method", "env.N.secret", "scopes.N.resource", "killSwitch.kind"} {
		if !strings.Contains(keys, k) {
			t.Errorf("Keys lacks %s: %s", k, keys)
		}
	}
	if keys := strings.Join(Keys(&AgentAnswers{}), " "); !strings.Contains(keys, "eval.targetAgentId") || !strings.Contains(keys, "systemPrompt") {
		t.Errorf("agent keys: %s", keys)
	}
}

// FuzzSet applies arbitrary --set keys and values and --values documents:
// they may be refused, but never panic, and accepted answers stay
// plannable or are refused with field errors.
func FuzzSet(f *testing.F) {
	for _, s := range []string{"name", "nodes.0.id", "agents.0.eval.tasks.0.criteria", "nodes..id", "agents.0", ".", "eval", "runtime.language"} {
		f.Add(s, "x,y", `{"nodes": [{"id": "a"}]}`)
	}
	f.Fuzz(func(t *testing.T, key, value, values string) {
		a := PackAnswers{}.Defaults()
		_ = Set(&a, key, value)
		_ = Values(&a, []byte(values))
		tool := ToolAnswers{}.Defaults()
		_ = Set(&tool, key, value)
		ag := AgentAnswers{}.Defaults()
		_ = Set(&ag, key, value)
		if len(a.Nodes) > 3 || len(a.Agents) > 3 {
			return
		}
		if _, err := PlanPack(a, nil); err != nil {
			if _, ok := err.(FieldErrors); !ok && werr.CodeOf(err) == "" {
				t.Fatalf("unstructured error: %v", err)
			}
		}
	})
}
