//go:build unix

package run

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) of this process and of its
// waited-for children: a measure the other sessions on a shared machine
// disturb less than the wall clock.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}
