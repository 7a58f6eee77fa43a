package smoke

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/openwop/wopkit/internal/proc"
	"github.com/openwop/wopkit/internal/sandbox"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

//go:embed harness.cjs
var harnessJS string

// Memory bounds one node process's private writable memory (RLIMIT_DATA);
// the V8 heap gets half.
const Memory = 512 << 20

// grace is how long past a call's own timeout the harness may take to say
// so before its process is killed (a call that blocks the event loop never
// lets the harness's timer fire).
const grace = 2 * time.Second

// importTimeout bounds importing the entry (OW017's bound).
var importTimeout = 10 * time.Second

// NodeCaller runs the pack's entry with node 20 or later in internal/sandbox
// (no sockets, no child processes, no writes, reads limited to the pack by
// node's permission model, an empty environment, CPU and memory limits),
// one process for all of a pack's nodes. When the process ends or is killed
// during a call, that call is Died and a new process goes on with the next
// node.
type NodeCaller struct{}

// Call implements Caller.
func (NodeCaller) Call(ctx context.Context, t Target) (*Observation, error) {
	nodeBin, err := proc.LookPath("node")
	if err != nil {
		return nil, werr.New(werr.Env, "runtime_unavailable", "node is not installed: the smoke test runs the pack's nodes with node 20 or later").
			WithHint("install node 20 or later (https://nodejs.org, or your package manager's nodejs) and put it on PATH")
	}
	if err := sandbox.Supported(); err != nil {
		return nil, werr.New(werr.Env, "sandbox_unavailable", "the pack's nodes were not run: wopkit runs pack code only in its sandbox, which cannot be set up here: %v", err).
			WithHint("run the smoke test on Linux (amd64 or arm64)")
	}
	flag := validate.NodePermissionFlag(nodeBin)
	if flag == "" {
		return nil, werr.New(werr.Env, "runtime_unavailable", "this node has no permission model (node 20 or later has one), which the smoke test needs to keep reads inside the pack").
			WithHint("install node 20 or later")
	}
	dir, err := filepath.EvalSymlinks(t.Dir)
	if err == nil {
		dir, err = filepath.Abs(dir)
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot resolve the pack folder %s", t.Dir)
	}
	if strings.ContainsAny(dir, "*,") {
		return nil, werr.New(werr.Invalid, "sandbox_capability_denied", "the pack's folder %q has a * or a comma in its path, which node's --allow-fs-read would read as a pattern", dir).
			WithHint("copy or move the pack to a folder whose path has no * and no comma")
	}
	escapes, err := sandbox.CheckTree(dir, 1)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot check the pack folder %s for links out of it", dir)
	}
	if len(escapes) > 0 {
		return nil, werr.New(werr.Invalid, "sandbox_capability_denied", "the pack's nodes were not run: %s in the pack is %s", escapes[0].Path, escapes[0].Reason).
			WithHint("node limits reads by path, so the code could read through it what it leads to: replace it with a regular file (a copy)")
	}
	timeout := t.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	obs := &Observation{}
	ids, err := json.Marshal(t.TypeIDs)
	if err != nil {
		return nil, err
	}
	next := 0
	for first := true; first || next < len(t.TypeIDs); first = false {
		r := run{
			ctx: ctx, node: nodeBin, flag: flag, dir: dir, entry: filepath.Join(dir, filepath.FromSlash(t.Entry)),
			ids: string(ids), count: len(t.TypeIDs), skip: next, timeout: timeout,
		}
		done, err := r.start(obs)
		if err != nil {
			return nil, err
		}
		if obs.ImportError != "" || obs.NodesExport != "" && obs.NodesExport != "object" || done {
			break
		}
		// The process ended early: the call it was in (or, between calls,
		// the next one) died with it; a new process goes on after it.
		if len(obs.Calls) < len(t.TypeIDs) {
			obs.Calls = append(obs.Calls, Call{Export: "function", Outcome: Died, Code: r.code, Message: r.why})
		}
		next = len(obs.Calls)
	}
	return obs, nil
}

// DefaultTimeout is how long one node's call may take to settle.
const DefaultTimeout = 10 * time.Second

// run is one node process.
type run struct {
	ctx             context.Context
	node, flag, dir string
	entry, ids      string
	count, skip     int
	timeout         time.Duration
	code, why       string // why the process ended early
	mu              sync.Mutex
	events          chan event
	nonce           []byte
	pending         []byte
	discarding      bool
}

type event struct {
	T       string `json:"t"`
	I       int    `json:"i"`
	Error   string `json:"error"`
	Nodes   string `json:"nodes"`
	Default string `json:"default"`
	Export  string `json:"export"`
	Message string `json:"message"`
	Outcome string `json:"outcome"`
	Result  string `json:"result"`
	Has     bool   `json:"hasOutputs"`
	Thrown  string `json:"thrown"`
	Code    string `json:"code"`
}

// maxLine bounds one line the harness reads from node's output; longer
// lines (the pack's own prints) are skipped.
const maxLine = 64 << 10

// Write parses node's standard output: the harness's lines start with the
// nonce; the pack's own output is skipped.
func (r *run) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if !r.discarding {
				if len(r.pending)+len(p) > maxLine {
					r.discarding, r.pending = true, r.pending[:0]
				} else {
					r.pending = append(r.pending, p...)
				}
			}
			break
		}
		line := p[:i]
		if !r.discarding {
			if len(r.pending) > 0 {
				line = append(r.pending, line...)
			}
			r.line(line)
		}
		r.pending, r.discarding = r.pending[:0], false
		p = p[i+1:]
	}
	return n, nil
}

