//go:build !linux

package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/openwop/wopkit/internal/proc"
	"github.com/openwop/wopkit/internal/werr"
)

// Notice is what `wopkit run` enforces here, printed before node starts
// (docs/SECURITY.md): there is no seccomp filter and no rlimits outside
// Linux.
const Notice = "wopkit run: on this system only node's permission model confines the pack " +
	"(reads inside the pack folder, writes in a temporary folder, no child processes, no worker threads), " +
	"with its heap capped and the process killed at the time limit. NOT enforced here: the network " +
	"(sockets and name lookups are open), the memory outside node's heap, CPU time, file sizes. " +
	"Run packs you do not trust on Linux."

// noticeOnce prints Notice once per process (a test's later processes
// run under the same terms).
var noticeOnce sync.Once

// sandboxSupported: Windows cannot pass the harness its channel (fd 4);
// the other systems run with node's permission model only.
func sandboxSupported() error {
	if runtime.GOOS == "windows" {
		return werr.New(werr.Env, "sandbox_unavailable", "wopkit run is not available on Windows: the harness's channel is an inherited file descriptor, which Windows does not pass").
			WithHint("run it under WSL 2 (Linux), where the sandbox is whole")
	}
	return nil
}

// startNode starts node with node's permission model only (see Notice).
func startNode(ctx context.Context, h *Host, args []string, stdin, out *os.File, stdout, stderr io.Writer) (procHandle, error) {
	if h.opts.Notice != nil {
		noticeOnce.Do(func() { fmt.Fprintln(h.opts.Notice, Notice) })
	}
	cmd := proc.Command(h.nodeBin, args, h.dir, []string{"TMPDIR=" + filepath.Join(h.tmp, "scratch"), "NO_COLOR=1"})
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	cmd.ExtraFiles = []*os.File{nil, out} // fd 3 unused, fd 4 the channel
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, werr.Wrap(werr.Env, "sandbox_unavailable", err, "node could not be started")
	}
	p := &plainProc{proc: cmd.Process, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	go func() {
		select {
		case <-ctx.Done():
			p.Kill()
		case <-p.done:
		}
	}()
	return p, nil
}

// plainProc is node started without the sandbox.
type plainProc struct {
	proc *os.Process
	done chan struct{}
	err  error
}

func (p *plainProc) Kill()                 { p.proc.Kill() }
func (p *plainProc) Done() <-chan struct{} { return p.done }
func (p *plainProc) Wait() error           { <-p.done; return p.err }

func isLimitKill(err error) bool { return errors.Is(err, errNever) }

var errNever = errors.New("never")

// exitStatus is the process's exit status, or -1.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
