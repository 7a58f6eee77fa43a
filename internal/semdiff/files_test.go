package semdiff

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 44.4: the README's version line (ReadmeVersion), as `wopkit bump`
// rewrites it to the new version, is no change, as the $ids that follow
// the version are not; any other change to the README, or a version line
// that names another version, is still "README.md changed".
func TestReadmeVersionLineFollowingTheVersionIsQuiet(t *testing.T) {
	t.Parallel()
	readme := func(v, prose string) string {
		return "# x\n\n| | |\n|---|---|\n" + fmt.Sprintf(ReadmeVersion, v) + "\r\n\n" + prose + "\n"
	}
	mk := func(version, readmeText string) *Pack {
		return mkPack(t, packFiles(obj{"name": "acme.x", "version": version}, nil, map[string]string{"README.md": readmeText}))
	}
	old := mk("0.1.0", readme("0.1.0", "Version `0.1.0` in prose."))
	if r := Compare(old, mk("0.1.1", readme("0.1.1", "Version `0.1.0` in prose."))); len(r.Changes) != 0 || r.Required != BumpNone {
		t.Errorf("the README's version line that follows the version 0.1.0 → 0.1.1 is listed: %+v", r.Changes)
	}
	for what, n := range map[string]*Pack{
		"the prose reworded":        mk("0.1.1", readme("0.1.1", "Version `0.1.1` in prose.")),
		"a line naming another one": mk("0.1.1", readme("0.2.0", "Version `0.1.0` in prose.")),
		"a line ending changed":     mk("0.1.1", strings.Replace(readme("0.1.1", "Version `0.1.0` in prose."), "\r\n", "\n", 1)),
	} {
		if !strings.Contains(fmt.Sprint(Compare(old, n).Changes), "README.md changed") {
			t.Errorf("%s: README.md changed is not listed: %+v", what, Compare(old, n).Changes)
		}
	}
}