func (r *run) line(l []byte) {
	rest, ok := bytes.CutPrefix(l, r.nonce)
	if !ok || len(rest) == 0 || rest[0] != ' ' {
		return
	}
	var e event
	if untrusted.DecodeJSON(rest[1:], &e) != nil {
		return
	}
	select {
	case r.events <- e:
	default: // the harness never sends more than two lines per node
	}
}

// start runs one node process from r.skip on, adding what it reports to
// obs. It returns whether the harness finished; when it did not, r.code and
// r.why say why the process ended.
func (r *run) start(obs *Observation) (bool, error) {
	var nb [16]byte
	if _, err := rand.Read(nb[:]); err != nil {
		return false, err
	}
	r.nonce = []byte("wopkit-smoke-" + hex.EncodeToString(nb[:]))
	n := r.count
	r.events = make(chan event, 2*n+8)
	stderr := &tail{max: 4096}
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	// CPU: the import, then every call at most its timeout and the grace.
	budget := importTimeout + time.Duration(n-r.skip+1)*(r.timeout+grace)
	cmd := &sandbox.Cmd{
		Path: r.node,
		Args: []string{
			fmt.Sprintf("--max-old-space-size=%d", Memory>>21), r.flag,
			"--allow-fs-read=" + r.dir + string(filepath.Separator) + "*",
			"-e", harnessJS, string(r.nonce), r.entry, r.ids, strconv.Itoa(r.skip), strconv.FormatInt(r.timeout.Milliseconds(), 10),
		},
		Dir:    r.dir,
		Env:    []string{"NODE_OPTIONS=", "NO_COLOR=1"},
		Stdout: r,
		Stderr: stderr,
		Limits: sandbox.Limits{Timeout: budget, CPU: budget, Memory: Memory},
	}
	exited := make(chan error, 1)
	go func() { exited <- sandbox.Run(ctx, cmd) }()
	watch := time.NewTimer(importTimeout)
	defer watch.Stop()
	var stuck string // what the watchdog killed
	stuckWhat := "importing the entry"
	handle := func(e event) (done bool) {
		switch e.T {
		case "import":
			obs.ImportError = e.Error
		case "exports":
			obs.NodesExport, obs.DefaultExport = e.Nodes, e.Default
			watch.Reset(r.timeout + grace)
		case "start":
			stuckWhat = "the call"
			watch.Reset(r.timeout + grace)
		case "result":
			for len(obs.Calls) < e.I {
				obs.Calls = append(obs.Calls, Call{Export: "function", Outcome: Died, Code: "sandbox_invocation_error", Message: "not reported by the harness"})
			}
			if len(obs.Calls) == e.I {
				c := Call{Export: "function", Outcome: e.Outcome, Result: e.Result, HasOutputs: e.Has, Thrown: e.Thrown, Code: e.Code, Message: e.Message}
				if e.Export != "" {
					c = Call{Export: e.Export, Message: e.Message}
				}
				obs.Calls = append(obs.Calls, c)
			}
			stuckWhat = "after the call"
			watch.Reset(r.timeout + grace)
		case "done":
			return true
		}
		return false
	}
	done := false
	var runErr error
loop:
	for {
		select {
		case e := <-r.events:
			if handle(e) {
				done = true
			}
		case <-watch.C:
			stuck = stuckWhat
			cancel()
		case runErr = <-exited:
			break loop
		}
	}
	for { // what was written before the process ended
		select {
		case e := <-r.events:
			if handle(e) {
				done = true
			}
			continue
		default:
		}
		break
	}
	var se *sandbox.SetupError
	if errors.As(runErr, &se) {
		return false, werr.New(werr.Env, "sandbox_unavailable", "the pack's nodes were not run: %v", se).
			WithHint("wopkit runs pack code only in its sandbox; see why it cannot be set up here")
	}
	if r.ctx.Err() != nil {
		return false, werr.Wrap(werr.Env, "interrupted", r.ctx.Err(), "the smoke test was interrupted")
	}
	if done || obs.ImportError != "" {
		return done, nil
	}
	msg := strings.TrimSpace(stderr.String())
	switch {
	case stuck != "":
		r.code, r.why = "sandbox_timeout", fmt.Sprintf("killed: %s had not ended %s after its %s timeout (it blocks the event loop)", stuck, grace, r.timeout)
		if stuck == "importing the entry" {
			r.code, r.why = "sandbox_timeout", fmt.Sprintf("killed: importing the entry took more than %s", importTimeout)
		}
	case errors.Is(runErr, sandbox.ErrTimeout):
		r.code, r.why = "sandbox_timeout", "killed at the time limit"
	case strings.Contains(msg, "out of memory") || strings.Contains(msg, "allocation failed"):
		r.code, r.why = "sandbox_memory_exceeded", fmt.Sprintf("node ran out of memory (the limit is %d MiB)", Memory>>20)
	case errors.Is(runErr, sandbox.ErrLimit):
		r.code, r.why = "sandbox_memory_exceeded", fmt.Sprintf("killed at a resource limit (%d MiB of memory, or CPU time): %v", Memory>>20, runErr)
	case runErr == nil:
		r.code, r.why = "sandbox_invocation_error", "the process exited with status 0 before the harness reported (the code called process.exit?)"
	default:
		r.code, r.why = "sandbox_invocation_error", "the process ended: "+runErr.Error()
		if line := firstLine(msg); line != "" {
			r.why += ": " + line
		}
	}
	if obs.NodesExport == "" {
		obs.ImportError, obs.ImportCode = r.why, r.code
	}
	return false, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// tail keeps the first max bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.buf.Len(); room > 0 {
		t.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
