package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsonedit"
)

// setIn sets value at pointer in the JSON file p.
func setIn(t *testing.T, p, pointer string, value any) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = jsonedit.Set(b, pointer, value); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestValidateFix: the case, a version raised by hand (3 stale
// $ids, errors under --for-registry) and an unclean reference: `--fix
// --dry-run` shows the diff and writes nothing; `--fix` makes each fix,
// printed as file:line: fixed RULE: what, and exits 0 as validate then
// does; a fix that needs a choice is listed and the exit stays 1.
func TestValidateFix(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "hello")
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "name=vendor.acme.hello", "--dir", dir); code != 0 {
		t.Fatalf("new: %d %s%s", code, out, errOut)
	}
	pj := filepath.Join(dir, "pack.json")
	setIn(t, pj, "/version", "0.2.0")
	setIn(t, pj, "/nodes/0/configSchemaRef", "schemas/./hello.config.json")
	before, _ := os.ReadFile(pj)
	if _, _, code := runCmd(t, "validate", "--for-registry", dir); code != 1 {
		t.Fatalf("the broken pack validates (exit %d)", code)
	}

	if _, _, code := runCmd(t, "validate", "--dry-run", dir); code != 2 {
		t.Errorf("--dry-run without --fix: exit %d, want 2", code)
	}
	out, errOut, code := runCmd(t, "validate", "--for-registry", "--fix", "--dry-run", dir)
	if code != 1 || !strings.HasPrefix(out, "--- ") || !strings.Contains(out, `+      "configSchemaRef": "schemas/hello.config.json",`) ||
		strings.Count(out, "+++ ") != 4 || !strings.Contains(errOut, "would fix OW013") {
		t.Errorf("dry run: exit %d\n%s\n%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(pj); string(now) != string(before) {
		t.Error("the dry run wrote pack.json")
	}

	out, errOut, code = runCmd(t, "validate", "--for-registry", "--fix", dir)
	line := regexp.MustCompile(`(?m)^(\S+):(\d+): fixed (OW0\d\d): (.+)$`)
	got := line.FindAllStringSubmatch(out, -1)
	if code != 0 || len(got) != 4 {
		t.Fatalf("--fix: exit %d, %d fixes\n%s\n%s", code, len(got), out, errOut)
	}
	rules := map[string]int{}
	for _, m := range got {
		rules[m[3]]++
		if _, err := os.Stat(m[1]); err != nil {
			t.Errorf("%q names no file: %v", m[0], err)
		}
	}
	if rules["OW013"] != 3 || rules["OW016"] != 1 || !strings.Contains(out, "valid: 1 file(s), 0 error(s)") {
		t.Errorf("fixes %v\n%s", rules, out)
	}
	if _, _, code := runCmd(t, "validate", "--for-registry", dir); code != 0 {
		t.Errorf("validate after --fix: exit %d", code)
	}

	// A fix that needs a choice: an agent id without the pack's name.
	b, _ := os.ReadFile(pj)
	b, err := jsonedit.Set(b, "/agents", []map[string]any{{"agentId": "stray", "persona": "Stray", "modelClass": "general", "role": "assistant", "label": "Stray", "description": "d"}})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(pj, b, 0o644)
	out, errOut, code = runCmd(t, "validate", "--fix", dir, "--json")
	var rep struct{ Valid bool }
	if code != 1 || json.Unmarshal([]byte(out), &rep) != nil || rep.Valid || !strings.Contains(errOut, "not fixed OW003") || !strings.Contains(errOut, "choice") {
		t.Errorf("a choice: exit %d\n%s\n%s", code, out, errOut)
	}
}
