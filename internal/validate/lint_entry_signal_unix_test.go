//go:build unix

package validate_test

import (
	"os"
	"syscall"
)

// resume lets a stopped process (SIGSTOP) run again, so that it can be
// killed and reaped.
func resume(p *os.Process) { p.Signal(syscall.SIGCONT) }

// killPid kills the process pid (one the test found left behind).
func killPid(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
