//go:build unix

package publish

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/proctest"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/untrusted"
)

// killScenario is a checkout holding community.wopkit-test.hello@1.0.0 and
// the signed release 1.1.0 to publish into it, with the tree before (old)
// and after (new) that publication.
type killScenario struct {
	base     string // the checkout before
	tgz      string // the release to publish
	old, new map[string]string
	bin      string // the wopkit binary (wopkit_crashtest build)
}

func newKillScenario(t *testing.T, bin string) *killScenario {
	t.Helper()
	base := minimalRegistry(t)
	key := addTestKey(t, filepath.Join(base, "registry"), "active")
	const name = "community.wopkit-test.hello"
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, name, "1.0.0", nil), Registry: base, Now: time.Unix(1780000000, 0)})
	s := &killScenario{base: base, tgz: release(t, key, sign.MethodV2, name, "1.1.0", nil), bin: bin}
	s.old = treeHashes(t, filepath.Join(base, "registry"))
	if bin != "" {
		dir := s.fresh(t, t.TempDir())
		if out, err := s.run(dir); err != nil {
			t.Fatalf("publish: %v\n%s", err, out)
		}
		s.new = treeHashes(t, filepath.Join(dir, "registry"))
	} else {
		dir := s.fresh(t, t.TempDir())
		publishOK(t, Options{Tarball: s.tgz, Registry: dir, Now: killClock})
		s.new = treeHashes(t, filepath.Join(dir, "registry"))
	}
	if len(treeDiff(s.old, s.new)) < 10 {
		t.Fatalf("the publication changes too little to test: %v", treeDiff(s.old, s.new))
	}
	return s
}

// fresh makes dir a copy of the checkout before.
func (s *killScenario) fresh(t *testing.T, dir string) string {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	fixtures.CopyInto(t, s.base, dir)
	return dir
}

// command is `wopkit publish` of the release into dir.
func (s *killScenario) command(dir string, env ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.Command(s.bin, "publish", s.tgz, "--registry", dir)
	cmd.Env = append(os.Environ(), fmt.Sprintf("SOURCE_DATE_EPOCH=%d", killClock.Unix()), "NO_COLOR=1")
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd, &out
}

func (s *killScenario) run(dir string, env ...string) (string, error) {
	cmd, out := s.command(dir, env...)
	err := cmd.Run()
	return out.String(), err
}

// state is "old" or "new" when the tree of dir is one of them, else a diff
// against the nearer one.
func (s *killScenario) state(t *testing.T, dir string) string {
	t.Helper()
	h := treeHashes(t, filepath.Join(dir, "registry"))
	dOld, dNew := treeDiff(s.old, h), treeDiff(s.new, h)
	switch {
	case len(dOld) == 0:
		return "old"
	case len(dNew) == 0:
		return "new"
	case len(dOld) < len(dNew):
		return "neither; against the old tree:\n" + strings.Join(dOld, "\n")
	}
	return "neither; against the new tree:\n" + strings.Join(dNew, "\n")
}

// recoverAndCheck opens the tree as every publish, yank and deprecate does
// (which resolves a transaction left behind), then wants the old or the
// new tree; it returns which.
func (s *killScenario) recoverAndCheck(t *testing.T, dir, what string) string {
	t.Helper()
	if _, err := OpenTree(dir, SpecV2); err != nil {
		t.Fatalf("%s: opening the tree after the kill: %v", what, err)
	}
	st := s.state(t, dir)
	if st != "old" && st != "new" {
		t.Fatalf("%s: the tree is %s", what, st)
	}
	return st
}

// rerunAndCheck runs the publication again to its end: it must succeed and
// leave the new tree. It runs in the test's process, as the publish
// command does (the registry lock, Stage, Apply): a run of the binary costs
// three times as much CPU, mostly its start and the schemas it compiles
// each time, and the binary's own runs to the end are checked against the
// same new tree (newKillScenario's, a random kill's run that finished
// first, and the run past every point).
func (s *killScenario) rerunAndCheck(t *testing.T, dir, what string) {
	t.Helper()
	if err := s.publishInProcess(dir); err != nil {
		t.Fatalf("%s: the run after the kill: %v", what, err)
	}
	if st := s.state(t, dir); st != "new" {
		t.Fatalf("%s: after the run that follows the kill, the tree is %s", what, st)
	}
}

// publishInProcess is what `wopkit publish` of the release into dir does.
func (s *killScenario) publishInProcess(dir string) error {
	unlock, err := LockRegistry(dir)
	if err != nil {
		return err
	}
	defer unlock()
	p, err := Stage(context.Background(), Options{Tarball: s.tgz, Registry: dir, Now: killClock})
	if err != nil {
		return err
	}
	return p.Apply()
}

