// Package sandbox runs one untrusted program (OW017: a pack's JavaScript
// under node) with limits the kernel enforces, and refuses to run it where
// it cannot set them up.
//
// On Linux (amd64 and arm64) Run re-executes the current binary
// (/proc/self/exe) with a sentinel environment variable; this package's
// init sees the sentinel and, before the program is started, sets the
// rlimits (CPU seconds, data segment, no file writes, no core), sets
// PR_SET_NO_NEW_PRIVS and installs a seccomp-BPF filter, then execs the
// program in place. The filter makes these fail with EPERM: creating or
// connecting sockets (socket, socketpair, connect, bind, listen, accept,
// sendto, sendmsg; allowed with Cmd.AllowNetwork), signalling any process but the program's own
// (kill/tgkill/tkill/rt_sigqueueinfo to another pid, pidfd_send_signal,
// pidfd_open), leaving the process group (setsid, setpgid), raising or
// setting rlimits (setrlimit, prlimit64 with a new limit), new namespaces,
// ptrace and process_vm_*, io_uring (it bypasses the filter), terminal
// input injection (TIOCSTI, TIOCLINUX), mounts, modules, keyrings and bpf. The program runs as the leader of its own
// process group, with SIGKILL as its parent-death signal; at the timeout,
// and after it exits, the whole group is killed with SIGKILL. Where the
// kernel lets this user create them, the program also gets its own user,
// network (no interface is up) and PID namespaces (everything in them dies
// with it); where it does not, Run goes on without them.
//
// Any failure to set up a limit stops the program before it starts
// (SetupError). Elsewhere Supported reports why nothing can run.
//
// The package imports only the standard library, so that in the re-executed
// binary its init runs early; the init functions of the packages Go
// initialises before it (in wopkit about 160, mostly the standard library,
// under 2 ms) run before the limits are set, in the child's environment.
//
// What it does not do: it does not drop root's capabilities outside a user
// namespace (the filter refuses the syscalls that need them most), it
// does not restrict reading files (the caller's job: node's permission
// model and CheckTree for OW017), and it cannot stop a kernel bug.
package sandbox

import (
	"errors"
	"io"
	"os"
	"time"
)

// DefaultMemory is the data-segment limit (RLIMIT_DATA) when
// Limits.Memory is zero: node 20 starts in about 40 MiB.
const DefaultMemory = 512 << 20

// Limits bound one run.
type Limits struct {
	// Timeout is the wall-clock bound: at it the whole process group is
	// killed and Run returns ErrTimeout. It must be positive.
	Timeout time.Duration
	// CPU is the CPU-time bound (RLIMIT_CPU, whole seconds, rounded up;
	// SIGXCPU at it, SIGKILL a second later); zero means Timeout.
	CPU time.Duration
	// Memory bounds the private writable memory in bytes (RLIMIT_DATA:
	// heap, anonymous mappings, thread stacks); zero means DefaultMemory.
	Memory uint64
	// FileSize is the largest file the program may write (RLIMIT_FSIZE);
	// zero means it may write none. A write past it raises SIGXFSZ, which
	// ends a program that does not handle it.
	FileSize uint64
}

// Cmd is one program to run in the sandbox.
type Cmd struct {
	Path   string   // absolute path of the program
	Args   []string // arguments after the program name
	Dir    string   // working directory
	Env    []string // the whole environment (nothing is inherited)
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// ExtraFiles are open files the program inherits, as file descriptors
	// 4, 5, … (3 is the sandbox's own status pipe, closed at the exec).
	ExtraFiles []*os.File
	// AllowNetwork lets the program create and use sockets (the filter's
	// network syscalls are allowed and no network namespace is made);
	// everything else is refused as without it.
	AllowNetwork bool
	Limits       Limits
}

// ErrTimeout is returned when the program was killed at Limits.Timeout.
var ErrTimeout = errors.New("killed at the time limit")

// ErrLimit is returned (wrapping the *exec.ExitError) when the program was
// killed at its CPU-time limit (SIGXCPU), or by SIGKILL that Run did not
// send (the CPU hard limit, or the kernel short of memory).
var ErrLimit = errors.New("killed at a resource limit")

// SetupError is returned when the sandbox could not be set up: the program
// was not started.
type SetupError struct {
	Reason string
}

func (e *SetupError) Error() string { return "sandbox not set up: " + e.Reason }

// cpuSeconds is the RLIMIT_CPU soft limit for l.
func (l Limits) cpuSeconds() uint64 {
	d := l.CPU
	if d <= 0 {
		d = l.Timeout
	}
	s := uint64((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

func (l Limits) memory() uint64 {
	if l.Memory == 0 {
		return DefaultMemory
	}
	return l.Memory
}
