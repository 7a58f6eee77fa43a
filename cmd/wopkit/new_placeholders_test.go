package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// problemLine is a problem of `validate`'s text report: its severity
// ("warning: " or none for an error) and its rule.
var problemLine = regexp.MustCompile(`^\S.*:\d+:\d+: (warning: )?.*\[([A-Za-z0-9/_-]+)\]$`)

// strictBarPlaceholders runs `validate --strict` on paths and exits 0 when
// its only problems are the placeholders a new document is written with
// (PH001: the author replaces them before publishing; the tests below
// check that --strict names them), as it exited 0 before PH001.
func strictBarPlaceholders(t *testing.T, paths ...string) (string, string, int) {
	t.Helper()
	out, errOut, code := runCmd(t, append([]string{"validate", "--strict"}, paths...)...)
	if code != 1 || !regexp.MustCompile(`\b0 error\(s\)`).MatchString(out) {
		return out, errOut, code
	}
	seen := false
	for _, l := range strings.Split(out, "\n") {
		m := problemLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[1] != "warning: " || m[2] != "PH001" {
			return out, errOut, code
		}
		seen = true
	}
	if !seen {
		return out, errOut, code
	}
	return out, errOut, 0
}

// TestNewStrictNamesPlaceholders (issue 35, item 5): what `new --yes`
// writes for the author to replace (the description, the example.com
// homepage, the template prompt of a variable) makes `validate --strict`
// fail, naming each (PH001); given real values, it passes.
func TestNewStrictNamesPlaceholders(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if out, errOut, code := runCmd(t, "new", "tool", "--yes", "--dir", dir, "--set", "tool.id=acme-search", "--set", "env.0.name=ACME_TOKEN"); code != 0 {
		t.Fatalf("new tool: exit %d\n%s%s", code, out, errOut)
	}
	f := filepath.Join(dir, "acme-search.tool.json")
	out, _, code := runCmd(t, "validate", "--strict", f)
	if code != 1 {
		t.Fatalf("validate --strict of a new tool: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"/tool/homepage", "/tool/summary", "/env/0/prompt"} {
		if !strings.Contains(out, "(at "+want+") [PH001]") {
			t.Errorf("--strict does not name the placeholder at %s:\n%s", want, out)
		}
	}
	if out, _, code := runCmd(t, "validate", f); code != 0 || strings.Contains(out, "PH001") {
		t.Errorf("without --strict: exit %d\n%s", code, out)
	}
	if out, errOut, code := runCmd(t, "new", "tool", "--yes", "--force", "--dir", dir, "--set", "tool.id=acme-search",
		"--set", "tool.homepage=https://acme.dev/search", "--set", "tool.summary=Searches Acme's catalogue."); code != 0 {
		t.Fatalf("new tool: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code := runCmd(t, "validate", "--strict", f); code != 0 {
		t.Errorf("real values: validate --strict exit %d\n%s", code, out)
	}

}

// Issue 44 item 8: `new agent --pack` writes a template description and
// system prompt (in prompts/<id>.md); validate --strict names both (PH001),
// from the one list of internal/placeholder, and passes once they are
// replaced.
func TestNewAgentPlaceholdersRefusedByStrict(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "hello")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello", "--set", "description=Says hello."); code != 0 {
		t.Fatalf("new pack: %s", errOut)
	}
	if _, errOut, code := runCmd(t, "new", "agent", "--pack", dir, "--set", "id=writer", "--set", "modelClass=writing"); code != 0 {
		t.Fatalf("new agent: %s", errOut)
	}
	out, errOut, code := runCmd(t, "validate", "--strict", dir)
	for _, want := range []string{"the description a new agent is given", "prompts/writer.md holds the template system prompt", "[PH001]"} {
		if code != 1 || !strings.Contains(out+errOut, want) {
			t.Errorf("validate --strict: exit %d, want 1 with %q:\n%s%s", code, want, out, errOut)
		}
	}
	pj := filepath.Join(dir, "pack.json")
	b, _ := os.ReadFile(pj)
	os.WriteFile(pj, []byte(strings.Replace(string(b), `"Answers the task it is given."`, `"Writes short greetings."`, 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "prompts", "writer.md"), []byte("Write a short greeting for the name in the task.\n"), 0o644)
	if out, errOut, code := runCmd(t, "validate", "--strict", dir); code != 0 {
		t.Errorf("after replacing them: exit %d\n%s%s", code, out, errOut)
	}
}
