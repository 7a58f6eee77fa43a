package run

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/proc"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Host is one pack's JavaScript served by node under the sandbox: the Go
// API `wopkit run`, `wopkit test` and `wopkit test --smoke` share.
//
// NewHost checks the pack folder and node, and writes the harness into a
// temporary folder of its own; the first Call starts one node process
// (sandboxed: see start_linux.go), which then serves every later Call. Each
// Call imports the pack's runtime.entry afresh (the entry's URL with a
// query of its own, so its top-level code runs again and its module state
// is new; modules the entry imports, and the global objects, are shared by
// the calls of one process: this is the "fresh module context per case",
// not a fresh process). A Call that ends the process (its time limit, its
// memory, a crash, a line on wopkit's channel that the harness did not
// write) returns its failure, and the next Call starts a new process.
//
// A Host is not safe for concurrent Calls. Close kills node and removes the
// temporary folder.
//
//	h, err := run.NewHost(run.HostOptions{Dir: packDir, Entry: "index.mjs"})
//	if err != nil { ... }            // a *werr.Error: runtime_unavailable, sandbox_unavailable, …
//	defer h.Close()
//	o, err := h.Call(ctx, run.Call{TypeID: id, Minimal: true})
//	// o.Status: "success" | "failure" | "suspended"; o.Error.Code on failure
type Host struct {
	opts    HostOptions
	nodeBin string
	permFlg string
	tmp     string // the host's temporary folder: harness.mjs, scratch/
	rmTmp   func() // removes tmp (atomicfile.TempDir)
	harness string
	dir     string // the pack folder, resolved
	p       *nodeProc
	nextID  int
}

// HostOptions configure a Host.
type HostOptions struct {
	Dir      string        // the pack folder
	Entry    string        // runtime.entry, relative to Dir ("" = index.mjs)
	Timeout  time.Duration // per Call (0 = DefaultTimeout)
	Memory   uint64        // bytes, node's heap and the process's data (0 = DefaultMemory)
	AllowNet bool          // sockets and name lookups allowed
	// Notice, when set, receives what the sandbox enforces and does not,
	// where that is less than on Linux, before node first starts.
	Notice io.Writer
}

// Call is one invocation of one node.
type Call struct {
	TypeID string
	// Minimal calls the node with the registry smoke test's context and
	// nothing else: {runId:'r-test', nodeId:'n-test', config:{}, inputs:{},
	// triggerData:{}, log(){}} (Ctx, Mocks, Secrets and Resume are ignored).
	Minimal bool
	// Ctx holds the data members of ctx (runId, nodeId, inputs, config, …);
	// BuildCtx fills the defaults a host would.
	Ctx       map[string]any
	Mocks     map[string]any    // host surfaces: {surface: {method: [answer, …]}}; dotted names nest
	Secrets   map[string]string // ref -> value (ctx.secrets and ctx.secrets.resolve)
	Variables map[string]any    // ctx.variables' initial values
	Resume    any               // with HasResume: what suspend/interrupt return
	HasResume bool
}

// Outcome is what one Call did.
type Outcome struct {
	Status    string          `json:"status"` // success | failure | suspended
	Outputs   json.RawMessage `json:"outputs"`
	Error     *CallError      `json:"error"`
	Interrupt *Interrupt      `json:"interrupt"`
	Events    []Event         `json:"events"`
	Logs      []Log           `json:"logs"`
	// Export, on a pack_load_failure, says what the entry lacked:
	// "no-nodes" (no `nodes` object), "default-only" (the node only in the
	// default export), "missing" (no function under the typeId).
	Export string `json:"-"`
	// Returned is set when the failure is the node's return value (not a
	// throw); Thrown when it threw.
	Returned bool `json:"-"`
	Thrown   bool `json:"-"`
	// For the smoke test: ResultKind is the kind of a failing return value
	// ("number", "undefined", "object", "array", …) and HasOutputs whether
	// it has an `outputs` key; ThrownKind is the kind of what a node threw
	// ("object", "null", "undefined", "string", …).
	ResultKind string `json:"-"`
	HasOutputs bool   `json:"-"`
	ThrownKind string `json:"-"`
	// Stdout and Stderr are what node wrote there (the first 64 KiB each).
	// Notes are what the caller adds to the report's warnings.
	Notes           []string      `json:"-"`
	Stdout          string        `json:"-"`
	Stderr          string        `json:"-"`
	Duration        time.Duration `json:"-"`
	PeakMemoryBytes uint64        `json:"-"`
}

