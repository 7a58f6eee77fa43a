package scaffold

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

// toolOptions are the option variants crossed with every kind and method.
var toolOptions = []struct {
	name string
	mod  func(a *ToolAnswers)
	kill string // expected kill_switch.kind
}{
	{"defaults", func(*ToolAnswers) {}, "none"},
	{"secret-env-private-scope", func(a *ToolAnswers) {
		a.Env = []EnvAnswers{{Name: "API_TOKEN", Prompt: "Your API token.", Secret: new(true), Required: true}}
		a.Scopes = []ScopeAnswers{{Resource: "gmail.messages", Actions: []string{"read", "send"}, Rationale: "Reads and sends mail.", Sensitivity: "high"}}
		a.Actions[0].ScopesUsed = []string{"gmail.messages"}
		a.Actions = append(a.Actions, ActionAnswer{Name: "send_mail", Summary: "Sends a message.", SideEffects: "destructive", Inputs: []string{"to", "body"}, ScopesUsed: []string{"gmail.messages"}})
	}, "manual"},
	{"public-scope-namespace", func(a *ToolAnswers) {
		a.Tool.Namespace = "acme"
		a.Scopes = []ScopeAnswers{{Resource: "net.outbound", Actions: []string{"execute"}, Rationale: "Calls the search API."}}
	}, "none"},
	{"kill-url", func(a *ToolAnswers) { a.KillSwitch.Kind, a.KillSwitch.URL = "url", "https://acme.dev/tools/revoke" }, "url"},
	{"kill-shell", func(a *ToolAnswers) { a.KillSwitch = KillSwitch{Kind: "shell", Command: "my-tool revoke"} }, "shell"},
	{"kill-manual", func(a *ToolAnswers) { a.KillSwitch.Kind = "manual" }, "manual"},
	{"smoke-shell", func(a *ToolAnswers) { a.Smoke.Kind = "shell" }, "none"},
	{"smoke-http", func(a *ToolAnswers) { a.Smoke = SmokeAnswers{Kind: "http", Target: "https://example.com/health"} }, "none"},
}

// TestToolCombinations writes a manifest for every runtime kind x install
// method x option and validates each from disk, strict.
func TestToolCombinations(t *testing.T) {
	t.Parallel()
	v, _ := validate.New(validate.Options{Strict: true})
	dir := t.TempDir()
	for _, kind := range ToolKinds {
		for _, method := range InstallMethods {
			for _, o := range toolOptions {
				name := kind + "/" + method + "/" + o.name
				t.Run(name, func(t *testing.T) {
					a := ToolAnswers{}.Defaults()
					a.Tool.ID = strings.ReplaceAll(kind+"-"+method+"-"+o.name, "_", "-")
					a.Runtime.Kind, a.Install.Method = kind, method
					o.mod(&a)
					p, err := PlanTool(a, "", nil)
					if err != nil {
						t.Fatalf("plan: %v", err)
					}
					if err := p.Write(dir, false); err != nil {
						t.Fatal(err)
					}
					file := filepath.Join(dir, p.Files[0].Path)
					rep, err := v.Path(file)
					if err != nil {
						t.Fatal(err)
					}
					for _, pr := range rep.Problems() {
						t.Error(pr.String())
					}
					var m struct {
						Version string                `json:"manifest_version"`
						Kill    struct{ Kind string } `json:"kill_switch"`
						Runtime struct {
							Install struct{ Method string }
						}
					}
					b, _ := os.ReadFile(file)
					if err := json.Unmarshal(b, &m); err != nil {
						t.Fatal(err)
					}
					if m.Version != "0.4" || m.Kill.Kind != o.kill || m.Runtime.Install.Method != method {
						t.Errorf("manifest_version %q, kill_switch %q, method %q; want 0.4, %q, %q", m.Version, m.Kill.Kind, m.Runtime.Install.Method, o.kill, method)
					}
				})
			}
		}
	}
}

