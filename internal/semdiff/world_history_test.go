package semdiff

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/openwop/wopkit/third_party/semver"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
)

// sharedFixtures is ../shared/fixtures, or a skip: it is reference
// material beside the project, absent on a user's machine.
func sharedFixtures(t *testing.T) string {
	t.Helper()
	dir := fixtures.Dir(t)
	if _, err := os.Stat(filepath.Join(dir, "history")); err != nil {
		t.Skipf("../shared/fixtures/history is absent (%v): the real-history checks need it", err)
	}
	return dir
}

func loadT(t *testing.T, p string) *Pack {
	t.Helper()
	pk, err := Load(p, LoadOptions{})
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return pk
}

// TestRealHistory compares the two real consecutive-version pairs and
// checks the findings read by hand (see the report of issue 28):
//
//   - core.openwop.flow 1.0.1 → 1.1.0: merge.config.json gained an allOf of
//     two if/then conditions; the first makes keyPath required when mode is
//     combine-by-key, so a config {"mode": "combine-by-key"} that 1.0.1's
//     schema accepted is refused by 1.1.0's: a break a minor version hides.
//     The rest is a feature (mode "sql-query", member "sql") and fixes
//     (29 categories control → flow, README, the code, a description, $id).
//   - core.openwop.agents.react 1.0.2 → 1.0.3: the agent dropped
//     role "skill" (the Skill profile it opted into: handoff, scratchpad
//     memory); wopkit has no finer rule for role, so it is "could not prove
//     compatible". The schemas changed only in layout and $id.
func TestRealHistory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(sharedFixtures(t), "history")
	cases := []struct {
		name, old, new string
		breaking       []string // file pointer rule
		features       int
	}{
		{"core.openwop.flow", "1.0.1", "1.1.0", []string{"schemas/merge.config.json /allOf/0 " + RuleInputNarrowed}, 2},
		{"core.openwop.agents.react", "1.0.2", "1.0.3", []string{"pack.json /agents/0/role " + RuleValueChanged}, 0},
	}
	for _, tc := range cases {
		r := Compare(loadT(t, filepath.Join(dir, tc.name, tc.old+".tgz")), loadT(t, filepath.Join(dir, tc.name, tc.new+".tgz")))
		var br []string
		for _, c := range r.Breaking() {
			br = append(br, c.File+" "+c.Pointer+" "+c.Rule)
		}
		if strings.Join(br, "\n") != strings.Join(tc.breaking, "\n") {
			t.Errorf("%s: breaking changes\n%s\nwant\n%s", tc.name, strings.Join(br, "\n"), strings.Join(tc.breaking, "\n"))
		}
		features := 0
		for _, c := range r.Changes {
			if c.Level == Feature {
				features++
			}
		}
		if features != tc.features || r.Required != BumpMajor || r.VersionOK {
			t.Errorf("%s: %d features, required %s, versionOK %v; want %d, major, false", tc.name, features, r.Required, r.VersionOK, tc.features)
		}
	}
}

