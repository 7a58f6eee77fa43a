// Package proctest looks at processes from a test, through Linux's /proc:
// whether a process is stopped, and which processes a run left behind.
package proctest

import (
	"os"
	"strconv"
	"strings"
)

// State is the state letter of process pid ("R", "S", "T" for stopped,
// ...), "" when there is no such process (or no /proc).
func State(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i > 0 && i+3 <= len(s) {
		return s[i+2 : i+3]
	}
	return ""
}

// Find returns the pids, other than this process, whose command line
// (its arguments joined by NUL bytes) contains s.
func Find(s string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && strings.Contains(string(b), s) {
			pids = append(pids, pid)
		}
	}
	return pids
}
