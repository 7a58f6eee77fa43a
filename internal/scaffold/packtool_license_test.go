package scaffold

import (
	"encoding/json"
	"testing"
)

// TestShippedToolTakesPackLicense (issue 35, item 5): a tool a pack ships
// is under the pack's licence unless one is given; on its own it is
// DefaultToolLicense.
func TestShippedToolTakesPackLicense(t *testing.T) {
	t.Parallel()
	license := func(p *Plan, path string) string {
		t.Helper()
		f := p.File(path)
		if f == nil {
			t.Fatalf("no %s", path)
		}
		var doc struct {
			Tool struct{ License string } `json:"tool"`
		}
		if err := json.Unmarshal(f.Data, &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Tool.License
	}
	pk := PackAnswers{}.Defaults()
	pk.License = "MIT"
	tool := ToolAnswers{}.Defaults()
	p, err := PlanPackWithTool(pk, tool, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := license(p, "tools/my-tool.tool.json"); got != "MIT" {
		t.Errorf("the tool of an MIT pack is under %q", got)
	}
	tool.Tool.License = "MPL-2.0"
	if p, err = PlanPackWithTool(pk, tool, nil); err != nil {
		t.Fatal(err)
	}
	if got := license(p, "tools/my-tool.tool.json"); got != "MPL-2.0" {
		t.Errorf("the licence given is not kept: %q", got)
	}
	if p, err = PlanTool(ToolAnswers{}.Defaults(), "", nil); err != nil {
		t.Fatal(err)
	}
	if got := license(p, "my-tool.tool.json"); got != DefaultToolLicense {
		t.Errorf("a tool on its own is under %q", got)
	}
}