func treeDiff(want, got map[string]string) []string {
	var diff []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			diff = append(diff, "missing: "+k)
		} else if g != v {
			diff = append(diff, "changed: "+k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			diff = append(diff, "added: "+k)
		}
	}
	sort.Strings(diff)
	return diff
}

// TestKillAtEveryPoint: issue item 4. The wopkit binary publishing 1.1.0 is
// killed with SIGKILL at each point of its transaction in turn
// (WOPKIT_TEST_CRASH_AFTER=n), and the run after it is killed once more in
// its recovery or its own transaction. After each kill, opening the tree
// leaves it as it was or as the publication makes it, and a run to the end
// leaves the new tree. Then it is killed at random moments (real timing, a
// spread of delays over a whole run) 100 times with WOPKIT_KILLPOINTS=full
// (30 by default: randomKills), with the same checks.
func TestKillAtEveryPoint(t *testing.T) {
	t.Parallel()
	bin := crashtestBinary(t)
	s := newKillScenario(t, bin)
	// The deterministic kills and the random ones run side by side, each
	// in its own checkout (a run is mostly waiting for the disk).
	t.Run("every point", func(t *testing.T) {
		t.Parallel()
		killEveryPoint(t, s, filepath.Join(t.TempDir(), "checkout"))
	})
	// Random kills, by two workers: 100 with WOPKIT_KILLPOINTS=full.
	kills, seed := randomKills(t)
	for w := range 2 {
		t.Run(fmt.Sprintf("at random %d", w+1), func(t *testing.T) {
			t.Parallel()
			if testing.Short() {
				t.Skip("-short: the random kills are skipped")
			}
			killAtRandom(t, s, filepath.Join(diskTempDir(t), "checkout"), kills, seed+uint64(w))
		})
	}
}

// randomKills is how many random kills each of the two workers of
// TestKillAtEveryPoint makes, and the seed of their delays. Every point of
// the transaction is killed in every run; the random kills, one run of the
// binary each (about 70 ms of CPU with the run that follows it), are 100 with
// WOPKIT_KILLPOINTS=full, as .ci/run does on every submission, and 30 in the
// README's `go test ./...`, whose time they would otherwise dominate.
// WOPKIT_KILLPOINTS_SEED repeats a run's delays (the moments they land on
// still depend on the machine's load).
func randomKills(t *testing.T) (int, uint64) {
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("WOPKIT_KILLPOINTS_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("WOPKIT_KILLPOINTS_SEED=%q: not a number", v)
		}
		seed = n
	}
	if os.Getenv("WOPKIT_KILLPOINTS") == "full" {
		t.Logf("WOPKIT_KILLPOINTS=full: 100 random kills (WOPKIT_KILLPOINTS_SEED=%d repeats their delays)", seed)
		return 50, seed
	}
	t.Logf("30 random kills (WOPKIT_KILLPOINTS=full makes 100; WOPKIT_KILLPOINTS_SEED=%d repeats their delays)", seed)
	return 15, seed
}

// crashtestBinary is wopkit built with the wopkit_crashtest tag, copied
// from go run's cache of executables (go run -exec echo prints the cached
// binary's path instead of running it: no link when nothing changed, where
// go build links again, 6 s of CPU). When the go command keeps no such
// binary (one built now is printed from a temporary folder, removed as go
// run ends: the second go run finds it in the cache), it is built with
// proctest.BuildCrashtest.
func crashtestBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not available: skipping the kill tests, which run a wopkit binary")
	}
	dst := filepath.Join(diskTempDir(t), "wopkit")
	for range 2 {
		cmd := exec.Command(goTool, "run", "-tags", "wopkit_crashtest", "-exec", "echo", "github.com/openwop/wopkit/cmd/wopkit")
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "TMPDIR="+diskTemp)
		out, err := cmd.Output()
		if err != nil {
			break
		}
		if src := strings.TrimSpace(string(out)); filepath.IsAbs(src) && copyExe(src, dst) == nil {
			return dst
		}
	}
	return proctest.BuildCrashtest(t, filepath.Join("..", ".."))
}

// copyExe copies the executable src to the new file dst.
func copyExe(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}

