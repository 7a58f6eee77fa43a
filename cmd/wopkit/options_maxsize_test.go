package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --max-size: by default pack, inspect, validate and verify hold to the
// registry's limits (a 6 MB entry is over its 5 MB per-entry limit); the
// flag raises them for a private pack.
func TestMaxSize(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	big := bytes.Repeat([]byte("{\"input\":{},\"expected\":{}}\n"), 6<<20/27+1)
	os.MkdirAll(filepath.Join(dir, "evals"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "evals", "big.jsonl"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "x.tgz")
	_, errOut, code := runCmd(t, "pack", dir, "-o", out, "--no-validate")
	if code != 1 || !strings.Contains(errOut, "evals/big.jsonl") || !strings.Contains(errOut, "--max-size") {
		t.Fatalf("pack over the default limits: exit %d, %s", code, errOut)
	}
	if _, errOut, code = runCmd(t, "pack", dir, "-o", out, "--no-validate", "--max-size", "20"); code != 0 {
		t.Fatalf("pack --max-size 20: exit %d, %s", code, errOut)
	}
	for _, verb := range []string{"inspect", "validate"} {
		stdout, errOut, code := runCmd(t, verb, out)
		if code != 1 || !strings.Contains(stdout+errOut, "5.0 MiB") {
			t.Errorf("%s with the default limits: exit %d, %s%s", verb, code, stdout, errOut)
		}
		if stdout, errOut, code := runCmd(t, verb, out, "--max-size", "20"); strings.Contains(stdout+errOut, "limit") {
			t.Errorf("%s --max-size 20: exit %d, %s%s", verb, code, stdout, errOut)
		}
	}
	if _, errOut, code := runCmd(t, "inspect", out, "--max-size", "0"); code != 2 {
		t.Errorf("--max-size 0: exit %d, %s", code, errOut)
	}
}