// CallError is a failure's code and message.
type CallError struct {
	Code     string  `json:"code"`
	Message  string  `json:"message"`
	PackCode *string `json:"packCode"`
	// Denied names what the sandbox refused (FileSystemRead, network, …).
	Denied string `json:"-"`
	// Capability is the capability a host_capability_missing error names
	// (its .capability), when it names one.
	Capability string `json:"-"`
}

// Interrupt is a suspension's payload.
type Interrupt struct {
	Kind string `json:"kind"`
	Data any    `json:"data"`
}

// Event is one ctx.emit, in any of its three shapes.
type Event struct {
	Type    string `json:"type"`
	Payload any    `json:"payload"`
	Shape   string `json:"shape"` // positional | type-data | kind-payload
}

// Log is one ctx.log.
type Log struct {
	Level   string `json:"level"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// DefaultTimeout and DefaultMemory are the contract's defaults (v2
// core/security-defaults.md: 30 s, 256 MB per invocation).
const (
	DefaultTimeout = 30 * time.Second
	DefaultMemory  = 256 << 20
)

// MaxOutput bounds what wopkit keeps of a node: the outputs' JSON, and
// what it writes to standard output (past it the process is stopped).
const MaxOutput = 16 << 20

const (
	maxEvents   = 1000
	maxLogs     = 1000
	keepStdio   = 64 << 10
	killGrace   = time.Second // after the harness's own timer, wopkit kills
	maxFrameLen = MaxOutput + 1<<20
)

// NewHost prepares a Host for the pack in o.Dir (see Host). Errors are
// *werr.Error: runtime_unavailable (no node 20 or later, exit 3),
// sandbox_unavailable (the sandbox cannot be set up here), pack_unreadable.
func NewHost(o HostOptions) (*Host, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Memory == 0 {
		o.Memory = DefaultMemory
	}
	if o.Entry == "" {
		o.Entry = "index.mjs"
	}
	if err := sandboxSupported(); err != nil {
		return nil, err
	}
	nodeBin, flag, err := findNode()
	if err != nil {
		return nil, err
	}
	dir, err := filepath.EvalSymlinks(o.Dir)
	if err == nil {
		dir, err = filepath.Abs(dir)
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot open the pack folder %s", o.Dir)
	}
	if strings.ContainsAny(dir, "*,") {
		return nil, werr.New(werr.Invalid, "sandbox_unavailable", "the pack's folder %q has a * or a comma in its path, which node's --allow-fs-read would read as a pattern", dir).
			WithHint("copy or move the pack to a folder whose path has neither, and run it there")
	}
	if err := checkTree(dir); err != nil {
		return nil, err
	}
	tmp, rmTmp, err := atomicfile.TempDir("wopkit-run-")
	if err != nil {
		return nil, err
	}
	if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		rmTmp()
		return nil, werr.Wrap(werr.Env, "temp_unwritable", err, "cannot resolve the temporary folder")
	}
	h := &Host{opts: o, nodeBin: nodeBin, permFlg: flag, tmp: tmp, rmTmp: rmTmp, dir: dir, harness: filepath.Join(tmp, "harness.mjs")}
	if err := writeHarness(h.harness, filepath.Join(tmp, "scratch")); err != nil {
		rmTmp()
		return nil, werr.Wrap(werr.Env, "temp_unwritable", err, "cannot write the harness into %s", tmp)
	}
	return h, nil
}

// Close kills node and removes the Host's temporary folder.
func (h *Host) Close() error {
	if h.p != nil {
		h.p.kill()
		h.p = nil
	}
	h.rmTmp()
	return nil
}

// Call runs one node once and returns what it did. The error is an
// environment failure (node or the sandbox would not start: a
// *werr.Error); everything the pack did is in the Outcome.
func (h *Host) Call(ctx context.Context, c Call) (*Outcome, error) {
	if h.p == nil || h.p.dead() {
		if h.p != nil {
			h.p.kill()
		}
		p, err := h.startProc(ctx)
		if err != nil {
			return nil, err
		}
		h.p = p
	}
	h.nextID++
	o, fatal := h.p.call(ctx, h.nextID, c, h.opts)
	if fatal {
		h.p.kill()
		h.p = nil
	}
	return o, nil
}

// request is one line to the harness.
type request struct {
	ID        int               `json:"id"`
	TypeID    string            `json:"typeId"`
	Minimal   bool              `json:"minimal,omitempty"`
	Ctx       map[string]any    `json:"ctx,omitempty"`
	Mocks     map[string]any    `json:"mocks,omitempty"`
	Secrets   map[string]string `json:"secrets,omitempty"`
	Variables map[string]any    `json:"variables,omitempty"`
	Resume    any               `json:"resume,omitempty"`
	HasResume bool              `json:"hasResume,omitempty"`
	TimeoutMs int64             `json:"timeoutMs"`
	AllowNet  bool              `json:"allowNet,omitempty"`
}

// frame is one line from the harness (after the nonce).
type frame struct {
	ID              int             `json:"id"`
	T               string          `json:"t"`
	Status          string          `json:"status"`
	Outputs         json.RawMessage `json:"outputs"`
	Code            string          `json:"code"`
	Message         string          `json:"message"`
	PackCode        *string         `json:"packCode"`
	Denied          string          `json:"denied"`
	Capability      string          `json:"capability"`
	Export          string          `json:"export"`
	Returned        bool            `json:"returned"`
	Thrown          bool            `json:"thrown"`
	Kind            string          `json:"kind"`
	HasOutputs      bool            `json:"hasOutputs"`
	ThrownKind      string          `json:"thrownKind"`
	Interrupt       *Interrupt      `json:"interrupt"`
	Type            string          `json:"type"`
	Shape           string          `json:"shape"`
	Payload         any             `json:"payload"`
	Level           string          `json:"level"`
	Data            any             `json:"data"`
	PeakMemoryBytes uint64          `json:"peakMemoryBytes"`
	// Permission (on the ready frame): node's permission model is on.
	Permission bool `json:"permission"`
	// Restart is set when the call changed the built-in objects: the
	// process serves no other call.
	Restart bool `json:"restart"`
}

// nodeProc is one running node with its harness.
type nodeProc struct {
	proc   procHandle
	stdin  io.WriteCloser
	frames chan frameOrErr
	nonce  string
	stdout *capBuffer
	stderr *capBuffer
	ended  chan struct{} // closed when the process is gone
	memory uint64
	waitMu sync.Mutex
	werr   error
}

type frameOrErr struct {
	f    *frame
	err  string // a line that is not a frame of the harness
	code string // sandbox_escape_attempt (no nonce) or sandbox_invocation_error
}

// procHandle is the started process (sandbox.Process on Linux).
type procHandle interface {
	Kill()
	Wait() error
	Done() <-chan struct{}
}

// startProc starts node on the harness and waits for it to be ready. A
// node that does not know the permission flag is started again with the
// other one; one that knows neither is runtime_unavailable.
func (h *Host) startProc(ctx context.Context) (*nodeProc, error) {
	for {
		p, err := h.startOnce(ctx)
		if err != nil {
			return nil, err
		}
		ready, perm := p.waitReady()
		if ready && perm {
			permMu.Lock()
			permFlags[h.nodeBin] = h.permFlg
			permMu.Unlock()
			return p, nil
		}
		p.kill()
		stderr := p.stderr.peek()
		if ready || !strings.Contains(stderr, "bad option") {
			if ready {
				return nil, noPermissionModel(h.nodeBin)
			}
			return nil, werr.New(werr.Env, "sandbox_unavailable", "node stopped before the harness was ready: %s", firstLine(stderr)).
				WithHint("run `node --version` (20 or later is needed); if the sandbox refuses node here, see docs/SECURITY.md")
		}
		switch h.permFlg {
		case permissionFlags[0]:
			h.permFlg = permissionFlags[1]
		default:
			return nil, noPermissionModel(h.nodeBin)
		}
	}
}

// waitReady waits for the harness's first frame: whether it came, and
// whether node's permission model is on (reads of / refused).
func (p *nodeProc) waitReady() (ready, perm bool) {
	select {
	case fe, ok := <-p.frames:
		if !ok || fe.f == nil || fe.f.T != "ready" {
			return false, false
		}
		return true, fe.f.Permission
	case <-time.After(30 * time.Second):
		return false, false
	}
}

func (h *Host) startOnce(ctx context.Context) (*nodeProc, error) {
	nonce := make([]byte, 24)
	if _, err := rand.Read(nonce); err != nil {
		return nil, werr.Wrap(werr.Env, "sandbox_unavailable", err, "no randomness for the harness's nonce")
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, werr.Wrap(werr.Env, "sandbox_unavailable", err, "cannot make a pipe")
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, werr.Wrap(werr.Env, "sandbox_unavailable", err, "cannot make a pipe")
	}
	p := &nodeProc{stdin: inW, frames: make(chan frameOrErr, 64), nonce: hex.EncodeToString(nonce), ended: make(chan struct{}), memory: h.opts.Memory}
	p.stdout = &capBuffer{keep: keepStdio, max: MaxOutput}
	p.stderr = &capBuffer{keep: keepStdio, max: MaxOutput}
	args := []string{
		fmt.Sprintf("--max-old-space-size=%d", max(h.opts.Memory>>20, 16)),
		"--no-warnings",
		h.permFlg,
		"--allow-fs-read=" + h.dir + string(filepath.Separator) + "*",
		"--allow-fs-read=" + h.harness,
		"--allow-fs-write=" + filepath.Join(h.tmp, "scratch") + string(filepath.Separator) + "*",
		h.harness,
	}
	handle, err := startNode(ctx, h, args, inR, outW, p.stdout, p.stderr)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p.proc = handle
	p.stdout.onOver = handle.Kill
	p.stderr.onOver = handle.Kill
	go p.readFrames(outR)
	go func() {
		e := handle.Wait()
		p.waitMu.Lock()
		p.werr = e
		p.waitMu.Unlock()
		close(p.ended)
	}()
	hello, _ := json.Marshal(map[string]string{"nonce": p.nonce, "entry": filepath.Join(h.dir, filepath.FromSlash(strings.TrimPrefix(h.opts.Entry, "./")))})
	if _, err := p.stdin.Write(append(hello, '\n')); err != nil {
		p.kill()
		return nil, werr.Wrap(werr.Env, "sandbox_unavailable", err, "node did not take the harness's first line")
	}
	return p, nil
}

func (p *nodeProc) dead() bool {
	select {
	case <-p.ended:
		return true
	default:
		return false
	}
}

func (p *nodeProc) kill() {
	p.proc.Kill()
	p.stdin.Close()
	<-p.ended
}

// readFrames reads the harness's channel: every line must start with the
// nonce; the first that does not (or is too long) is reported and ends the
// reading.
func (p *nodeProc) readFrames(r io.ReadCloser) {
	defer r.Close()
	defer close(p.frames)
	br := bufio.NewReaderSize(r, 1<<16)
	prefix := p.nonce + " "
	for {
		line, err := readLine(br, maxFrameLen)
		if err == errLineTooLong {
			p.frames <- frameOrErr{err: "a line of over 17 MiB came on wopkit's channel", code: "sandbox_invocation_error"}
			io.Copy(io.Discard, r)
			return
		}
		if len(line) == 0 && err != nil {
			return
		}
		if !bytes.HasPrefix(line, []byte(prefix)) {
			p.frames <- frameOrErr{err: "a line on wopkit's channel was not written by the harness (a pack cannot report its own result)", code: "sandbox_escape_attempt"}
			io.Copy(io.Discard, r)
			return
		}
		var f frame
		if jerr := untrusted.DecodeJSON(line[len(prefix):], &f); jerr != nil {
			p.frames <- frameOrErr{err: "a result on wopkit's channel could not be read: " + jerr.Error(), code: "sandbox_invocation_error"}
			io.Copy(io.Discard, r)
			return
		}
		p.frames <- frameOrErr{f: &f}
		if err != nil {
			return
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line (without its newline) of at most max bytes.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(out)+len(chunk) > max {
			return nil, errLineTooLong
		}
		out = append(out, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(out, []byte("\n")), err
	}
}

// call sends one request and collects its frames. fatal is set when the
// process must not serve another call.
func (p *nodeProc) call(ctx context.Context, id int, c Call, o HostOptions) (out *Outcome, fatal bool) {
	start := time.Now()
	out = &Outcome{Events: []Event{}, Logs: []Log{}}
	defer func() {
		out.Duration = time.Since(start)
		out.Stdout = p.stdout.take()
		out.Stderr = p.stderr.take()
	}()
	req := request{ID: id, TypeID: c.TypeID, Minimal: c.Minimal, Ctx: c.Ctx, Mocks: c.Mocks, Secrets: c.Secrets, Variables: c.Variables,
		Resume: c.Resume, HasResume: c.HasResume, TimeoutMs: o.Timeout.Milliseconds(), AllowNet: o.AllowNet}
	b, err := json.Marshal(req)
	if err != nil {
		out.fail("sandbox_invocation_error", "wopkit could not write the call: "+err.Error())
		return out, false
	}
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		p.ended2(out, "the node process stopped before it took the call")
		return out, true
	}
	timer := time.NewTimer(o.Timeout + killGrace)
	defer timer.Stop()
	for {
		select {
		case fe, ok := <-p.frames:
			if !ok {
				// The channel closed: the process is ending on its own; give
				// it a moment so that its exit status is its own.
				select {
				case <-p.ended:
				case <-time.After(2 * time.Second):
					p.proc.Kill()
				}
				p.ended2(out, "")
				return out, true
			}
			if fe.f == nil {
				out.fail(fe.code, fe.err)
				return out, true
			}
			f := fe.f
			if f.ID != id {
				if f.T == "ready" {
					continue
				}
				if f.T == "result" {
					out.fail("sandbox_escape_attempt", "a result for another call came on wopkit's channel")
					return out, true
				}
				continue // a late event or log of an earlier call
			}
			switch f.T {
			case "event":
				if len(out.Events) < maxEvents {
					out.Events = append(out.Events, Event{Type: f.Type, Payload: f.Payload, Shape: f.Shape})
				}
			case "log":
				if len(out.Logs) < maxLogs {
					out.Logs = append(out.Logs, Log{Level: f.Level, Message: f.Message, Data: f.Data})
				}
			case "result", "fatal":
				out.Status = f.Status
				out.PeakMemoryBytes = f.PeakMemoryBytes
				out.Export, out.Returned, out.Thrown = f.Export, f.Returned, f.Thrown
				out.ResultKind, out.HasOutputs, out.ThrownKind = f.Kind, f.HasOutputs, f.ThrownKind
				switch f.Status {
				case "success":
					out.Outputs = f.Outputs
				case "suspended":
					out.Interrupt = f.Interrupt
					if out.Interrupt == nil {
						out.Interrupt = &Interrupt{Kind: "approval"}
					}
				default:
					out.Status = "failure"
					out.Error = &CallError{Code: f.Code, Message: f.Message, PackCode: f.PackCode, Denied: f.Denied, Capability: f.Capability}
					if out.Error.Code == "" {
						out.Error.Code = "sandbox_invocation_error"
					}
				}
				if p.stdout.over() || p.stderr.over() {
					p.proc.Kill()
					p.ended2(out, "")
					return out, true
				}
				return out, f.T == "fatal" || f.Restart
			}
		case <-timer.C:
			p.proc.Kill()
			<-p.ended
			out.fail("sandbox_timeout", fmt.Sprintf("the node did not finish within %s: its process was killed", o.Timeout))
			return out, true
		case <-ctx.Done():
			p.proc.Kill()
			<-p.ended
			out.fail("sandbox_invocation_error", "stopped: "+ctx.Err().Error())
			return out, true
		}
	}
}

func (o *Outcome) fail(code, msg string) {
	o.Status = "failure"
	o.Outputs = nil
	o.Error = &CallError{Code: code, Message: msg}
}

// ended2 says why the process ended before it reported a result.
func (p *nodeProc) ended2(out *Outcome, why string) {
	<-p.ended
	p.waitMu.Lock()
	werr := p.werr
	p.waitMu.Unlock()
	stderr := p.stderr.peek()
	switch {
	case p.stdout.over():
		out.fail("sandbox_invocation_error", fmt.Sprintf("the node wrote over %d MiB to standard output: cut, and its process was stopped", MaxOutput>>20))
	case p.stderr.over():
		out.fail("sandbox_invocation_error", fmt.Sprintf("the node wrote over %d MiB to standard error: cut, and its process was stopped", MaxOutput>>20))
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "Allocation failed") || strings.Contains(stderr, "allocation failed"):
		out.fail("sandbox_memory_exceeded", fmt.Sprintf("the node ran out of memory (the limit is %d MiB): its process died", p.memory>>20))
	case isLimitKill(werr):
		out.fail("sandbox_memory_exceeded", "the node's process was killed at a resource limit (memory or CPU time): "+werr.Error())
	case exitStatus(werr) == 13 || strings.Contains(stderr, "unsettled top-level await"):
		out.fail("sandbox_timeout", "the node's promise never settled (node found nothing left to wait for and stopped)")
	default:
		msg := "the node process stopped before the node returned"
		if why != "" {
			msg = why
		}
		if werr != nil {
			msg += " (" + werr.Error() + ")"
		} else {
			msg += " (it exited with status 0: process.exit in the pack?)"
		}
		if s := firstLine(stderr); s != "" {
			msg += ": " + s
		}
		out.fail("sandbox_invocation_error", msg)
	}
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 300 {
				l = l[:300] + "…"
			}
			return l
		}
	}
	return ""
}

// capBuffer keeps the first keep bytes written and counts the rest; past
// max it calls onOver once.
type capBuffer struct {
	mu     sync.Mutex
	buf    []byte
	keep   int
	n      int64
	max    int64
	onOver func()
	fired  bool
}

func (c *capBuffer) Write(b []byte) (int, error) {
	c.mu.Lock()
	if room := c.keep - len(c.buf); room > 0 {
		c.buf = append(c.buf, b[:min(room, len(b))]...)
	}
	c.n += int64(len(b))
	fire := c.n > c.max && !c.fired && c.onOver != nil
	if fire {
		c.fired = true
	}
	c.mu.Unlock()
	if fire {
		c.onOver()
	}
	return len(b), nil
}

func (c *capBuffer) take() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := string(c.buf)
	c.buf = c.buf[:0]
	return s
}

func (c *capBuffer) peek() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.buf)
}

func (c *capBuffer) over() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n > c.max
}

// findNode finds node; its permission flag is found when it starts.
func findNode() (bin, flag string, err error) {
	bin, err = proc.LookPath("node")
	if err != nil {
		return "", "", werr.New(werr.Env, "runtime_unavailable", "node is not installed (wopkit runs a pack's JavaScript with node 20 or later)").
			WithHint("%s", installNode)
	}
	permMu.Lock()
	flag = permFlags[bin]
	permMu.Unlock()
	if flag == "" {
		flag = permissionFlags[0]
	}
	return bin, flag, nil
}

const installNode = "install node 20 or later (https://nodejs.org/en/download, or your package manager: apt install nodejs, brew install node) and make sure it is first on PATH"

// permissionFlags turn on node's permission model: node 20 to 22 know the
// first; node 23.5 and later the second (a node that knows neither is too
// old).
var permissionFlags = []string{"--experimental-permission", "--permission"}

var (
	permMu    sync.Mutex
	permFlags = map[string]string{} // node binary -> the flag it took
)

func noPermissionModel(bin string) error {
	return werr.New(werr.Env, "runtime_unavailable", "%s has no permission model: wopkit runs a pack's JavaScript only with node 20 or later, whose permission model keeps it inside the pack", bin).
		WithHint("%s", installNode)
}
