package pack

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/leaks"
)

// gitleaksExample is one example string of a gitleaks rule, with what
// gitleaks' own detector reports in it (internal/leaks/testdata/
// gitleaks-examples.sh writes them).
type gitleaksExample struct {
	Rule     string   `json:"rule"`
	TP       bool     `json:"tp"`
	Path     string   `json:"path"`
	Text     string   `json:"text"`
	Gitleaks []string `json:"gitleaks"`
}

func readGitleaksExamples(t *testing.T) []gitleaksExample {
	data, err := os.ReadFile("../leaks/testdata/gitleaks-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var ex []gitleaksExample
	if err := json.Unmarshal(data, &ex); err != nil {
		t.Fatal(err)
	}
	return ex
}

// TestGitleaksExamples is the oracle: every default rule's own examples
// (gitleaks v8.30.1's tps and fps) scanned as pack scans a file, and the
// verdict held to gitleaks' own on the same string. A true positive is
// refused; a false positive packs, unless gitleaks itself reports another
// rule in it. The rules wopkit does not run (leaks' skipped:
// generic-api-key, pkcs12-file) are left out, their own examples and the
// findings of theirs in others'. One difference is wopkit's on purpose: a
// PEM private key block is refused however short its body (gitleaks'
// private-key wants 64 bytes of it): pemStricter counts those.
func TestGitleaksExamples(t *testing.T) {
	t.Parallel()
	ex := readGitleaksExamples(t)
	skipped := []string{"generic-api-key", "pkcs12-file"}
	rules := map[string]bool{}
	var tps, fps, pemStricter int
	for _, e := range ex {
		rules[e.Rule] = true
		if slices.Contains(skipped, e.Rule) {
			continue
		}
		found := slices.DeleteFunc(slices.Clone(e.Gitleaks), func(id string) bool { return slices.Contains(skipped, id) })
		want := len(found) > 0
		if e.TP && !slices.Contains(e.Gitleaks, e.Rule) {
			t.Errorf("%s: gitleaks does not report its own true positive %q (regenerate the examples)", e.Rule, e.Text)
		}
		what, err := scanSecrets(strings.NewReader(e.Text), e.Path, newScanBudget())
		if err != nil {
			t.Fatalf("%s %q: %v", e.Rule, e.Text, err)
		}
		switch got := what != ""; {
		case got && !want && strings.HasPrefix(what, "a PEM ") && strings.Contains(what, "PRIVATE KEY"):
			pemStricter++
		case got && !want:
			t.Errorf("%s false positive %q (path %q) refused as %s; gitleaks reports nothing", e.Rule, e.Text, e.Path, what)
		case !got && want:
			t.Errorf("%s example %q (path %q, tp %v) packs; gitleaks reports %v", e.Rule, e.Text, e.Path, e.TP, found)
		}
		if e.TP {
			tps++
		} else {
			fps++
		}
	}
	set, _ := leaks.Default()
	for _, r := range set.Rules {
		// gitleaks' two Dropbox token rules validate no examples.
		if !strings.HasPrefix(r.ID, "wopkit-") && !rules[r.ID] && !strings.HasPrefix(r.ID, "dropbox-") {
			t.Errorf("rule %s has no examples", r.ID)
		}
	}
	if tps < 6000 || fps < 290 || pemStricter > 2 {
		t.Errorf("%d true and %d false positives", tps, fps)
	}
	t.Logf("%d true positives refused, %d false positives as gitleaks (%d PEM key blocks refused), over %d rules", tps, fps, pemStricter, len(rules))
}
