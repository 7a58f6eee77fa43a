//go:build !linux

package sandbox

import (
	"context"
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