// killEveryPoint kills the run at each point of its transaction in turn.
func killEveryPoint(t *testing.T, s *killScenario, dir string) {
	points, seen := 0, map[string]int{}
	for n := 1; ; n++ {
		s.fresh(t, dir)
		what := fmt.Sprintf("killed at point %d", n)
		out, err := s.run(dir, fmt.Sprintf("WOPKIT_TEST_CRASH_AFTER=%d", n))
		if err == nil {
			if st := s.state(t, dir); st != "new" {
				t.Fatalf("a run past every point left the tree %s", st)
			}
			break
		}
		if !proctest.KilledBySignal(err) {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
		points++
		// The next run is killed too, at the first point it reaches (in
		// the recovery, or in its own transaction).
		if _, err := s.run(dir, "WOPKIT_TEST_CRASH_AFTER=1"); err != nil && !proctest.KilledBySignal(err) {
			t.Fatalf("%s, then the next run: %v", what, err)
		}
		seen[s.recoverAndCheck(t, dir, what+", then once more")]++
		s.rerunAndCheck(t, dir, what)
	}
	if points < 10 || seen["old"] == 0 || seen["new"] == 0 {
		t.Fatalf("%d kill points, trees after them %v: the transaction was not exercised", points, seen)
	}
	t.Logf("deterministic: %d kill points; after a second kill and the recovery the tree was old %d times, new %d times",
		points, seen["old"], seen["new"])
}

// killAtRandom kills runs at random moments, spread over a whole run, with
// delays drawn from seed.
func killAtRandom(t *testing.T, s *killScenario, dir string, kills int, seed uint64) {
	// A whole run's duration, to spread the kills over it.
	s.fresh(t, dir)
	start := time.Now()
	if out, err := s.run(dir); err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	whole := time.Since(start)
	rng := rand.New(rand.NewPCG(seed, 0))
	counts := map[string]int{}
	// The delays follow the run's duration as the machine's load changes
	// it: shorter after a run that ended before its kill, longer after one
	// that did not.
	scale := whole
	for i := 0; counts["killed"] < kills && i < 5*kills; i++ {
		s.fresh(t, dir)
		// Half of the delays anywhere in a run, half near its end, where the
		// transaction is.
		delay := time.Duration(rng.Int64N(int64(scale)))
		if i%2 == 1 {
			delay = scale*6/10 + time.Duration(rng.Int64N(int64(scale)*5/10))
		}
		cmd, out := s.command(dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		what := fmt.Sprintf("kill %d after %v (seed %d)", i, delay, seed)
		if err == nil {
			counts["finished first"]++
			scale = max(scale*85/100, time.Millisecond)
		} else if !proctest.KilledBySignal(err) {
			t.Fatalf("%s: %v\n%s", what, err, out)
		} else {
			counts["killed"]++
			scale = min(scale*102/100, 2*whole)
			if _, err := os.Lstat(filepath.Join(dir, "registry", txnDir)); err == nil {
				counts["killed inside the transaction"]++
			}
		}
		counts["then "+s.recoverAndCheck(t, dir, what)]++
		s.rerunAndCheck(t, dir, what)
	}
	if counts["killed"] < kills {
		t.Fatalf("only %d of the runs were killed before they ended: %v", counts["killed"], counts)
	}
	t.Logf("random: a run takes %v; %v (seed %d)", whole.Round(time.Millisecond), counts, seed)
}

// TestKillInProcessAtEveryPoint stops Apply at each crash point in turn, as
// a kill would (nothing after it runs: the test's crash point panics past
// Apply's own clean-up, which does nothing once the journal is written),
// both for a transaction that succeeds and for one that fails after its
// commit point and is being undone (the journal's "back" state, which no
// kill of a healthy run reaches). Opening the tree then leaves it old or
// new.
func TestKillInProcessAtEveryPoint(t *testing.T) {
	s := newKillScenario(t, "")
	type crash struct{}
	dir := filepath.Join(t.TempDir(), "checkout")
	// One plan, applied to a fresh copy of the same tree each time.
	plan := stage(t, Options{Tarball: s.tgz, Registry: s.fresh(t, dir), Now: killClock})
	for _, failAt := range []int{-1, 0, 5, 9} {
		seen := map[string]int{}
		for n := 1; ; n++ {
			s.fresh(t, dir)
			p := *plan
			d, err := untrusted.OpenDir(filepath.Join(dir, "registry"))
			if err != nil {
				t.Fatal(err)
			}
			p.dir = d
			count := 0
			crashPoint = func() {
				if count++; count == n {
					panic(crash{})
				}
			}
			failBeforeRename = failAt
			crashed := func() (crashed bool) {
				defer func() {
					if r := recover(); r != nil {
						if _, ok := r.(crash); !ok {
							panic(r)
						}
						crashed = true
					}
				}()
				err = p.Apply()
				return false
			}()
			crashPoint, failBeforeRename = func() {}, -1
			d.Close()
			what := fmt.Sprintf("failing before rename %d, stopped at point %d", failAt, n)
			if !crashed {
				want := "new"
				if failAt >= 0 {
					want = "old"
					if err == nil {
						t.Fatalf("%s: no failure", what)
					}
				} else if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if st := s.state(t, dir); st != want {
					t.Fatalf("%s: Apply returned %v and left the tree %s", what, err, st)
				}
				break
			}
			seen[s.recoverAndCheck(t, dir, what)]++
		}
		if seen["old"]+seen["new"] < 10 {
			t.Fatalf("failing before rename %d: only %v", failAt, seen)
		}
		t.Logf("failing before rename %d: after a stop and the recovery the tree was %v", failAt, seen)
	}
}
