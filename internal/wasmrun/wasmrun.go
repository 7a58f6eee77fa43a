// Package wasmrun runs the nodes of a `runtime.language: "wasm"` pack in
// process, through the WebAssembly ABI of RFC 0008 (ABI version 1), with
// wazero (a WebAssembly runtime in pure Go).
//
// The module gets only the imports RFC 0008 §C names, under the `openwop`
// namespace, and nothing else: no WASI, so no files, clock, environment,
// sockets or processes (a module that imports anything else does not
// instantiate). Its linear memory is bounded (Limits.MemoryPages, within the
// manifest's runtime.wasm.memoryPagesMax) and each call is bounded in time
// (Limits.Timeout: the module is closed when it passes, wazero checking the
// context at function entries and loop heads). openwop_now_ms is fixed per
// run and openwop_random is seeded from (runId, nodeId, attempt), as §G
// requires for replay. Channels and variables live for one call in memory;
// openwop_interrupt answers the resume value given, or suspends.
package wasmrun

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/openwop/wopkit/internal/untrusted"
)

// ABIVersion is the RFC 0008 ABI version this package speaks.
const ABIVersion = 1

// Limits bound one module instance.
type Limits struct {
	// MemoryPages bounds the linear memory (64 KiB pages); zero: 2048
	// (128 MiB, RFC 0008 §K's default).
	MemoryPages uint32
	// Timeout bounds each call; zero: 30 s (§K).
	Timeout time.Duration
}

// Module is an instantiated pack module.
type Module struct {
	rt      wazero.Runtime
	mod     api.Module
	timeout time.Duration
	Name    string   // openwop_pack_name
	TypeIDs []string // openwop_node_id_at(0..count-1)
	state   *hostState
	pages   uint32 // the memory limit
}

// memoryFull reports whether the module's memory is past half its limit.
// A memory.grow past the limit returns -1 to the module, which usually
// traps next; WebAssembly gives the host no other sign, so a trap with the
// memory that full is reported as the memory cap (the cap itself holds
// either way).
func (m *Module) memoryFull() bool {
	mem := m.mod.Memory()
	if mem == nil {
		return false
	}
	limit := m.pages
	if max, ok := mem.Definition().Max(); ok && max < limit {
		limit = max
	}
	return mem.Size()/65536 > limit/2
}