// TestToolRefusals checks that bad answers are refused with the validator's
// words, mapped to the answer to change.
func TestToolRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, field, want string
		mod               func(a *ToolAnswers)
	}{
		{"bad id", "tool.id", "lower-case letters", func(a *ToolAnswers) { a.Tool.ID = "Bad_ID" }},
		{"dishonest kill switch", "killSwitch.kind", "kill_switch", func(a *ToolAnswers) {
			a.KillSwitch.Kind = "none"
			a.Env = []EnvAnswers{{Name: "TOKEN", Prompt: "Token.", Secret: new(true), Required: true}}
		}},
		{"no safe action for an action-call smoke test", "smoke.kind", "no action without side effects", func(a *ToolAnswers) {
			a.Runtime.Kind = "python-module"
			a.Actions[0].SideEffects = "write"
			a.Smoke.Kind = "action-call"
		}},
		{"action-based kind without actions", "actions", "actions", func(a *ToolAnswers) {
			a.Runtime.Kind = "shell-binary"
			a.Actions = nil
			a.Smoke.Kind = "shell"
		}},
		{"undeclared scope", "actions.0.scopesUsed.0", "does not declare", func(a *ToolAnswers) { a.Actions[0].ScopesUsed = []string{"fs.local"} }},
		{"bad homepage", "tool.homepage", "uri", func(a *ToolAnswers) { a.Tool.Homepage = "not a uri" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ToolAnswers{}.Defaults()
			tt.mod(&a)
			_, err := PlanTool(a, "", nil)
			fes, ok := err.(FieldErrors)
			if !ok {
				t.Fatalf("got %v, want FieldErrors", err)
			}
			found := false
			for _, fe := range fes {
				if strings.Contains(fe.Message+fe.Hint, tt.want) && (tt.field == "" || fe.Field == tt.field) {
					found = true
				}
			}
			if !found {
				t.Errorf("no problem on %q mentioning %q in %v", tt.field, tt.want, fes)
			}
		})
	}
}

