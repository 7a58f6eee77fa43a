package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/werr"
)

// TestPackRefusals checks that bad answers are refused before anything is
// written, on the right answer field, in the validator's words (patterns
// explained, never a raw regular expression).
func TestPackRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, field, want string
		mod               func(a *PackAnswers)
	}{
		{"name pattern", "name", "reverse-DNS", func(a *PackAnswers) { a.Name = "Hello World" }},
		{"name scope", "name", "", func(a *PackAnswers) { a.Name = "acme.hello" }},
		{"version", "version", "", func(a *PackAnswers) { a.Version = "1.0" }},
		{"engines", "engines", "", func(a *PackAnswers) { a.Engines = "not a range !" }},
		{"license", "license", "SPDX", func(a *PackAnswers) { a.License = "Apache 2" }},
		{"homepage", "homepage", "uri", func(a *PackAnswers) { a.Homepage = "not a uri" }},
		{"category", "nodes.0.category", "", func(a *PackAnswers) { a.Nodes[0].Category = "transform" }},
		{"node version", "nodes.0.version", "", func(a *PackAnswers) { a.Nodes[0].Version = "v1" }},
		{"node id", "nodes.0.id", "", func(a *PackAnswers) { a.Nodes[0].ID = "Vendor.X" }},
		{"no nodes", "nodes", "at least one node", func(a *PackAnswers) { a.Nodes = nil }},
		{"model class", "agents.0.modelClass", "", func(a *PackAnswers) {
			ag := AgentAnswers{}.Defaults()
			ag.ModelClass = "smart"
			a.Agents = []AgentAnswers{ag}
		}},
		{"empty inline prompt", "agents.0.systemPrompt", "", func(a *PackAnswers) {
			ag := AgentAnswers{}.Defaults()
			ag.PromptInline, ag.SystemPrompt = true, ""
			a.Agents = []AgentAnswers{ag}
		}},
		{"tool allowlist", "agents.0.toolAllowlist", "", func(a *PackAnswers) {
			ag := AgentAnswers{}.Defaults()
			ag.ToolAllowlist = []string{"fetch"}
			a.Agents = []AgentAnswers{ag}
		}},
		{"confidence", "agents.0.confidence", "", func(a *PackAnswers) {
			ag := AgentAnswers{}.Defaults()
			ag.Confidence = 7
			a.Agents = []AgentAnswers{ag}
		}},
		{"eval mode", "agents.0.eval.modes", "", func(a *PackAnswers) {
			ag := AgentAnswers{}.Defaults()
			e := EvalAnswers{}.Defaults()
			e.Modes = []string{"vibes"}
			ag.Eval = &e
			a.Agents = []AgentAnswers{ag}
		}},
		{"eval allowed models", "agents.0.eval", "", func(a *PackAnswers) {
			ag := AgentAnswers{}.Defaults()
			e := EvalAnswers{}.Defaults()
			e.AllowedModels = []string{"coding"}
			ag.Eval = &e
			a.Agents = []AgentAnswers{ag}
		}},
		{"eval task id", "agents.0.eval.tasks.0.id", "", func(a *PackAnswers) {
			ag := AgentAnswers{}.Defaults()
			e := EvalAnswers{}.Defaults()
			e.Tasks[0].ID = "Not Kebab"
			ag.Eval = &e
			a.Agents = []AgentAnswers{ag}
		}},
		{"port", "nodes.0.inputs", "identifier", func(a *PackAnswers) { a.Nodes[0].Inputs = []string{"a b"} }},
		{"unknown runtime", "", "has no template", func(a *PackAnswers) { a.Runtime.Language = "cobol" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := PackAnswers{}.Defaults()
			tt.mod(&a)
			_, err := PlanPack(a, nil)
			if err == nil {
				t.Fatal("accepted")
			}
			if len(a.Check(nil)) == 0 {
				t.Error("Check finds nothing that PlanPack refuses")
			}
			if tt.field == "" {
				if !strings.Contains(err.Error(), tt.want) {
					t.Errorf("got %v, want %q", err, tt.want)
				}
				return
			}
			fes, ok := err.(FieldErrors)
			if !ok {
				t.Fatalf("got %T %v, want FieldErrors", err, err)
			}
			mine := fes.For(tt.field)
			if len(mine) == 0 {
				t.Fatalf("no problem on %s in %v", tt.field, fes)
			}
			text := mine.Error()
			if !strings.Contains(text, tt.want) {
				t.Errorf("%q does not mention %q", text, tt.want)
			}
			if strings.Contains(text, "^(") || strings.Contains(text, "[a-z]") {
				t.Errorf("raw regular expression shown: %s", text)
			}
		})
	}
}