// Error is a failure to load or call the module, with an OpenWOP code:
// sandbox_timeout, sandbox_memory_exceeded, sandbox_invocation_error,
// unsupported_abi_version, pack_load_failure.
type Error struct {
	Code string
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Load compiles and instantiates wasm with the openwop imports, checks its
// ABI version and reads its identity exports.
func Load(ctx context.Context, wasm []byte, lim Limits) (*Module, error) {
	pages := lim.MemoryPages
	if pages == 0 {
		pages = 2048
	}
	timeout := lim.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithMemoryLimitPages(pages).WithCloseOnContextDone(true))
	st := &hostState{}
	if err := st.export(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, &Error{"pack_load_failure", "cannot set up the openwop imports: " + err.Error()}
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	mod, err := rt.InstantiateWithConfig(cctx, wasm, wazero.NewModuleConfig().WithName("pack").WithStartFunctions())
	if err != nil {
		rt.Close(ctx)
		return nil, &Error{"pack_load_failure", "the module does not instantiate: " + err.Error()}
	}
	m := &Module{rt: rt, mod: mod, timeout: timeout, state: st, pages: pages}
	v, err := m.call(ctx, "openwop_abi_version")
	if err != nil {
		m.Close(ctx)
		return nil, err
	}
	if len(v) != 1 || v[0] != ABIVersion {
		m.Close(ctx)
		return nil, &Error{"unsupported_abi_version", fmt.Sprintf("the module speaks ABI version %v; wopkit speaks %d", v, ABIVersion)}
	}
	if m.Name, err = m.str(ctx, "openwop_pack_name"); err != nil {
		m.Close(ctx)
		return nil, err
	}
	n, err := m.call(ctx, "openwop_node_count")
	if err != nil {
		m.Close(ctx)
		return nil, err
	}
	if len(n) != 1 || n[0] > 10000 {
		m.Close(ctx)
		return nil, &Error{"pack_load_failure", "openwop_node_count returned no usable count"}
	}
	for i := range n[0] {
		id, err := m.str(ctx, "openwop_node_id_at", i)
		if err != nil {
			m.Close(ctx)
			return nil, err
		}
		m.TypeIDs = append(m.TypeIDs, id)
	}
	return m, nil
}

// Close releases the module.
func (m *Module) Close(ctx context.Context) { m.rt.Close(ctx) }

// Request is the §D request to openwop_node_invoke.
type Request struct {
	ABIVersion  int            `json:"abiVersion"`
	NodeContext NodeContext    `json:"nodeContext"`
	Inputs      map[string]any `json:"inputs"`
	// Config is not an RFC 0008 member: wopkit adds the node's checked
	// config under it (omitted when nil), since the ABI's request has no
	// place for a node's config; a module reading only the RFC's members
	// never sees it.
	Config map[string]any `json:"config,omitempty"`
	// Channels and Variables are what openwop_channel_read and
	// openwop_variable_get answer at the call's start (nil: nothing).
	Channels  map[string]json.RawMessage `json:"-"`
	Variables map[string]json.RawMessage `json:"-"`
	// Resume, when set, is what openwop_interrupt returns; when nil an
	// openwop_interrupt is recorded (Response.Interrupted) and answers
	// (0, 0).
	Resume json.RawMessage `json:"-"`
}

// NodeContext is the request's nodeContext.
type NodeContext struct {
	RunID        string         `json:"runId"`
	NodeID       string         `json:"nodeId"`
	TenantID     string         `json:"tenantId"`
	Attempt      int            `json:"attempt"`
	Configurable map[string]any `json:"configurable"`
	Agent        any            `json:"agent"`
}

// Response is the §D response: outcome completed (Output), suspended
// (Interrupt) or failed (Error).
type Response struct {
	Outcome   string          `json:"outcome"`
	Output    json.RawMessage `json:"output,omitempty"`
	Interrupt json.RawMessage `json:"interrupt,omitempty"`
	Error     *struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details,omitempty"`
	} `json:"error,omitempty"`
	// Logs are what the module sent to openwop_log.
	Logs []Log `json:"-"`
	// Interrupted is the payload of the first openwop_interrupt made
	// without a resume value (nil: none): a host would have suspended the
	// run there.
	Interrupted json.RawMessage `json:"-"`
	// Writes are the call's openwop_channel_write and
	// openwop_variable_set, in order.
	Writes []Write `json:"-"`
}

// Write is one openwop_channel_write or openwop_variable_set.
type Write struct {
	Channel bool // false: a variable
	Name    string
	Value   json.RawMessage
}

// Log is one openwop_log call.
type Log struct {
	Level   int
	Message string
}

// maxResponse bounds a response the host reads from the module.
const maxResponse = 16 << 20

// Invoke calls node index i (an index into TypeIDs) with req.
func (m *Module) Invoke(ctx context.Context, i int, req Request) (*Response, error) {
	if i < 0 || i >= len(m.TypeIDs) {
		return nil, &Error{"sandbox_invocation_error", fmt.Sprintf("no node at index %d", i)}
	}
	req.ABIVersion = ABIVersion
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	m.state.reset(req)
	ptr, err := m.put(ctx, b)
	if err != nil {
		return nil, err
	}
	res, err := m.call(ctx, "openwop_node_invoke", uint64(i), uint64(ptr), uint64(len(b)))
	if st := m.state; st.interrupted != nil {
		// A host suspends the run at an openwop_interrupt it has no resume
		// value for: what the module did after it does not count.
		return &Response{Outcome: "suspended", Interrupt: st.interrupted, Interrupted: st.interrupted, Logs: st.logs, Writes: st.writes}, nil
	}
	if err != nil {
		return nil, err
	}
	rp, rl, ok := pair(res)
	if !ok {
		return nil, &Error{"sandbox_invocation_error", "openwop_node_invoke returned neither (ptr, len) nor a packed i64"}
	}
	if rl > maxResponse {
		return nil, &Error{"sandbox_invocation_error", fmt.Sprintf("the response is %d bytes, over %d", rl, maxResponse)}
	}
	data, ok := m.mod.Memory().Read(rp, rl)
	if !ok {
		return nil, &Error{"sandbox_invocation_error", "the response lies outside the module's memory"}
	}
	out := &Response{}
	if err := untrusted.DecodeJSON(data, out); err != nil {
		return nil, &Error{"sandbox_invocation_error", "the response is not JSON: " + err.Error()}
	}
	if f := m.mod.ExportedFunction("openwop_free"); f != nil {
		m.call(ctx, "openwop_free", uint64(rp), uint64(rl))
	}
	out.Logs, out.Interrupted, out.Writes = m.state.logs, m.state.interrupted, m.state.writes
	switch out.Outcome {
	case "completed", "suspended", "failed":
	default:
		return nil, &Error{"sandbox_invocation_error", fmt.Sprintf("the response's outcome is %q, not completed, suspended or failed", out.Outcome)}
	}
	return out, nil
}

