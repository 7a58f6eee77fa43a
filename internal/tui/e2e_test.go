package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
)

// TestTerminalEndToEnd builds wopkit and runs scripts/tui-e2e.sh, which
// drives it in tmux at 80x24: edit a registry pack.json; create, pack, sign
// and verify a mixed pack through the wizard, then again in the same folder
// (the key there the default; three problems on the review, the signed
// release already there one of them, each fixed from it); a tool manifest
// with lists of variables, scopes and actions under NO_COLOR=1; every
// default in a git checkout (the new key kept out of it); a draft resumed
// where it was left; accessible mode fed from a pipe; the exit status of a
// run that cannot write and of a pipe that ends early. The mixed pack runs
// again at 60x20 and 120x40, each screen checked for what is cut off; issue
// 17's lists to tick and suggestions run under NO_COLOR=1 at 80x24, 60x20
// and 120x40.
func TestTerminalEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end terminal test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
	}
	// It waits on tmux far more than it computes: side by side with the
	// package's other parallel tests, the whole package takes about as
	// long as its lanes (the serial part of the package ran first).
	t.Parallel()
	fx := fixtures.Dir(t) // the real-terminal test edits a registry source pack
	bin := filepath.Join(t.TempDir(), "wopkit")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/wopkit")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The scenarios wait on the screen far more than they compute: they
	// run in lanes side by side (each its own tmux server and folder), so
	// that the whole takes about as long as the longest lane.
	// A run is a scenario (E2E_ONLY) at the sizes given (E2E_SIZES, "" for
	// the scenario's own); a lane runs its runs one after the other.
	type run struct{ only, sizes string }
	// The lanes are balanced by the runs' times (logged below, "== ..."):
	// the longest lane is the test's time.
	lanes := [][]run{
		{{"sizes", "120x40"}, {"connection", ""}},
		{{"sizes", "60x20"}, {"tool", ""}},
		{{"secrets", "80x24"}, {"chain", ""}},
		{{"new", ""}, {"exit", ""}},
		{{"choices", "120x40"}, {"contract", "80x24"}},
		{{"words", "60x20"}, {"git", ""}},
		{{"choices", "80x24"}, {"offline", ""}},
		{{"choices", "60x20"}, {"contract", "60x20"}, {"pipe", ""}},
		{{"words", "80x24"}, {"resume", ""}, {"edit", ""}},
	}
	type result struct {
		run run
		out []byte
		err error
	}
	done := make(chan result, len(lanes))
	for _, lane := range lanes {
		go func() {
			var out []byte
			for _, r := range lane {
				cmd := exec.Command("bash", "../../scripts/tui-e2e.sh", bin)
				cmd.Env = append(os.Environ(), "FIXTURES="+fx, "TMPDIR="+t.TempDir(), "E2E_ONLY="+r.only, "E2E_SIZES="+r.sizes)
				start := time.Now()
				o, err := cmd.CombinedOutput()
				// how long each run took, to balance the lanes by
				out = fmt.Appendf(out, "== E2E_ONLY=%s E2E_SIZES=%q: %.1fs\n", r.only, r.sizes, time.Since(start).Seconds())
				out = append(out, o...)
				if err != nil {
					done <- result{r, out, err}
					return
				}
			}
			done <- result{lane[len(lane)-1], out, nil}
		}()
	}
	for range lanes {
		r := <-done
		t.Logf("%s", r.out)
		if r.err != nil {
			t.Errorf("tui-e2e.sh E2E_ONLY=%s E2E_SIZES=%q: %v", r.run.only, r.run.sizes, r.err)
		}
	}
}
