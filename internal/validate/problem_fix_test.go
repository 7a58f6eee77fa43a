package validate

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/openwop/wopkit/internal/jsonedit"
)

// TestProblemsCarryTheirFix: a rule whose fix is mechanical puts it on the
// problem as edits (the language server offers them knowing nothing of the
// rule); applied, the problem is gone.
func TestProblemsCarryTheirFix(t *testing.T) {
	t.Parallel()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	tool := `{
  "manifest_version": "0.4",
  "tool": {"id": "demo-tool", "version": "1.0.0", "name": "Demo", "summary": "A demo tool.", "homepage": "https://example.com/demo"},
  "runtime": {"kind": "shell-binary", "install": {"method": "preinstalled", "locator": {"kind": "binary-on-path", "binary": "demo"}},
    "entrypoint": {"command": ["demo"]}},
  "scopes": [{"resource": "net.outbound", "actions": ["read"], "rationale": "Calls the demo API."}],
  "actions": [{"name": "lookup", "summary": "Look a thing up.", "invocation": {"kind": "subcommand", "argv_template": ["lookup"]},
     "input": {"type": "object"}, "side_effects": "read", "scopes_used": ["net.outbound"]}],
  "smoke": {"kind": "action-call", "action": "lookup", "arguments": {}, "success": {"exit_code": 0}},
  "verify": {"suite": {"ref": "cases.jsonl", "format": "jsonl-cases", "case_count": 3}},
  "kill_switch": {"kind": "manual", "instructions": "Revoke the token."}
}`
	fsys := fstest.MapFS{"cases.jsonl": {Data: []byte("{\"a\":1}\n\n{\"a\":2}\n")}}
	check := func(data string) *Problem {
		rep := v.Document("demo.tool.json", fsys, []byte(data))
		for _, f := range rep.Files {
			for _, ps := range [][]Problem{f.Errors, f.Warnings} {
				for i := range ps {
					if ps[i].Rule == "IM005" {
						return &ps[i]
					}
				}
			}
		}
		return nil
	}
	p := check(tool)
	if p == nil || p.Fix == nil {
		t.Fatalf("IM005 without its fix: %+v", p)
	}
	if p.Fix.Title != "Set case_count to 2" || len(p.Fix.Edits) != 1 || p.Fix.Edits[0].Pointer != "/verify/suite/case_count" {
		t.Fatalf("IM005's fix: %+v", p.Fix)
	}
	e := p.Fix.Edits[0]
	fixed, err := jsonedit.Set([]byte(tool), e.Pointer, e.Value)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Verify struct {
			Suite struct {
				CaseCount int `json:"case_count"`
			} `json:"suite"`
		} `json:"verify"`
	}
	if err := json.Unmarshal(fixed, &doc); err != nil || doc.Verify.Suite.CaseCount != 2 {
		t.Fatalf("the fixed manifest: %v %s", err, fixed)
	}
	if p := check(string(fixed)); p != nil {
		t.Errorf("IM005 still reported after its fix: %s", p.Message)
	}
}
