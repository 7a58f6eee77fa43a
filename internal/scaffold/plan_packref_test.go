package scaffold

import (
	"encoding/json"
	"testing"

	"github.com/openwop/wopkit/internal/packref"
)

// Every file reference of a scaffolded pack.json (as packref, the one
// definition, reads them) is a clean path to a file the plan writes, so
// validate, pack and verify agree on what the scaffolded pack ships.
func TestScaffoldRefsArePlannedFiles(t *testing.T) {
	t.Parallel()
	for _, c := range packCases() {
		a := PackAnswers{}.Defaults()
		a.Name = "vendor.acme.hello"
		c.mod(&a)
		p, err := PlanPack(a, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var doc map[string]any
		if err := json.Unmarshal(p.File("pack.json").Data, &doc); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, r := range packref.Refs(doc) {
			path, err := packref.Path(r.Value)
			if err != nil {
				t.Errorf("%s: %s %q: %v", c.name, r.Pointer, r.Value, err)
				continue
			}
			if path != "" && p.File(path) == nil {
				t.Errorf("%s: %s names %q, which the plan does not write", c.name, r.Pointer, path)
			}
		}
	}
}

func TestPlanRefusesUncleanPaths(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"schemas/../schemas/a.json", "schemas//a.json", "./a.json", "../a.json"} {
		p := &Plan{Files: []File{{Path: bad}}}
		if err := p.checkPaths(); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