// call calls an export within the time limit, mapping traps to codes.
func (m *Module) call(ctx context.Context, name string, args ...uint64) ([]uint64, error) {
	f := m.mod.ExportedFunction(name)
	if f == nil {
		return nil, &Error{"pack_load_failure", "the module does not export " + name + " (RFC 0008 §B)"}
	}
	cctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	res, err := f.Call(cctx, args...)
	switch {
	case err == nil:
		return res, nil
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return nil, &Error{"sandbox_timeout", fmt.Sprintf("%s did not return within %s; the module was closed", name, m.timeout)}
	case m.state.oom || m.memoryFull():
		return nil, &Error{"sandbox_memory_exceeded", fmt.Sprintf("%s trapped with its memory at its limit (%d pages of 64 KiB): %v", name, m.pages, err)}
	}
	return nil, &Error{"sandbox_invocation_error", fmt.Sprintf("%s trapped: %v", name, err)}
}

// str calls an export returning (ptr, len) of UTF-8 text.
func (m *Module) str(ctx context.Context, name string, args ...uint64) (string, error) {
	res, err := m.call(ctx, name, args...)
	if err != nil {
		return "", err
	}
	p, l, ok := pair(res)
	if !ok || l > 4096 {
		return "", &Error{"pack_load_failure", name + " returned no (ptr, len) of text"}
	}
	b, ok := m.mod.Memory().Read(p, l)
	if !ok {
		return "", &Error{"pack_load_failure", name + " points outside the module's memory"}
	}
	return string(b), nil
}

// put copies b into memory the module allocates (openwop_alloc).
func (m *Module) put(ctx context.Context, b []byte) (uint32, error) {
	res, err := m.call(ctx, "openwop_alloc", uint64(len(b)))
	if err != nil {
		return 0, err
	}
	if len(res) != 1 {
		return 0, &Error{"sandbox_invocation_error", "openwop_alloc returned no pointer"}
	}
	if !m.mod.Memory().Write(uint32(res[0]), b) {
		return 0, &Error{"sandbox_memory_exceeded", "openwop_alloc gave a buffer outside the module's memory"}
	}
	return uint32(res[0]), nil
}

// pair reads a (ptr, len) result: two i32, or one i64 packing len in the
// high and ptr in the low 32 bits (§B).
func pair(res []uint64) (ptr, n uint32, ok bool) {
	switch len(res) {
	case 2:
		return uint32(res[0]), uint32(res[1]), true
	case 1:
		return uint32(res[0]), uint32(res[0] >> 32), true
	}
	return 0, 0, false
}

// hostState is what the openwop imports keep for one call.
type hostState struct {
	now      int64
	rand     [32]byte
	counter  uint64
	vars     map[string][]byte
	channels map[string][]byte
	logs     []Log
	oom      bool
	resume   []byte
	// interrupted and writes are recorded for the Response.
	interrupted []byte
	writes      []Write
}

func (s *hostState) reset(req Request) {
	nc := req.NodeContext
	s.now = time.Now().UnixMilli()
	s.rand = sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", nc.RunID, nc.NodeID, nc.Attempt))
	s.counter = 0
	s.vars, s.channels, s.logs, s.oom = map[string][]byte{}, map[string][]byte{}, nil, false
	for k, v := range req.Variables {
		s.vars[k] = v
	}
	for k, v := range req.Channels {
		s.channels[k] = v
	}
	s.resume, s.interrupted, s.writes = req.Resume, nil, nil
}

