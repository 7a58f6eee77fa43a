//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// Supported reports why the sandbox cannot be set up here: it needs Linux
// (rlimits, seccomp-BPF, process groups with a parent-death signal).
func Supported() error {
	return fmt.Errorf("the sandbox needs Linux (seccomp, rlimits, a parent-death signal); this is %s/%s", runtime.GOOS, runtime.GOARCH)
}

// Run refuses: see Supported.
func Run(ctx context.Context, c *Cmd) error {
	return &SetupError{Reason: Supported().Error()}
}

// Process is a program Start started; there is none here.
type Process struct{}

// Start refuses: see Supported.
func Start(ctx context.Context, c *Cmd) (*Process, error) {
	return nil, &SetupError{Reason: Supported().Error()}
}

// Pid is 0: nothing runs here.
func (p *Process) Pid() int { return 0 }

// Kill does nothing: nothing runs here.
func (p *Process) Kill() {}

// Done is closed: nothing runs here.
func (p *Process) Done() <-chan struct{} { c := make(chan struct{}); close(c); return c }

// Wait returns at once: nothing runs here.
func (p *Process) Wait() error { return &SetupError{Reason: Supported().Error()} }

// ErrKilled is returned by Wait when Kill ended the program.
var ErrKilled = errors.New("killed by its caller")
