package semdiff

import (
	"strings"
	"testing"
)

// engineChanges compares base() with its engines range changed.
func engineChanges(t *testing.T, o, n string) []Change {
	t.Helper()
	om, nm := base(), base()
	om["engines"], nm["engines"] = obj{"openwop": o}, obj{"openwop": n}
	nm["version"] = "1.0.1"
	return Compare(mkPack(t, packFiles(om, schemas(), nil)), mkPack(t, packFiles(nm, schemas(), nil))).Changes
}

// Issue 42.5: ranges are probed with pre-releases (each range's own, and
// X.Y.Z-0 of each probe), and a changed range no probe separates is
// "could not prove", never silence.
func TestRangesProbedWithPreReleases(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ old, new, rule, words string }{
		{">=2.0.0-0 <3.0.0", ">=2.0.0 <3.0.0", RuleRangeNarrowed, "2.0.0-0 is no longer admitted"},
		{">=2.0.0-beta.2", ">=2.0.0-beta.3", RuleRangeNarrowed, "2.0.0-beta.2 is no longer admitted"},
		{">=2.0.0 <3.0.0", ">=2.0.0-rc.1 <3.0.0", RuleRangeWidened, "2.0.0-rc.1 is now admitted"},
		{"<5.5.5 || >=5.5.7", "<5.5.5 || >5.5.6", RuleRangeNarrowed, "could not prove compatible"},
	} {
		got := engineChanges(t, tc.old, tc.new)
		if len(got) != 1 || got[0].Rule != tc.rule || !strings.Contains(got[0].Message, tc.words) {
			t.Errorf("%q → %q: %+v, want %s saying %q", tc.old, tc.new, got, tc.rule, tc.words)
		}
	}
	if got := engineChanges(t, ">=1.0.0 <3.0.0", ">= 1.0.0 < 3.0.0"); len(got) != 0 {
		t.Errorf("the same range spelled otherwise: %+v", got)
	}
}
