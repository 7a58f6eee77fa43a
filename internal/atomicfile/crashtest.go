//go:build wopkit_crashtest

package atomicfile

import (
	"os"
	"strconv"
	"syscall"
)

// In the wopkit_crashtest build (the kill tests build wopkit with it),
// WOPKIT_TEST_CRASH_AFTER=n kills the process with SIGKILL at the n-th
// crash point (CrashPoint): of a journalled commit or of its recovery, of
// a registry transaction (internal/publish) or of its recovery. Release
// builds do not hold this file.
func init() {
	n, err := strconv.Atoi(os.Getenv("WOPKIT_TEST_CRASH_AFTER"))
	if err != nil || n <= 0 {
		return
	}
	count := 0
	crashPoint = func() {
		if count++; count == n {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is delivered; nothing more runs
		}
	}
}
