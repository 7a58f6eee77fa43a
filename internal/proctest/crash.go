package proctest

import (
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// BuildCrashtest builds the wopkit command with the wopkit_crashtest tag
// (WOPKIT_TEST_CRASH_AFTER=n kills it at its n-th crash point) into a
// temporary folder and returns it; moduleRoot is the module's folder
// relative to the test's. It skips the test when the go tool is missing.
func BuildCrashtest(t testing.TB, moduleRoot string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not available: skipping the kill tests, which run a wopkit binary")
	}
	bin := filepath.Join(t.TempDir(), "wopkit")
	if out, err := fixtures.BuildWopkit(moduleRoot, bin, "-tags", "wopkit_crashtest"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return bin
}

// KilledBySignal reports whether a command's error says it was killed
// with SIGKILL.
func KilledBySignal(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}
