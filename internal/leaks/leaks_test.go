package leaks

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuleFileIsGitleaks: gitleaks.toml is gitleaks' own, unchanged, and
// the embedded JSON was made from it.
func TestRuleFileIsGitleaks(t *testing.T) {
	t.Parallel()
	toml, err := os.ReadFile("gitleaks.toml")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(toml)
	if got := hex.EncodeToString(sum[:]); got != GitleaksSHA256 {
		t.Errorf("gitleaks.toml has sha256 %s, not the %s of gitleaks %s: replace it with that release's config/gitleaks.toml and update both constants", got, GitleaksSHA256, GitleaksVersion)
	}
	cfg, err := parseConfig(gitleaksJSON)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(toml, []byte("\n[[rules]]\n")); len(cfg.Rules) != n || n < 200 {
		t.Errorf("gitleaks.json has %d rules, gitleaks.toml %d: run go generate ./internal/leaks", len(cfg.Rules), n)
	}
	if _, err := parseConfig(bytes.Replace(gitleaksJSON, []byte(GitleaksSHA256), []byte(strings.Repeat("0", 64)), 1)); err == nil {
		t.Error("rules made from another gitleaks.toml are read")
	}
}

// TestRuleFileIsConverted: gitleaks.json is what the converter makes of
// gitleaks.toml today (Python's tomllib reads the TOML: an independent
// reader), byte for byte.
func TestRuleFileIsConverted(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the converter (scripts/gitleaks-rules.py) needs it")
	}
	if exec.Command(py, "-c", "import tomllib").Run() != nil {
		t.Skip("python3 has no tomllib (3.11 or later): the converter needs it")
	}
	out := filepath.Join(t.TempDir(), "gitleaks.json")
	if msg, err := exec.Command(py, filepath.Join("..", "..", "scripts", "gitleaks-rules.py"), "gitleaks.toml", out).CombinedOutput(); err != nil {
		t.Fatalf("converter: %v %s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, gitleaksJSON) {
		t.Error("gitleaks.json is not the conversion of gitleaks.toml: run go generate ./internal/leaks")
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
	cfg, _ := parseConfig(gitleaksJSON)
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
