package ecmare

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

type recorded struct {
	Pattern  string          `json:"pattern"`
	Why      string          `json:"why"`
	Compiles bool            `json:"compiles"`
	Match    map[string]bool `json:"match"`
}

func readRecorded(t *testing.T) []recorded {
	t.Helper()
	b, err := os.ReadFile("testdata/ajv-patterns.json")
	if err != nil {
		t.Fatal(err)
	}
	var recs []recorded
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestPatternsMatchAjv compares the engine with ajv's verdicts (recorded
// by testdata/ajv-patterns.js) on the patterns where RE2 and ECMA-262
// differ: whether the pattern compiles, and which strings it matches.
func TestPatternsMatchAjv(t *testing.T) {
	t.Parallel()
	recs := readRecorded(t)
	if len(recs) < 40 {
		t.Fatalf("%d recorded patterns, want the whole set", len(recs))
	}
	strs := 0
	for _, r := range recs {
		re, err := Compile(r.Pattern)
		if (err == nil) != r.Compiles {
			t.Errorf("%q (%s): compiles %v, ajv %v (%v)", r.Pattern, r.Why, err == nil, r.Compiles, err)
			continue
		}
		for s, want := range r.Match {
			strs++
			got, err := re.Match(s)
			if err != nil || got != want {
				t.Errorf("%q (%s) on %q: %v %v, ajv %v", r.Pattern, r.Why, s, got, err, want)
			}
		}
	}
	t.Logf("%d patterns, %d strings: the engine agrees with ajv", len(recs), strs)
}

// TestRecordedVerdictsAreAjvs runs ajv again on cases.json and checks that
// testdata/ajv-patterns.json is what it says (skips without node and npm).
func TestRecordedVerdictsAreAjvs(t *testing.T) {
	t.Parallel()
	dir := fixtures.Ajv(t)
	tmp := t.TempDir()
	for _, f := range []string{"ajv-patterns.js", "cases.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("node", filepath.Join(tmp, "ajv-patterns.js"), dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	fresh, err := os.ReadFile(filepath.Join(tmp, "ajv-patterns.json"))
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("testdata/ajv-patterns.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(fresh) != string(old) {
		t.Errorf("ajv's verdicts differ from testdata/ajv-patterns.json: run node internal/ecmare/testdata/ajv-patterns.js %s\n%s", dir, fresh)
	}
}

// TestBacktrackingIsBounded: a pattern that backtracks exponentially is
// undecided, not a hang.
func TestBacktrackingIsBounded(t *testing.T) {
	t.Parallel()
	re, err := Compile(`^(a+)+$`)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Repeat("a", 64) + "b"
	if ok, err := re.Match(s); !errors.Is(err, ErrUndecided) || ok {
		t.Errorf("Match = %v, %v; want ErrUndecided", ok, err)
	}
	if re.MatchString(s) {
		t.Error("an undecided match counted as a match")
	}
	if !Undecided(`^(a+)+$`, s) || Undecided(`^(a+)+$`, "aaa") || Undecided(`(`, "x") {
		t.Error("Undecided is wrong")
	}
	if ok, err := re.Match("aaaa"); !ok || err != nil {
		t.Errorf("a short match: %v, %v", ok, err)
	}
}

func TestCached(t *testing.T) {
	t.Parallel()
	a, err := Cached(`^x+$`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Cached(`^x+$`)
	if a != b || a.String() != `^x+$` {
		t.Error("the cache compiled twice, or lost the source")
	}
	if _, err := Cached(`(`); err == nil {
		t.Error("a broken pattern compiled")
	}
}
