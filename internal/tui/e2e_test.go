package tui

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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
// and 120x40; issue 35's small terminals (40x10, 60x20: "more below ↓", no
// token wrapped inside, the key help whole) and the summary left on the
// terminal once the screen closes, its next steps run as printed.
func TestTerminalEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end terminal test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
	}
	fx := fixtures.Dir(t) // the real-terminal test edits a registry source pack
	// It waits on tmux far more than it computes: its lanes were started by
	// TestMain, side by side with the package's serial tests (startE2E); a
	// run that TestMain did not start (-count 2, a -run it did not foresee)
	// starts them here, beside the package's other parallel tests.
	t.Parallel()
	e := early.take()
	if e == nil {
		e = startE2E(fx, t.TempDir())
	}
	if os.Getenv("WOPKIT_E2E") != "full" {
		t.Log("every scenario at one size (WOPKIT_E2E=full: the layouts at every size, as .ci/run does)")
	}
	for range e.lanes {
		r := <-e.done
		t.Logf("%s", r.out)
		if r.err != nil {
			t.Errorf("tui-e2e.sh E2E_ONLY=%s E2E_SIZES=%q: %v", r.run.only, r.run.sizes, r.err)
		}
	}
}

// A run is a scenario (E2E_ONLY) at the sizes given (E2E_SIZES, "" for
// the scenario's own); a lane runs its runs one after the other.
type e2eRun struct{ only, sizes string }

// The scenarios wait on the screen far more than they compute: they run in
// lanes side by side (each its own tmux server and folder), so that the
// whole takes about as long as the longest lane. The lanes are balanced by
// the runs' times (logged by the test, "== ..."): the longest lane is the
// test's time.
//
// The README's `go test ./...` runs every scenario once, at one size each,
// the sizes shared out so that each (40x10, 60x20, 80x24, 120x40) is seen:
// the lanes share two cores with the package's other tests, and the whole
// matrix costs half as much again (issue 32: go test ./internal/tui within
// 60 s). WOPKIT_E2E=full runs the scenarios that check a layout at every
// size they know (fullLanes), as .ci/run does on every submission.
var lanes = [][]e2eRun{
	{{"new", ""}, {"tool", ""}},
	{{"sizes", "60x20"}, {"connection", ""}},
	{{"secrets", "80x24"}, {"exit", ""}, {"small", ""}},
	{{"choices", "120x40"}, {"resume", ""}},
	{{"words", "60x20"}, {"git", ""}, {"pipe", ""}, {"edit", ""}},
	{{"contract", "80x24"}, {"offline", ""}, {"chain", ""}},
}

var fullLanes = [][]e2eRun{
	{{"sizes", "120x40"}, {"connection", ""}},
	{{"sizes", "60x20"}, {"tool", ""}},
	{{"secrets", "80x24"}, {"chain", ""}, {"small", ""}},
	{{"new", ""}, {"exit", ""}},
	{{"choices", "120x40"}, {"contract", "80x24"}},
	{{"words", "60x20"}, {"git", ""}},
	{{"choices", "80x24"}, {"offline", ""}},
	{{"choices", "60x20"}, {"contract", "60x20"}, {"pipe", ""}},
	{{"words", "80x24"}, {"resume", ""}, {"edit", ""}},
}

// lanesToRun are the lanes of this run (see lanes).
func lanesToRun() [][]e2eRun {
	if os.Getenv("WOPKIT_E2E") == "full" {
		return fullLanes
	}
	return lanes
}

// e2eResult is what one lane printed, and the run that failed (err) or the
// lane's last one.
type e2eResult struct {
	run e2eRun
	out []byte
	err error
}

// e2e is the terminal test under way: one result per lane arrives on done.
type e2e struct {
	lanes [][]e2eRun
	done  chan e2eResult
}

