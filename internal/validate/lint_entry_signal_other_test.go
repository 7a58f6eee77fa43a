//go:build !unix

package validate_test

import "os"

// resume does nothing: there is no SIGSTOP to undo where there are no Unix
// signals.
func resume(*os.Process) {}

// killPid kills the process pid (one the test found left behind).
func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
