package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/sandbox"
	"github.com/openwop/wopkit/internal/validate"
)

// TestValidateRunEntryOptIn: `validate DIR` never runs a pack's code unless
// asked (--run-entry, or WOPKIT_RUN_ENTRY=1 when the flag is not given),
// and says once on stderr that OW017 was skipped. The entry loops forever,
// so a run shows as the timeout problem (and exit 1).
func TestValidateRunEntryOptIn(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: nothing to run or not run")
	}
	if err := sandbox.Supported(); err != nil {
		t.Skipf("OW017 refuses to run node here: %v", err)
	}
	old := validate.EntryTimeout
	validate.EntryTimeout = 500 * time.Millisecond // each run of the loop burns a core until then
	defer func() { validate.EntryTimeout = old }()
	dir := filepath.Join(t.TempDir(), "p")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.loop"); code != 0 {
		t.Fatalf("new pack: %s", errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.mjs"), []byte("for (;;) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const ran = "did not finish loading it within 500ms"
	const note = "OW017 (load runtime.entry with node) skipped"
	for _, c := range []struct {
		name     string
		env      string // WOPKIT_RUN_ENTRY; "-" unset
		args     []string
		run      bool
		wantNote bool
		code     int
	}{
		{"default off", "-", nil, false, true, 0},
		{"flag", "-", []string{"--run-entry"}, true, false, 1},
		{"environment", "1", nil, true, false, 1},
		{"environment off", "0", nil, false, false, 0},
		{"flag wins over environment", "1", []string{"--run-entry=false"}, false, false, 0},
		{"flag wins the other way", "0", []string{"--run-entry"}, true, false, 1},
		{"environment not a boolean", "maybe", nil, false, false, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(validate.RunEntryEnv, c.env)
			if c.env == "-" {
				os.Unsetenv(validate.RunEntryEnv)
			}
			out, errOut, code := runCmd(t, append(append([]string{"validate"}, c.args...), dir)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errOut)
			}
			if got := strings.Contains(out, ran); got != c.run {
				t.Errorf("node ran: %v, want %v\n%s", got, c.run, out)
			}
			if n := strings.Count(errOut, note); n != map[bool]int{true: 1, false: 0}[c.wantNote] {
				t.Errorf("the skip note is printed %d times, want it: %v\n%s", n, c.wantNote, errOut)
			}
		})
	}
	// Not a javascript pack: nothing skipped, no note.
	t.Run("no entry to run", func(t *testing.T) {
		os.Unsetenv(validate.RunEntryEnv)
		pj := filepath.Join(dir, "pack.json")
		data, _ := os.ReadFile(pj)
		os.WriteFile(pj, []byte(strings.Replace(string(data), `"javascript"`, `"python"`, 1)), 0o644)
		defer os.WriteFile(pj, data, 0o644)
		if _, errOut, _ := runCmd(t, "validate", dir); strings.Contains(errOut, note) {
			t.Errorf("a note for a pack with no javascript entry:\n%s", errOut)
		}
	})
}