// MemoryBytes is the size of the module's linear memory now (memory does
// not shrink, so after a call it is the call's peak).
func (m *Module) MemoryBytes() uint64 {
	if mem := m.mod.Memory(); mem != nil {
		return uint64(mem.Size())
	}
	return 0
}

// export defines the §C imports under `openwop`.
func (s *hostState) export(ctx context.Context, rt wazero.Runtime) error {
	read := func(m api.Module, p, n uint32) ([]byte, bool) {
		b, ok := m.Memory().Read(p, n)
		return append([]byte(nil), b...), ok
	}
	// give copies b into the module's memory (openwop_alloc) and returns
	// (ptr, len); (0, 0) when absent or when it cannot.
	give := func(ctx context.Context, m api.Module, b []byte) (uint32, uint32) {
		if b == nil {
			return 0, 0
		}
		f := m.ExportedFunction("openwop_alloc")
		if f == nil {
			return 0, 0
		}
		res, err := f.Call(ctx, uint64(len(b)))
		if err != nil || len(res) != 1 || !m.Memory().Write(uint32(res[0]), b) {
			s.oom = true
			return 0, 0
		}
		return uint32(res[0]), uint32(len(b))
	}
	get := func(store func() map[string][]byte) func(context.Context, api.Module, uint32, uint32) (uint32, uint32) {
		return func(ctx context.Context, m api.Module, kp, kl uint32) (uint32, uint32) {
			k, ok := read(m, kp, kl)
			if !ok {
				return 0, 0
			}
			return give(ctx, m, store()[string(k)])
		}
	}
	set := func(channel bool, store func() map[string][]byte) func(context.Context, api.Module, uint32, uint32, uint32, uint32) uint32 {
		return func(_ context.Context, m api.Module, kp, kl, vp, vl uint32) uint32 {
			k, ok1 := read(m, kp, kl)
			v, ok2 := read(m, vp, vl)
			if !ok1 || !ok2 || !json.Valid(v) {
				return 10 // validation_error (§F)
			}
			store()[string(k)] = v
			if len(s.writes) < 1000 {
				s.writes = append(s.writes, Write{Channel: channel, Name: string(k), Value: v})
			}
			return 0
		}
	}
	vars := func() map[string][]byte { return s.vars }
	chans := func() map[string][]byte { return s.channels }
	_, err := rt.NewHostModuleBuilder("openwop").
		NewFunctionBuilder().WithFunc(get(chans)).Export("openwop_channel_read").
		NewFunctionBuilder().WithFunc(set(true, chans)).Export("openwop_channel_write").
		NewFunctionBuilder().WithFunc(get(vars)).Export("openwop_variable_get").
		NewFunctionBuilder().WithFunc(set(false, vars)).Export("openwop_variable_set").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, p, n uint32) (uint32, uint32) {
		if s.resume != nil {
			return give(ctx, m, s.resume)
		}
		// No resume value: the payload is recorded (a host would suspend
		// here) and the module gets (0, 0), reporting the suspension itself
		// (§D).
		if b, ok := read(m, p, min(n, maxResponse)); ok && s.interrupted == nil {
			if !json.Valid(b) {
				b, _ = json.Marshal(string(b))
			}
			s.interrupted = b
		}
		return 0, 0
	}).Export("openwop_interrupt").
		NewFunctionBuilder().WithFunc(func(_ context.Context, m api.Module, level, p, n uint32) {
		if b, ok := m.Memory().Read(p, min(n, 4096)); ok && len(s.logs) < 1000 {
			s.logs = append(s.logs, Log{Level: int(level), Message: string(b)})
		}
	}).Export("openwop_log").
		NewFunctionBuilder().WithFunc(func() int64 { return s.now }).Export("openwop_now_ms").
		NewFunctionBuilder().WithFunc(func(_ context.Context, m api.Module, p, n uint32) {
		out := make([]byte, 0, n)
		for uint32(len(out)) < n {
			var c [8]byte
			binary.BigEndian.PutUint64(c[:], s.counter)
			s.counter++
			h := sha256.Sum256(append(s.rand[:], c[:]...))
			out = append(out, h[:min(int(n)-len(out), len(h))]...)
		}
		m.Memory().Write(p, out)
	}).Export("openwop_random").
		Instantiate(ctx)
	return err
}
