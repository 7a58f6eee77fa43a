package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// sentinel is set in the environment of the re-executed binary: its value
// is the protocol version the child's init understands.
const sentinel = "WOPKIT_SANDBOX_CHILD"

// statusFD is the child's end of the pipe on which it reports a failure to
// set up the sandbox; it is close-on-exec, so an exec that succeeds closes
// it with nothing written.
const statusFD = 3

// namespacesOff is set once the kernel refused the namespaces: later runs do
// not try them again. Tests set it to run without them.
var namespacesOff atomic.Bool

const nsFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID

// Supported reports why the sandbox cannot be set up here, or nil.
func Supported() error {
	if auditArch == 0 {
		return fmt.Errorf("the seccomp filter is written for linux/amd64 and linux/arm64, not linux/%s", runtime.GOARCH)
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prGetSeccomp, 0, 0); e != 0 {
		return fmt.Errorf("this kernel has no seccomp (prctl: %v)", e)
	}
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		return fmt.Errorf("cannot re-execute wopkit: %v", err)
	}
	return nil
}

// Run runs c in the sandbox and waits for it. It returns nil when the
// program exits with status 0, ErrTimeout when it was killed at the time
// limit, a *SetupError when the sandbox could not be set up (the program
// did not start), ctx's error when ctx ended first, ErrLimit when it was
// killed at its CPU limit, and an *exec.ExitError otherwise.
func Run(ctx context.Context, c *Cmd) error {
	p, err := Start(ctx, c)
	if err != nil {
		return err
	}
	return p.Wait()
}

// Process is a program Start started in the sandbox.
type Process struct {
	pid  int
	kill chan struct{} // closed by Kill
	once sync.Once
	done chan struct{} // closed when the program is gone and err is set
	err  error
}

// Start starts c in the sandbox and returns at once; Wait waits for it.
// The program is killed (its whole process group) at c.Limits.Timeout,
// when ctx ends, and when Kill is called. A *SetupError means the program
// did not start.
func Start(ctx context.Context, c *Cmd) (*Process, error) {
	if err := Supported(); err != nil {
		return nil, &SetupError{Reason: err.Error()}
	}
	if !filepath.IsAbs(c.Path) {
		return nil, &SetupError{Reason: fmt.Sprintf("program path %q is not absolute", c.Path)}
	}
	if c.Limits.Timeout <= 0 {
		return nil, &SetupError{Reason: "no time limit"}
	}
	p := &Process{kill: make(chan struct{}), done: make(chan struct{})}
	started := make(chan error, 1)
	go p.supervise(ctx, c, started)
	if err := <-started; err != nil {
		return nil, err
	}
	return p, nil
}

// Pid is the program's process id (the leader of its process group).
func (p *Process) Pid() int { return p.pid }

// Kill kills the program's process group now (Wait then returns
// ErrKilled); it does nothing once the program is gone.
func (p *Process) Kill() { p.once.Do(func() { close(p.kill) }) }

// Done is closed when the program has ended and Wait returns at once.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the program to end and returns why, as Run does (ErrKilled
// when Kill ended it).
func (p *Process) Wait() error {
	<-p.done
	return p.err
}

// ErrKilled is returned by Wait when Kill ended the program.
var ErrKilled = errors.New("killed by its caller")

// supervise starts the program, reports the start on started, and waits.
// The parent-death signal fires when the thread that started the child
// exits: this goroutine stays on one thread until the child is gone.
func (p *Process) supervise(ctx context.Context, c *Cmd, started chan<- error) {
	defer close(p.done)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd, status, err := start(c, !namespacesOff.Load())
	if err != nil && !namespacesOff.Load() && nsRefused(err) {
		namespacesOff.Store(true)
		cmd, status, err = start(c, false)
	}
	if err != nil {
		p.err = &SetupError{Reason: err.Error()}
		started <- p.err
		return
	}
	defer status.Close()
	pid := cmd.Process.Pid
	p.pid = pid
	started <- nil
	exited := make(chan struct{})
	go func() { waitNoReap(pid); close(exited) }()
	timer := time.NewTimer(c.Limits.Timeout)
	defer timer.Stop()
	var stop error
	select {
	case <-exited:
	case <-timer.C:
		stop = ErrTimeout
	case <-ctx.Done():
		stop = ctx.Err()
	case <-p.kill:
		stop = ErrKilled
	}
	// The leader is not reaped yet, so its pid (the group's id) cannot have
	// been reused: this reaches the group and nothing else.
	syscall.Kill(-pid, syscall.SIGKILL)
	werr := cmd.Wait()
	msg, _ := io.ReadAll(io.LimitReader(status, 4096))
	switch {
	case len(msg) > 0:
		p.err = &SetupError{Reason: string(bytes.TrimSpace(msg))}
		return
	case stop != nil:
		p.err = stop
		return
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && (ws.Signal() == syscall.SIGXCPU || ws.Signal() == syscall.SIGKILL) {
			p.err = fmt.Errorf("%w: %w", ErrLimit, werr)
			return
		}
	}
	p.err = werr
}

// start re-executes this binary as the sandbox's child for c, with the
// namespaces when ns is set.
func start(c *Cmd, ns bool) (*exec.Cmd, *os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	defer w.Close()
	args := []string{"wopkit-sandbox",
		strconv.FormatUint(c.Limits.cpuSeconds(), 10),
		strconv.FormatUint(c.Limits.memory(), 10),
		strconv.FormatUint(c.Limits.FileSize, 10),
		map[bool]string{true: "net", false: "nonet"}[c.AllowNetwork],
		c.Path}
	cmd := &exec.Cmd{
		Path:       "/proc/self/exe",
		Args:       append(args, c.Args...),
		Dir:        c.Dir,
		Env:        append(append([]string{}, c.Env...), sentinel+"=1"),
		Stdin:      c.Stdin,
		Stdout:     c.Stdout,
		Stderr:     c.Stderr,
		ExtraFiles: append([]*os.File{w}, c.ExtraFiles...),
		WaitDelay:  time.Second,
		SysProcAttr: &syscall.SysProcAttr{
			Setpgid:   true,
			Pdeathsig: syscall.SIGKILL,
		},
	}
	if ns {
		uid, gid := os.Getuid(), os.Getgid()
		cmd.SysProcAttr.Cloneflags = nsFlags
		if c.AllowNetwork {
			cmd.SysProcAttr.Cloneflags &^= syscall.CLONE_NEWNET
		}
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		cmd.SysProcAttr.GidMappingsEnableSetgroups = false
	}
	if err := cmd.Start(); err != nil {
		r.Close()
		return nil, nil, err
	}
	return cmd, r, nil
}

// nsRefused reports whether a start failed because the kernel (or a
// container's policy) refused the namespaces.
func nsRefused(err error) bool {
	for _, e := range []error{syscall.EPERM, syscall.EINVAL, syscall.ENOSPC, syscall.EUSERS, syscall.EACCES, syscall.ENOSYS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// waitNoReap blocks until the process pid has exited, leaving it a zombie
// (waitid with WNOWAIT) so that its pid stays taken.
func waitNoReap(pid int) {
	const pPID, wNoWait = 1, 0x01000000
	var info [128]byte
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|wNoWait, 0, 0)
		if e != syscall.EINTR {
			return
		}
	}
}
