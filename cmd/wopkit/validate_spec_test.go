package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validate --spec forces the schema set; --json reports kind and spec; an
// unknown --spec is a usage error.
func TestValidateSpecFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A v1 workflow-chain pack.json (ceiling <2.0.0) without a label: both
	// schema sets require it, and the report names the set used.
	doc := `{"name": "vendor.acme.chains", "version": "1.0.0", "kind": "workflow-chain", "engines": {"openwop": ">=1.0.0 <2.0.0"},
  "chains": [{"chainId": "vendor.acme.chains.one", "version": "1.0.0", "description": "d", "parameters": {}, "dag": {"nodes": [{"id": "a", "typeId": "core.ai.callPrompt"}]}}]}`
	p := filepath.Join(dir, "chain.json")
	os.WriteFile(p, []byte(doc), 0o644)
	for spec, want := range map[string]string{"": "v1", "v1": "v1", "v2": "v2"} {
		args := []string{"validate", "--json", p}
		if spec != "" {
			args = append(args, "--spec", spec)
		}
		out, errOut, code := runCmd(t, args...)
		var rep struct {
			Files []struct {
				Kind, Spec string
				Errors     []struct{ Rule, Message string }
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
			t.Fatalf("--spec %q: exit %d, %v\n%s%s", spec, code, err, out, errOut)
		}
		f := rep.Files[0]
		if f.Kind != "workflow-chain-pack" || f.Spec != want || !strings.Contains(out, "label") {
			t.Errorf("--spec %q: %s %s\n%s", spec, f.Kind, f.Spec, out)
		}
	}
	if _, errOut, code := runCmd(t, "validate", "--spec", "v3", p); code != 2 || !strings.Contains(errOut, "v1 or v2") {
		t.Errorf("--spec v3: exit %d %s", code, errOut)
	}
	if _, errOut, code := runCmd(t, "validate", "--kind", "widget", p); code != 2 || !strings.Contains(errOut, "workflow-chain-pack") {
		t.Errorf("--kind widget: exit %d %s", code, errOut)
	}
}