// TestUpgradeGmail upgrades the real v0.3 fixture: the result is a valid
// v0.4 manifest and differs from the original only in the version line.
func TestUpgradeGmail(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(fixtures.Path(t, "tool-manifests", "gmail.v0.3.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, already, err := UpgradeTool(src, "gmail.v0.3.json")
	if err != nil || already {
		t.Fatalf("upgrade: %v (already %v)", err, already)
	}
	a, b := lines(src), lines(out)
	if len(a) != len(b) {
		t.Fatalf("line count changed: %d -> %d", len(a), len(b))
	}
	var diff []string
	for i := range a {
		if a[i] != b[i] {
			diff = append(diff, a[i]+" -> "+b[i])
		}
	}
	if len(diff) != 1 || diff[0] != `  "manifest_version": "0.3", ->   "manifest_version": "0.4",` {
		t.Errorf("diff is %q, want only the version line", diff)
	}
	v, _ := validate.New(validate.Options{Strict: true})
	if rep := v.Bytes("gmail.json", out, kinds.ToolManifest); !rep.Valid {
		t.Errorf("upgraded manifest invalid: %v", rep.Problems())
	}
	if _, already, _ := UpgradeTool(out, "x"); !already {
		t.Error("a 0.4 manifest is not reported as already upgraded")
	}
	for _, bad := range []string{`{"manifest_version": "0.2"}`, `{"tool": {}}`, `[1]`, `{`} {
		if _, _, err := UpgradeTool([]byte(bad), "x"); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func lines(b []byte) []string {
	var out []string
	s := bufio.NewScanner(bytes.NewReader(b))
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		out = append(out, s.Text())
	}
	return out
}

// TestSmokeCallsNoSideEffects (issue 17, bug 4): the action a smoke test
// calls is the first of the current answers without side effects; an
// action-call chosen without a target calls it; with none, the derived
// test runs the entrypoint instead of an action that changes something.
func TestSmokeCallsNoSideEffects(t *testing.T) {
	t.Parallel()
	v, _ := validate.New(validate.Options{Strict: true})
	send := ActionAnswer{Name: "send_mail", Summary: "Sends a message.", SideEffects: "write", Inputs: []string{"to"}}
	list := ActionAnswer{Name: "list_mail", Summary: "Lists the inbox.", SideEffects: "read", Inputs: []string{"folder"}}
	tests := []struct {
		name, kind, smoke string
		actions           []ActionAnswer
		want              smokeDoc
	}{
		{"mcp, derived", "mcp-stdio", "", []ActionAnswer{send, list}, smokeDoc{Kind: "mcp-tool-call", ToolName: "list_mail"}},
		{"mcp, only side effects", "mcp-stdio", "", []ActionAnswer{send}, smokeDoc{Kind: "shell"}},
		{"mcp, action-call", "mcp-stdio", "action-call", []ActionAnswer{send, list}, smokeDoc{Kind: "action-call", Action: "list_mail"}},
		{"python, derived", "python-module", "", []ActionAnswer{send, list}, smokeDoc{Kind: "action-call", Action: "list_mail"}},
		{"python, action-call", "python-module", "action-call", []ActionAnswer{send, list}, smokeDoc{Kind: "action-call", Action: "list_mail"}},
		{"python, only side effects", "python-module", "", []ActionAnswer{send}, smokeDoc{Kind: "shell"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ToolAnswers{}.Defaults()
			a.Runtime.Kind, a.Actions, a.Smoke.Kind = tt.kind, tt.actions, tt.smoke
			p, err := PlanTool(a, "", v)
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			var doc struct {
				Smoke smokeDoc `json:"smoke"`
			}
			if err := json.Unmarshal(p.Files[0].Data, &doc); err != nil {
				t.Fatal(err)
			}
			got := doc.Smoke
			if got.Kind != tt.want.Kind || got.Action != tt.want.Action || got.ToolName != tt.want.ToolName {
				t.Errorf("smoke: %+v, want %+v", got, tt.want)
			}
			if got.Action != "" && got.Arguments["folder"] == "" {
				t.Errorf("the call lacks its input: %+v", got)
			}
			if what, ok := a.SmokeTest(); !ok || strings.Contains(what, "send_mail") {
				t.Errorf("SmokeTest: %q %v", what, ok)
			}
		})
	}
	a := ToolAnswers{}.Defaults()
	a.Actions = []ActionAnswer{send, list}
	cs := a.SmokeChoices()
	if len(cs) != 2 || cs[0].Value != Derived || cs[0].About != "from the answers: call the MCP tool list_mail (no side effects)" ||
		cs[1].About != "call the action list_mail (no side effects)" {
		t.Errorf("SmokeChoices: %+v", cs)
	}
}

// Issue 25, item 3: a kill switch that points nowhere is refused, on the
// field that gives it: url without its address (it took the placeholder
// homepage https://example.com/tools/<id>) or with a placeholder, shell
// without its command. Item 6: a scope's sensitivity given is written to
// data_boundary.reads even when the resource does not look private.
func TestKillSwitchPointsSomewhere(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, field string
		set         func(a *ToolAnswers)
	}{
		{"url without address", "killSwitch.url", func(a *ToolAnswers) { a.KillSwitch.Kind = "url" }},
		{"url placeholder", "killSwitch.url", func(a *ToolAnswers) { a.KillSwitch.Kind, a.KillSwitch.URL = "url", "https://example.com/x" }},
		{"url .example", "killSwitch.url", func(a *ToolAnswers) { a.KillSwitch.Kind, a.KillSwitch.URL = "url", "https://revoke.acme.example/" }},
		{"shell without command", "killSwitch.command", func(a *ToolAnswers) { a.KillSwitch.Kind = "shell" }},
	} {
		a := ToolAnswers{}.Defaults()
		tt.set(&a)
		_, err := PlanTool(a, "", nil)
		var fes FieldErrors
		if !errors.As(err, &fes) || len(fes) == 0 || fes[0].Field != tt.field {
			t.Errorf("%s: %v, want a problem on %s", tt.name, err, tt.field)
		}
	}
	a := ToolAnswers{}.Defaults()
	a.KillSwitch.Kind, a.KillSwitch.Command = "shell", "acme-tool revoke --all"
	p, err := PlanTool(a, "", nil)
	if err != nil || !strings.Contains(string(p.Files[0].Data), `"acme-tool"`) {
		t.Fatalf("a shell kill switch with its command: %v", err)
	}
	a = ToolAnswers{}.Defaults()
	a.Scopes = []ScopeAnswers{NewScope(0)}
	a.Scopes[0].Sensitivity = "high"
	p, err = PlanTool(a, "", nil)
	if err != nil || !strings.Contains(string(p.Files[0].Data), `"sensitivity": "high"`) {
		t.Errorf("the sensitivity given is not written (%v)", err)
	}
}
