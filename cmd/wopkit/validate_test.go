package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const agentOK = `{
  "agentId": "vendor.acme.hello.writer",
  "persona": "Writer",
  "modelClass": "writing",
  "systemPrompt": "You write."
}
`

func TestValidateExitCodesAndText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeFile(t, dir, "good.agent.json", agentOK)
	bad := writeFile(t, dir, "bad.agent.json", strings.Replace(agentOK, `"persona"`, "\"role\": \"skill\",\n  \"persona\"", 1))
	broken := writeFile(t, dir, "broken.json", "{\n  \"agentId\": \"x\",\n}\n")

	if out, _, code := runCmd(t, "validate", good); code != 0 || !strings.Contains(out, "valid: 1 file(s), 0 error(s)") {
		t.Errorf("good: code %d\n%s", code, out)
	}
	out, _, code := runCmd(t, "validate", bad)
	if code != 1 || !strings.Contains(out, "bad.agent.json:3:3: property `role` is not allowed here (at /agents/0/role)") &&
		!strings.Contains(out, "bad.agent.json:3:3: property `role` is not allowed here (at /role) [schema/additionalProperties]") {
		t.Errorf("bad: code %d\n%s", code, out)
	}
	if out, _, code := runCmd(t, "validate", broken); code != 1 || !strings.Contains(out, "broken.json:2:17: trailing comma") {
		t.Errorf("broken: code %d\n%s", code, out)
	}
	if _, _, code := runCmd(t, "validate", filepath.Join(dir, "absent.json")); code != 3 {
		t.Errorf("absent file: code %d, want 3", code)
	}
	if _, errOut, code := runCmd(t, "validate", "--kind", "nonsense", good); code != 2 || !strings.Contains(errOut, "unknown --kind") {
		t.Errorf("bad --kind: code %d %s", code, errOut)
	}
	if _, _, code := runCmd(t, "validate", "--no-such-flag"); code != 2 {
		t.Errorf("unknown flag: code %d, want 2", code)
	}
	if _, errOut, code := runCmd(t, "validate", dir); code != 1 || !strings.Contains(errOut, "has no pack.json") {
		t.Errorf("dir without pack.json: code %d %s", code, errOut)
	}
}

func TestValidateJSONShape(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.agent.json", strings.Replace(agentOK, `"writing"`, `"poetry"`, 1))
	out, _, code := runCmd(t, "validate", "--json", bad)
	if code != 1 {
		t.Fatalf("code %d", code)
	}
	var rep struct {
		Valid bool `json:"valid"`
		Files []struct {
			Path     string           `json:"path"`
			Kind     string           `json:"kind"`
			Valid    bool             `json:"valid"`
			Errors   []map[string]any `json:"errors"`
			Warnings []map[string]any `json:"warnings"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Valid || len(rep.Files) != 1 || rep.Files[0].Kind != "agent" || rep.Files[0].Valid || rep.Files[0].Warnings == nil {
		t.Fatalf("shape: %s", out)
	}
	e := rep.Files[0].Errors[0]
	for k, want := range map[string]any{"pointer": "/modelClass", "line": 4.0, "column": 17.0, "rule": "schema/enum", "severity": "error"} {
		if e[k] != want {
			t.Errorf("%s = %v, want %v", k, e[k], want)
		}
	}
	if !strings.Contains(e["message"].(string), `"poetry"`) {
		t.Errorf("message %q", e["message"])
	}
}

func TestValidateStrictAndRules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// core.* is reserved: a warning, which --strict turns into a failure.
	writeFile(t, dir, "pack.json", `{"name":"core.acme.hello","version":"1.0.0","engines":{"openwop":">=1.0.0 <2.0.0"},
 "runtime":{"language":"remote","entry":"pack.json"},
 "agents":[{"agentId":"core.acme.hello.w","persona":"W","modelClass":"writing","systemPrompt":"x"}]}`)
	if out, _, code := runCmd(t, "validate", dir); code != 0 || !strings.Contains(out, "[OW008]") {
		t.Errorf("lenient: code %d\n%s", code, out)
	}
	if _, _, code := runCmd(t, "validate", "--strict", dir); code != 1 {
		t.Errorf("strict: code %d, want 1", code)
	}
	out, _, code := runCmd(t, "validate", "--rules")
	if code != 0 || !strings.Contains(out, "OW001") || !strings.Contains(out, "IM003") || !strings.Contains(out, "EV001") {
		t.Errorf("--rules: %d\n%s", code, out)
	}
}

func TestValidateFixtureTarballs(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	// The registry's own verdicts: these published versions pass the seed schemas...
	for _, p := range []string{"core.openwop.agents.react/-/1.0.3.tgz", "core.openwop.a2a/-/1.1.0.tgz", "vendor.myndhyve.ads-copy-generate/-/1.0.0.tgz"} {
		if out, _, code := runCmd(t, "validate", filepath.Join(reg, "v1", "packs", filepath.FromSlash(p))); code != 0 {
			t.Errorf("%s: code %d\n%s", p, code, out)
		}
	}
	// ...and these do not (agents carry role; nodes use category flow), as ajv says too.
	for p, want := range map[string]string{
		"core.openwop.agents.classifier/-/1.0.0.tgz": "1.0.0.tgz!/pack.json:1:576: property `role` is not allowed here (at /agents/0/role)",
		"core.openwop.flow/-/1.1.0.tgz":              `"flow" is not an allowed value for ` + "`category`",
	} {
		out, _, code := runCmd(t, "validate", filepath.Join(reg, "v1", "packs", filepath.FromSlash(p)))
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("%s: code %d, want %q in\n%.2000s", p, code, want, out)
		}
	}
}

// --for-registry applies the publishing rules: a private.* pack is fine
// locally and warned about when it is meant for a registry.
func TestValidateForRegistry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "pack.json", `{"name":"private.acme.tools","version":"1.0.0","engines":{"openwop":">=1.0.0 <2.0.0"},
 "runtime":{"language":"remote","entry":"pack.json"},
 "agents":[{"agentId":"private.acme.tools.w","persona":"W","modelClass":"writing","systemPrompt":"x"}]}`)
	if out, _, code := runCmd(t, "validate", "--strict", dir); code != 0 || strings.Contains(out, "OW008") {
		t.Errorf("locally: code %d\n%s", code, out)
	}
	if out, _, code := runCmd(t, "validate", "--strict", "--for-registry", dir); code != 1 || !strings.Contains(out, "[OW008]") {
		t.Errorf("for a registry: code %d\n%s", code, out)
	}
}