// fixturePacks loads every pack the shared fixtures hold: the history and
// registry tarballs, the source folders, and the v2 tree's version
// manifests (their pack.json only: the v2 slice has no tarballs).
func fixturePacks(t *testing.T) []*Pack {
	fx := sharedFixtures(t)
	var out []*Pack
	for _, glob := range []string{"history/*/*.tgz", "registry/v1/packs/*/-/*.tgz"} {
		paths, _ := filepath.Glob(filepath.Join(fx, glob))
		for _, p := range paths {
			out = append(out, loadT(t, p))
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(fx, "source-packs", "*"))
	for _, d := range dirs {
		out = append(out, loadT(t, d))
	}
	manifests, _ := filepath.Glob(filepath.Join(fx, "..", "spec-v2", "registry", "v2", "packs", "*", "-", "*.json"))
	for _, m := range manifests {
		if strings.HasSuffix(m, ".sbom.json") {
			continue
		}
		data, err := untrusted.ReadNamed(m, untrusted.MaxDocument)
		if err != nil {
			t.Fatal(err)
		}
		p, err := FromArchive(m, &tarball.Archive{Files: []tarball.File{{Header: tarball.Header{Name: "pack.json"}, Data: data}}})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		out = append(out, p)
	}
	if len(out) < 20 {
		t.Fatalf("found %d fixture packs, want at least 20", len(out))
	}
	return out
}

// TestRegistryHistory compares every pair of consecutive versions of one
// pack the fixtures hold (across history, the v1 slice, source folders
// and v2 manifests): each gives a verdict (exit 0 or 1), never an error.
// Every pack is also compared with every other (unrelated packs too):
// nothing panics, and the verdict always has words.
func TestRegistryHistory(t *testing.T) {
	t.Parallel()
	packs := fixturePacks(t)
	byName := map[string][]*Pack{}
	for _, p := range packs {
		byName[p.Name] = append(byName[p.Name], p)
	}
	pairs := 0
	for name, ps := range byName {
		sort.SliceStable(ps, func(i, j int) bool {
			a, _ := semver.NewVersion(ps[i].Version)
			b, _ := semver.NewVersion(ps[j].Version)
			return a != nil && b != nil && a.LessThan(b)
		})
		for i := 1; i < len(ps); i++ {
			if ps[i].Version == ps[i-1].Version {
				continue
			}
			r := Compare(ps[i-1], ps[i])
			pairs++
			t.Logf("%s %s → %s: %s, needs %s, %d changes (%d breaking)", name, ps[i-1].Version, ps[i].Version, map[bool]string{true: "exit 0", false: "exit 1"}[r.VersionOK], r.Required, len(r.Changes), len(r.Breaking()))
		}
	}
	if pairs < 4 {
		t.Errorf("compared %d consecutive pairs, want at least 4", pairs)
	}
	for _, a := range packs {
		for _, b := range packs {
			r := Compare(a, b)
			if r.Verdict == "" || r.Required == "" {
				t.Fatalf("%s → %s: no verdict", a.Source, b.Source)
			}
		}
	}
}

// The wizard's review note: a folder about to be written as flow 1.1.0,
// with 1.0.1 published in the checkout, says the version is too low and
// names the break; without a checkout, or with nothing published before,
// it says nothing.
func TestReviewNote(t *testing.T) {
	t.Parallel()
	fx := sharedFixtures(t)
	reg := t.TempDir()
	wk, err := os.ReadFile(filepath.Join(fx, "registry", ".well-known", "openwop-registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(reg, ".well-known"), 0o755)
	os.WriteFile(filepath.Join(reg, ".well-known", "openwop-registry.json"), wk, 0o644)
	dir := fixtures.Untar(t, filepath.Join(fx, "history", "core.openwop.flow", "1.1.0.tgz"), t.TempDir())
	if got := ReviewNote(dir, nil, ""); got != "" {
		t.Errorf("no checkout: %q", got)
	}
	if got := ReviewNote(dir, nil, reg); got != "" {
		t.Errorf("nothing published: %q", got)
	}
	published := filepath.Join(reg, "v2", "packs", "core.openwop.flow", "-")
	os.MkdirAll(published, 0o755)
	data, _ := os.ReadFile(filepath.Join(fx, "history", "core.openwop.flow", "1.0.1.tgz"))
	os.WriteFile(filepath.Join(published, "1.0.1.tgz"), data, 0o644)
	got := ReviewNote(dir, nil, reg)
	if !strings.Contains(got, "version too low for its changes since core.openwop.flow@1.0.1") || !strings.Contains(got, "1 breaking, first: node core.flow.merge config accepts less") {
		t.Errorf("note: %q", got)
	}
	// The planned files are laid over the folder: a pack.json at 2.0.0 is enough.
	pj := strings.Replace(string(fixtures.File(t, filepath.Join(fx, "history", "core.openwop.flow", "1.1.0.tgz"), "pack.json")), `"version":"1.1.0"`, `"version":"2.0.0"`, 1)
	if got := ReviewNote(dir, map[string][]byte{"pack.json": []byte(pj)}, reg); !strings.HasPrefix(got, "compared with core.openwop.flow@1.0.1: 1.0.1 → 2.0.0 is a major bump") {
		t.Errorf("2.0.0: %q", got)
	}
}