// TestCheckField checks one value against its schema, as the wizard does on
// every keystroke.
func TestCheckField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind  kinds.Kind
		ptr   string
		value any
		ok    bool
	}{
		{kinds.NodePack, "/name", "vendor.acme.hello", true},
		{kinds.NodePack, "/name", "Hello", false},
		{kinds.NodePack, "/version", "1.2.3", true},
		{kinds.NodePack, "/version", "1.2", false},
		{kinds.Agent, "/modelClass", "writing", true},
		{kinds.Agent, "/modelClass", "poetry", false},
		{kinds.ToolManifest, "/tool/id", "gmail-yep", true},
		{kinds.ToolManifest, "/tool/id", "G", false},
	}
	for _, tt := range tests {
		errs := CheckField(nil, tt.kind, tt.ptr, tt.value)
		if (len(errs) == 0) != tt.ok {
			t.Errorf("%s %s=%v: %v", tt.kind, tt.ptr, tt.value, errs)
		}
		for _, e := range errs {
			if e.Field == "" || e.Message == "" {
				t.Errorf("%s: problem without field or message: %+v", tt.ptr, e)
			}
		}
	}
}

// TestWrite checks that Write is all or nothing and keeps existing files.
func TestWrite(t *testing.T) {
	plan := func() *Plan {
		p := &Plan{}
		p.add("a.txt", []byte("a"))
		p.add("sub/dir/b.txt", []byte("b"))
		return p
	}
	t.Run("writes", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "new")
		if err := plan().Write(dir, false); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "sub", "dir", "b.txt")); string(b) != "b" {
			t.Errorf("b.txt is %q", b)
		}
		if ms, _ := filepath.Glob(filepath.Join(dir, "*tmp*")); len(ms) > 0 {
			t.Errorf("temporary files left: %v", ms)
		}
	})
	t.Run("refuses existing files, listing them", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte("mine"), 0o644)
		err := plan().Write(dir, false)
		if werr.CodeOf(err) != "scaffold_exists" || !strings.Contains(err.Error(), "a.txt") || !strings.Contains(err.Error(), "--force") {
			t.Fatalf("got %v", err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "mine" {
			t.Error("existing file overwritten")
		}
		if _, err := os.Stat(filepath.Join(dir, "sub")); err == nil {
			t.Error("refused plan still created directories")
		}
		if err := plan().Write(dir, true); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "a" {
			t.Error("--force did not overwrite")
		}
	})
	t.Run("nothing half-written", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "sub"), []byte("a file where a directory must go"), 0o644)
		if err := plan().Write(dir, true); err == nil {
			t.Fatal("no error")
		}
		if _, err := os.Stat(filepath.Join(dir, "a.txt")); err == nil {
			t.Error("a.txt written although the plan failed")
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			t.Errorf("left behind: %v", ents)
		}
	})
	t.Run("unsafe paths", func(t *testing.T) {
		for _, bad := range []string{"../x", "/abs", "a/../../b", ""} {
			p := &Plan{Files: []File{{Path: bad, Data: []byte("x")}}}
			if err := p.Write(t.TempDir(), true); werr.CodeOf(err) != "scaffold_path_unsafe" {
				t.Errorf("%q: %v", bad, err)
			}
		}
	})
}
