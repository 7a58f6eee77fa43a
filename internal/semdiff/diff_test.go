package semdiff

import "testing"

// Issue 42.5: the capability side-effectful gained is a requirement on
// every host (hosts stop caching the node and enforce idempotency):
// breaking; lost, a feature. Other capabilities stay offers.
func TestSideEffectful(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		old, new    arr
		rule        string
		level       Level
		otherChange bool
	}{
		{arr{"cacheable"}, arr{"cacheable", "side-effectful"}, RuleRequirementAdded, Breaking, false},
		{arr{"side-effectful"}, arr{}, RuleRequirementDrop, Feature, false},
		{arr{"side-effectful"}, arr{"side-effectful", "streamable"}, RuleOfferAdded, Feature, false},
	} {
		om, nm := base(), base()
		at(om, "/nodes/0")["capabilities"], at(nm, "/nodes/0")["capabilities"] = tc.old, tc.new
		nm["version"] = "1.0.1"
		r := Compare(mkPack(t, packFiles(om, schemas(), nil)), mkPack(t, packFiles(nm, schemas(), nil)))
		if len(r.Changes) != 1 || r.Changes[0].Rule != tc.rule || r.Changes[0].Level != tc.level {
			t.Errorf("%v → %v: %+v, want one %s %s", tc.old, tc.new, r.Changes, tc.level, tc.rule)
		}
	}
}
