package leaks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// TestRuleFileIsGitleaks: the embedded file is gitleaks' own, unchanged.
func TestRuleFileIsGitleaks(t *testing.T) {
	t.Parallel()
	sum := sha256.Sum256([]byte(gitleaksTOML))
	if got := hex.EncodeToString(sum[:]); got != GitleaksSHA256 {
		t.Errorf("gitleaks.toml has sha256 %s, not the %s of gitleaks %s: replace it with that release's config/gitleaks.toml and update both constants", got, GitleaksSHA256, GitleaksVersion)
	}
}

// TestParseConfigAgreesWithTomllib reads the rule file with Python's
// tomllib (an independent TOML reader) and compares.
func TestParseConfigAgreesWithTomllib(t *testing.T) {
	t.Parallel()
	cfg, err := parseConfig(gitleaksTOML)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(gitleaksTOML, "\n[[rules]]\n"); len(cfg.Rules) != n || n < 200 {
		t.Errorf("%d rules read, the file has %d", len(cfg.Rules), n)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the comparison with tomllib needs it")
	}
	cmd := exec.Command(py, "-c", "import sys,json,tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))")
	cmd.Stdin = strings.NewReader(gitleaksTOML)
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("python3 has no tomllib (3.11 or later): %v", err)
	}
	var want struct {
		Title      string
		MinVersion string `json:"minVersion"`
		Allowlist  map[string]any
		Rules      []map[string]any
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	if want.Title != cfg.Title || want.MinVersion != cfg.MinVersion || len(want.Rules) != len(cfg.Rules) {
		t.Fatalf("title %q/%q, minVersion %q/%q, %d/%d rules", cfg.Title, want.Title, cfg.MinVersion, want.MinVersion, len(cfg.Rules), len(want.Rules))
	}
	strs := func(v any) []string {
		var out []string
		for _, s := range v.([]any) {
			out = append(out, s.(string))
		}
		return out
	}
	num := func(v any) float64 {
		f, _ := v.(float64)
		return f
	}
	alOf := func(m map[string]any) fileAllowlist {
		a := fileAllowlist{}
		a.Description, _ = m["description"].(string)
		a.Condition, _ = m["condition"].(string)
		a.RegexTarget, _ = m["regexTarget"].(string)
		if v, ok := m["regexes"]; ok {
			a.Regexes = strs(v)
		}
		if v, ok := m["paths"]; ok {
			a.Paths = strs(v)
		}
		if v, ok := m["stopwords"]; ok {
			a.StopWords = strs(v)
		}
		return a
	}
	if g := alOf(want.Allowlist); !reflect.DeepEqual(g, cfg.Allowlist) {
		t.Errorf("global allowlist differs")
	}
	for i, m := range want.Rules {
		w := fileRule{SecretGroup: int(num(m["secretGroup"])), Entropy: num(m["entropy"])}
		w.ID, _ = m["id"].(string)
		w.Description, _ = m["description"].(string)
		w.Regex, _ = m["regex"].(string)
		w.Path, _ = m["path"].(string)
		if v, ok := m["keywords"]; ok {
			w.Keywords = strs(v)
		}
		if v, ok := m["allowlists"]; ok {
			for _, a := range v.([]any) {
				w.Allowlists = append(w.Allowlists, alOf(a.(map[string]any)))
			}
		}
		if !reflect.DeepEqual(w, cfg.Rules[i]) {
			t.Errorf("rule %d (%s) differs:\n got %+v\nwant %+v", i, w.ID, cfg.Rules[i], w)
		}
	}
}

// TestDefaultCompiles: every rule compiles; the skipped ones are gitleaks'.
func TestDefaultCompiles(t *testing.T) {
	t.Parallel()
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rules) < 220 {
		t.Errorf("%d rules", len(s.Rules))
	}
	cfg, _ := parseConfig(gitleaksTOML)
	for _, id := range skipped[:] {
		found := false
		for _, r := range cfg.Rules {
			found = found || r.ID == id
		}
		if !found {
			t.Errorf("skipped lists %s, which gitleaks %s does not have", id, GitleaksVersion)
		}
	}
}
