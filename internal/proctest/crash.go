package proctest

import (
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// BuildCrashtest builds the wopkit command with the wopkit_crashtest tag
// (WOPKIT_TEST_CRASH_AFTER=n kills it at its n-th crash point) into a
// temporary folder and returns it; moduleRoot is the module's folder
// relative to the test's. It skips the test when the go tool is missing.
func BuildCrashtest(t testing.TB, moduleRoot string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not available: skipping the kill tests, which run a wopkit binary")
	}
	bin := filepath.Join(t.TempDir(), "wopkit")
	cmd := exec.Command(goTool, "build", "-tags", "wopkit_crashtest", "-o", bin, "github.com/openwop/wopkit/cmd/wopkit")
	cmd.Dir = moduleRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
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