// startE2E builds wopkit into tmp and starts every lane in the background,
// in folders under tmp, with the fixtures at fx.
func startE2E(fx, tmp string) *e2e {
	ls := lanesToRun()
	e := &e2e{lanes: ls, done: make(chan e2eResult, len(ls))}
	env := os.Environ()
	// The package's folder, named now: serial tests change the working
	// folder (t.Chdir) while the lanes start.
	pkg, err := os.Getwd()
	if err != nil {
		for range ls {
			e.done <- e2eResult{e2eRun{"build", ""}, nil, err}
		}
		return e
	}
	go func() {
		bin := filepath.Join(tmp, "wopkit")
		if out, err := fixtures.BuildWopkit(pkg, bin); err != nil {
			for range ls {
				e.done <- e2eResult{e2eRun{"build", ""}, out, err}
			}
			return
		}
		for n, lane := range ls {
			go func() {
				var out []byte
				for i, r := range lane {
					dir := filepath.Join(tmp, fmt.Sprintf("lane%d-%d", n, i))
					if err := os.Mkdir(dir, 0o700); err != nil {
						e.done <- e2eResult{r, out, err}
						return
					}
					cmd := exec.Command("bash", "../../scripts/tui-e2e.sh", bin)
					cmd.Dir = pkg
					cmd.Env = append(env, "FIXTURES="+fx, "TMPDIR="+dir, "E2E_ONLY="+r.only, "E2E_SIZES="+r.sizes)
					start := time.Now()
					o, err := cmd.CombinedOutput()
					// how long each run took, to balance the lanes by
					out = fmt.Appendf(out, "== E2E_ONLY=%s E2E_SIZES=%q: %.1fs\n", r.only, r.sizes, time.Since(start).Seconds())
					out = append(out, o...)
					if err != nil {
						e.done <- e2eResult{r, out, err}
						return
					}
				}
				e.done <- e2eResult{lane[len(lane)-1], out, nil}
			}()
		}
	}()
	return e
}

// early is the terminal test TestMain started before the serial tests,
// taken once by TestTerminalEndToEnd.
var early earlyE2E

type earlyE2E struct {
	mu  sync.Mutex
	e   *e2e
	tmp string
}

func (x *earlyE2E) take() *e2e {
	x.mu.Lock()
	defer x.mu.Unlock()
	e := x.e
	x.e = nil
	return e
}

// startEarly starts the terminal test's lanes before m.Run when this run
// will run TestTerminalEndToEnd (not -short, tmux and the fixtures there,
// no -run or -skip that leaves it out, not -list), so that its waiting on
// the screen overlaps the serial tests instead of following them. It
// returns what to do after m.Run: wait for lanes nobody took (their tmux
// servers end with their scripts) and remove their folder.
func startEarly() (after func()) {
	_, tmuxErr := exec.LookPath("tmux")
	fx, ok := fixtures.Find()
	if testing.Short() || tmuxErr != nil || !ok || !willRun("TestTerminalEndToEnd") {
		return func() {}
	}
	tmp, err := os.MkdirTemp("", "wopkit-tui-e2e-*")
	if err != nil {
		return func() {}
	}
	early.e, early.tmp = startE2E(fx, tmp), tmp
	return func() {
		if e := early.take(); e != nil {
			for range e.lanes {
				<-e.done
			}
		}
		os.RemoveAll(tmp)
	}
}

// willRun reports whether the test binary's -run, -skip and -list flags
// leave the top-level test name to run.
func willRun(name string) bool {
	get := func(f string) string {
		if fl := flag.Lookup(f); fl != nil {
			return fl.Value.String()
		}
		return ""
	}
	if get("test.list") != "" {
		return false
	}
	match := func(pattern string) bool {
		re, err := regexp.Compile(strings.Split(pattern, "/")[0])
		return err == nil && re.MatchString(name)
	}
	if run := get("test.run"); run != "" && !match(run) {
		return false
	}
	if skip := get("test.skip"); skip != "" && match(skip) {
		return false
	}
	return true
}
