package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/sandbox"
)

// needSmokeNode skips when node or the sandbox is missing.
func needSmokeNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the smoke test has nothing to run the nodes with")
	}
	if err := sandbox.Supported(); err != nil {
		t.Skipf("the smoke test runs nodes only in the sandbox, which cannot be set up here: %v", err)
	}
}

// smokeCmd runs runSmoke on dir and returns its output and exit code.
func smokeCmd(t *testing.T, dir string, nodes []string, jsonOut bool) (string, int) {
	t.Helper()
	cmd := &cobra.Command{}
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetContext(context.Background())
	err := runSmoke(cmd, dir, nodes, time.Minute, jsonOut) // generous: the nodes here settle at once
	return out.String(), exitCode(err)
}

// TestRunSmoke: `test --smoke` passes the pack `new` writes, in words and
// as JSON, and fails it (exit 1, naming the node and the check) once its
// pure node throws host_capability_missing.
func TestRunSmoke(t *testing.T) {
	t.Parallel()
	needSmokeNode(t)
	dir := filepath.Join(t.TempDir(), "p")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.smoky"); code != 0 {
		t.Fatalf("new pack: %s", errOut)
	}
	out, code := smokeCmd(t, dir, nil, false)
	if code != 0 || !strings.Contains(out, "✓ vendor.acme.smoky.hello (returned)") || !strings.Contains(out, "smoke: passed: 1 nodes, 1 passed, 0 failed") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, code = smokeCmd(t, dir, nil, true)
	var rep struct {
		Passed bool `json:"passed"`
		Nodes  []struct {
			TypeID string `json:"typeId"`
			Passed bool   `json:"passed"`
			Check  string `json:"check"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || !rep.Passed || len(rep.Nodes) != 1 || !rep.Nodes[0].Passed || rep.Nodes[0].TypeID != "vendor.acme.smoky.hello" {
		t.Errorf("--json: exit %d, %v: %s", code, err, out)
	}
	entry := filepath.Join(dir, "index.mjs")
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, []byte("\nnodes[\"vendor.acme.smoky.hello\"] = async () => { const e = new Error(\"no host\"); e.code = \"host_capability_missing\"; throw e; };\n")...)
	if err := os.WriteFile(entry, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = smokeCmd(t, dir, []string{"hello"}, false)
	if code != 1 || !strings.Contains(out, "✗ vendor.acme.smoky.hello") || !strings.Contains(out, "[pure-runs] vendor.acme.smoky.hello: pure-tagged but throws host_capability_missing") {
		t.Errorf("exit %d, want 1 naming the node:\n%s", code, out)
	}
	out, code = smokeCmd(t, dir, nil, true)
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || rep.Passed || rep.Nodes[0].Passed || rep.Nodes[0].Check != "pure-runs" {
		t.Errorf("--json: exit %d, %v: %s", code, err, out)
	}
}

// TestValidateForRegistryRunsSmoke: `validate --for-registry --run-entry`
// reports the smoke test's failures as OW023; without --for-registry it
// does not run it.
func TestValidateForRegistryRunsSmoke(t *testing.T) {
	t.Parallel()
	needSmokeNode(t)
	dir := filepath.Join(t.TempDir(), "p")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.smoky"); code != 0 {
		t.Fatalf("new pack: %s", errOut)
	}
	if out, _, code := runCmd(t, "validate", "--for-registry", "--run-entry", dir); code != 0 || strings.Contains(out, "OW023") {
		t.Fatalf("the scaffolded pack: exit %d:\n%s", code, out)
	}
	entry := filepath.Join(dir, "index.mjs")
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, append(b, []byte("\nnodes[\"vendor.acme.smoky.hello\"] = async () => 42;\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCmd(t, "validate", "--for-registry", "--run-entry", dir)
	if code != 1 || !strings.Contains(out, "smoke test: vendor.acme.smoky.hello: returned non-object (a number)") || !strings.Contains(out, "[OW023]") {
		t.Errorf("exit %d, want 1 with OW023:\n%s", code, out)
	}
	if out, _, code := runCmd(t, "validate", "--run-entry", dir); code != 0 || strings.Contains(out, "OW023") {
		t.Errorf("without --for-registry: exit %d:\n%s", code, out)
	}
}
