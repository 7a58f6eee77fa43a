package run

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/openwop/wopkit/internal/sandbox"
	"github.com/openwop/wopkit/internal/werr"
)

// sandboxSupported says why the sandbox cannot be set up here.
func sandboxSupported() error {
	if err := sandbox.Supported(); err != nil {
		return werr.Wrap(werr.Env, "sandbox_unavailable", err, "wopkit runs a pack's code only in its sandbox, which cannot be set up here").
			WithHint("run it on Linux (amd64 or arm64) with seccomp")
	}
	return nil
}

// startNode starts node under internal/sandbox: no sockets (unless
// AllowNet), no signals out, its
// own process group, RLIMIT_DATA at twice the heap plus 256 MiB (node's own
// memory, buffers), files written up to MaxOutput, an environment of
// TMPDIR only. stdin is the request pipe, out becomes fd 4.
func startNode(ctx context.Context, h *Host, args []string, stdin, out *os.File, stdout, stderr io.Writer) (procHandle, error) {
	p, err := sandbox.Start(ctx, &sandbox.Cmd{
		Path:         h.nodeBin,
		Args:         args,
		Dir:          h.dir,
		Env:          []string{"TMPDIR=" + filepath.Join(h.tmp, "scratch"), "NO_COLOR=1"},
		Stdin:        stdin,
		Stdout:       stdout,
		Stderr:       stderr,
		ExtraFiles:   []*os.File{out},
		AllowNetwork: h.opts.AllowNet,
		Limits: sandbox.Limits{
			Timeout:  24 * time.Hour, // each call has its own limit (Host.Call)
			CPU:      time.Hour,
			Memory:   2*h.opts.Memory + 256<<20,
			FileSize: MaxOutput,
		},
	})
	if err != nil {
		return nil, werr.Wrap(werr.Env, "sandbox_unavailable", err, "node could not be started in the sandbox")
	}
	return p, nil
}

// isLimitKill reports whether the process was killed at a resource limit.
func isLimitKill(err error) bool { return errors.Is(err, sandbox.ErrLimit) }

// exitStatus is the process's exit status, or -1.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Exited() {
			return ws.ExitStatus()
		}
	}
	return -1
}
