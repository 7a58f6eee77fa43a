package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// inspect says what a pack of each kind holds, in words with plural forms,
// and which spec version it follows: a real v2 workflow-chain manifest from
// the registry (without its integrity) packed as pack.json, the same
// without kind, and an agent-only node pack.
func TestInspectKindsAndCounts(t *testing.T) {
	vm, err := os.ReadFile(filepath.Join(fixtures.SpecV2(t), "registry", "v2", "packs", "vendor.openwop.workflow-chain-sample", "-", "1.0.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(vm, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "integrity")
	inspect := func(m map[string]any) (string, map[string]any) {
		t.Helper()
		dir := t.TempDir()
		b, _ := json.MarshalIndent(m, "", "  ")
		os.WriteFile(filepath.Join(dir, "pack.json"), b, 0o644)
		tgz := filepath.Join(t.TempDir(), "x.tgz")
		if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "none", "-o", tgz); code != 0 {
			t.Fatalf("pack: %s", errOut)
		}
		out, errOut, code := runCmd(t, "inspect", tgz)
		if code != 0 {
			t.Fatalf("inspect: %s", errOut)
		}
		js, _, _ := runCmd(t, "inspect", tgz, "--json")
		var info map[string]any
		if err := json.Unmarshal([]byte(js), &info); err != nil {
			t.Fatal(err)
		}
		return out, info["manifest"].(map[string]any)
	}
	out, man := inspect(m)
	if !strings.Contains(out, "(v2 workflow-chain pack: 2 chains)") || !strings.Contains(out, "spec:      v2, told by the shape of its signing block") {
		t.Errorf("chain pack:\n%s", out)
	}
	if man["spec"] != "v2" || mustJSON(t, man["contents"]) != `[{"n":2,"of":"chains"}]` {
		t.Errorf("chain pack --json: %v", man)
	}
	delete(m, "kind")
	if out, _ := inspect(m); !strings.Contains(out, "(v2 pack without the kind v2 requires: 2 chains)") {
		t.Errorf("v2 pack without kind:\n%s", out)
	}
	agents := map[string]any{"name": "vendor.acme.solo", "version": "1.0.0", "engines": map[string]any{"openwop": ">=1.0.0 <2.0.0"},
		"runtime": map[string]any{"language": "remote", "entry": "https://agents.example/solo"}, "agents": []any{map[string]any{"agentId": "a"}}}
	if out, _ := inspect(agents); !strings.Contains(out, "(v1 agent-only pack: 1 agent; runtime remote https://agents.example/solo)") ||
		!strings.Contains(out, "spec:      v1, the version of documents that do not say") {
		t.Errorf("agent-only pack:\n%s", out)
	}
}

// inspect prints a tarball's strings escaped: a name, a description and a
// signing block holding characters that JSON lets through raw (U+202E,
// U+009B) or escaped (\u001b); an error quoting them is escaped on stderr.
func TestInspectStringsInert(t *testing.T) {
	pj := "{\"name\":\"acme.x\u202egnp\u009b31m\",\"version\":\"1.0.0\",\"description\":\"x\\u001b[2K\\r\u202e\"," +
		"\"signing\":{\"method\":\"manual\",\"publicKeyRef\":\"k\\u001b[2K\u202e\u009b-1\"}}"
	tgz := filepath.Join(t.TempDir(), "x.tgz")
	os.WriteFile(tgz, tgzOf(t, [][2]string{{"pack.json", pj}, {"README.md", "x"}}), 0o644)
	out, errOut, code := runCmd(t, "inspect", tgz)
	if code != 0 || !strings.Contains(out, "signing:") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "inspect", out+errOut)
	bad := filepath.Join(t.TempDir(), "bad.tgz")
	os.WriteFile(bad, tgzOf(t, [][2]string{{"pack.json", "{\"name\":\"a\",\"x\\u001b[2K\u202e\":1,\"X\\u001b[2K\u202e\":2}"}}), 0o644)
	out, errOut, code = runCmd(t, "inspect", bad)
	if code != 1 || !strings.Contains(errOut, "letter case") {
		t.Fatalf("duplicate member: exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "inspect error", out+errOut)
}
