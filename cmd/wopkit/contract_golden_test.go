package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares got with testdata/golden/NAME, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestPackVerbsGolden pins the text output of inspect, verify, pack
// --dry-run and a refusal message.
func TestPackVerbsGolden(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	packs := filepath.Join(reg, "v1", "packs")
	norm := func(s string) string { return strings.ReplaceAll(s, reg, "REGISTRY") }

	out, _, _ := runCmd(t, "inspect", filepath.Join(packs, "core.openwop.agents.react", "-", "1.0.3.tgz"))
	golden(t, "inspect-react.txt", norm(out))

	tgzs, _ := filepath.Glob(filepath.Join(packs, "*", "-", "*.tgz"))
	out, _, _ = runCmd(t, append([]string{"verify", "--registry", reg}, tgzs...)...)
	golden(t, "verify-registry.txt", norm(out))

	dir := writePack(t)
	out, _, _ = runCmd(t, "pack", dir, "--dry-run", "--no-validate", "-o", "hello.tgz")
	golden(t, "pack-dry-run.txt", out)

	body := strings.Repeat("b3BlbnNzaC1rZXktdjEAAAAABG5vbmU", 3)[:70] // a key's first line (issue 45: a placeholder body is no key)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"+body+"\n-----END OPENSSH PRIVATE KEY-----\n"), 0o600)
	_, errOut, code := runCmd(t, "pack", dir, "--dry-run", "--no-validate")
	if code != 1 {
		t.Errorf("private key: exit %d", code)
	}
	golden(t, "pack-private-key.txt", strings.ReplaceAll(errOut, dir, "DIR")+"\n")
}
