package tui

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestE2ELanesRunEveryScenario: the terminal test's default lanes run
// every scenario the script knows (its E2E_ONLY cases) at least once, and
// each size the full matrix checks a layout at; the full lanes
// (WOPKIT_E2E=full) hold every default run and every scenario too. A
// scenario added to the script and to no lane, or dropped from the default
// run, fails here.
func TestE2ELanesRunEveryScenario(t *testing.T) {
	script, err := os.ReadFile("../../scripts/tui-e2e.sh")
	if err != nil {
		t.Fatal(err)
	}
	var scenarios []string
	for _, m := range regexp.MustCompile(`(?m)^([a-z]+)\) `).FindAllSubmatch(script, -1) {
		scenarios = append(scenarios, string(m[1]))
	}
	if len(scenarios) < 10 {
		t.Fatalf("found %d scenarios in the script's case (%v): has its form changed?", len(scenarios), scenarios)
	}
	runs := func(ls [][]e2eRun) (all []e2eRun) {
		for _, l := range ls {
			all = append(all, l...)
		}
		return all
	}
	def, full := runs(lanes), runs(fullLanes)
	for _, sc := range scenarios {
		for name, rs := range map[string][]e2eRun{"default": def, "full": full} {
			if !slices.ContainsFunc(rs, func(r e2eRun) bool { return r.only == sc }) {
				t.Errorf("scenario %q is in no %s lane", sc, name)
			}
		}
	}
	sizes := map[string]bool{}
	for _, r := range full {
		if r.sizes != "" {
			sizes[r.sizes] = true
		}
	}
	for size := range sizes {
		if !slices.ContainsFunc(def, func(r e2eRun) bool { return r.sizes == size }) {
			t.Errorf("no default run is at %s, which the full lanes check", size)
		}
	}
	for _, r := range def {
		if !slices.Contains(full, r) {
			t.Errorf("the default run %+v is not in the full lanes", r)
		}
		if n := len(slices.DeleteFunc(slices.Clone(def), func(o e2eRun) bool { return o != r })); n > 1 {
			t.Errorf("the default run %+v is in %d lanes", r, n)
		}
	}
}
