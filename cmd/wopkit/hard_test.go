package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// writePack writes a minimal valid-looking node pack with extra top-level
// keys (each an unknown property, so one problem each) into a new directory.
func writeCapPack(t *testing.T, extra int) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(fixtures.Path(t, "source-packs", "core.openwop.a2a", "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(src, &m); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < extra; i++ {
		m[fmt.Sprintf("zz%d", i)] = i
	}
	data, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestValidateCapsProblemsPerFile: 500 unknown keys print at most
// maxTextProblems problem lines and a summary line with the right count;
// --json still has them all.
func TestValidateCapsProblemsPerFile(t *testing.T) {
	dir := writeCapPack(t, 500)
	out, _, code := runCmd(t, "validate", dir)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, out)
	}
	lines := strings.Count(out, "[OW") + strings.Count(out, "[schema")
	if lines > 200 {
		t.Fatalf("%d problem lines printed, want at most 200", lines)
	}
	outJ, _, _ := runCmd(t, "validate", dir, "--json")
	var rep struct {
		Files []struct {
			Errors, Warnings []json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(outJ), &rep); err != nil || len(rep.Files) != 1 {
		t.Fatalf("%v: %s", err, outJ)
	}
	total := len(rep.Files[0].Errors) + len(rep.Files[0].Warnings)
	if total < 500 {
		t.Fatalf("json has %d problems, want every one of the 500+", total)
	}
	want := fmt.Sprintf("… and %d more problems", total-200)
	if !strings.Contains(out, want) {
		t.Fatalf("no summary %q in text output:\n%s", want, out[len(out)-400:])
	}
}
