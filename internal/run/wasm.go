package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/wasmrun"
	"github.com/openwop/wopkit/internal/werr"
)

// Caller calls a pack's nodes: a *Host (JavaScript, in node under the
// sandbox) or a *WasmHost (WebAssembly, in process). Execute and RunCases
// take either.
type Caller interface {
	Call(ctx context.Context, c Call) (*Outcome, error)
	Close() error
}

// NewCaller returns the Caller for p's runtime: a WasmHost for a `wasm`
// pack, else a Host (NewHost's errors).
func NewCaller(o HostOptions, p *Pack) (Caller, error) {
	if p.Language == "wasm" {
		return NewWasmHost(o, p), nil
	}
	return NewHost(o)
}

// WasmHost runs the nodes of a `runtime.language: "wasm"` pack in process
// through RFC 0008's ABI (internal/wasmrun). Each Call reads runtime.entry
// and instantiates the module afresh (new linear memory, new channels and
// variables), so one call cannot see another's state.
//
// Bounds: the module's linear memory is capped at HostOptions.Memory (in
// 64 KiB pages, and at the manifest's runtime.wasm.memoryPagesMax when that
// is lower); each export call at HostOptions.Timeout. The module gets only
// the ABI's imports (no WASI: no files, sockets, processes, environment).
//
// What ctx gives a JavaScript node maps onto the ABI as far as the ABI
// goes: inputs and the RFC's nodeContext (runId, nodeId, tenantId,
// attempt, configurable); config under a `config` member the RFC does not
// define; --mocks' "channels" and "variables" objects are what
// openwop_channel_read and openwop_variable_get answer (other surfaces,
// and --secrets, have no import to reach the module: a warning says so);
// --resume is what openwop_interrupt returns (without it, an
// openwop_interrupt ends the run suspended with its payload); openwop_log
// becomes the logs, openwop_channel_write the events.
type WasmHost struct {
	opts  HostOptions
	pages uint32
}

// NewWasmHost prepares a WasmHost for p (nothing is read until a Call).
func NewWasmHost(o HostOptions, p *Pack) *WasmHost {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Memory == 0 {
		o.Memory = DefaultMemory
	}
	pages := uint32(min(o.Memory>>16, 65536))
	if max := wasmPagesMax(p.Dir); max > 0 && max < pages {
		pages = max
	}
	return &WasmHost{opts: o, pages: max(pages, 1)}
}

// Close implements Caller (a WasmHost holds nothing between calls).
func (*WasmHost) Close() error { return nil }

// wasmPagesMax reads runtime.wasm.memoryPagesMax from dir/pack.json (0:
// absent or unreadable).
func wasmPagesMax(dir string) uint32 {
	d, err := untrusted.OpenDir(dir)
	if err != nil {
		return 0
	}
	defer d.Close()
	var m struct {
		Runtime struct {
			Wasm struct {
				MemoryPagesMax uint32 `json:"memoryPagesMax"`
			} `json:"wasm"`
		} `json:"runtime"`
	}
	if d.ReadJSON("pack.json", maxFile, &m) != nil {
		return 0
	}
	return m.Runtime.Wasm.MemoryPagesMax
}

// wasmLevels are openwop_log's levels (RFC 0008 §C).
var wasmLevels = []string{"trace", "debug", "info", "warn", "error"}

// Call implements Caller.
func (h *WasmHost) Call(ctx context.Context, c Call) (*Outcome, error) {
	start := time.Now()
	fail := func(code, msg string) (*Outcome, error) {
		return &Outcome{Status: "failure", Error: &CallError{Code: code, Message: msg}, Events: []Event{}, Logs: []Log{}, Duration: time.Since(start)}, nil
	}
	fsys, err := untrusted.DirFS(h.opts.Dir)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot open the pack folder %s", h.opts.Dir)
	}
	entry := strings.TrimPrefix(path.Clean(h.opts.Entry), "./")
	wasm, err := fs.ReadFile(fsys, entry)
	if err != nil {
		msg := fmt.Sprintf("cannot read runtime.entry %s: %v", h.opts.Entry, err)
		if errors.Is(err, fs.ErrNotExist) {
			msg = fmt.Sprintf("runtime.entry %s is not in the pack", h.opts.Entry)
		}
		if found := wasmFiles(fsys); len(found) > 0 {
			msg += fmt.Sprintf("; the pack has %s: point runtime.entry at the module it ships", strings.Join(found, ", "))
		}
		return fail("pack_load_failure", msg)
	}
	m, err := wasmrun.Load(ctx, wasm, wasmrun.Limits{MemoryPages: h.pages, Timeout: h.opts.Timeout})
	var we *wasmrun.Error
	if errors.As(err, &we) {
		return fail(we.Code, we.Msg)
	} else if err != nil {
		return nil, err
	}
	defer m.Close(ctx)
	index := -1
	for i, id := range m.TypeIDs {
		if id == c.TypeID {
			index = i
			break
		}
	}
	if index < 0 {
		o, _ := fail("pack_load_failure", fmt.Sprintf("the module does not list %s among its nodes (openwop_node_id_at gives %s)", c.TypeID, strings.Join(m.TypeIDs, ", ")))
		o.Export = "missing"
		return o, nil
	}
	req, notes, err := wasmRequest(c)
	if err != nil {
		return nil, err
	}
	res, err := m.Invoke(ctx, index, req)
	if errors.As(err, &we) {
		o, _ := fail(we.Code, we.Msg)
		o.Notes, o.PeakMemoryBytes = notes, m.MemoryBytes()
		return o, nil
	} else if err != nil {
		return nil, err
	}
	o := &Outcome{Events: []Event{}, Logs: []Log{}, Notes: notes, Duration: time.Since(start), PeakMemoryBytes: m.MemoryBytes()}
	for _, l := range res.Logs {
		lvl := fmt.Sprintf("level-%d", l.Level)
		if l.Level >= 0 && l.Level < len(wasmLevels) {
			lvl = wasmLevels[l.Level]
		}
		o.Logs = append(o.Logs, Log{Level: lvl, Message: l.Message})
	}
	for _, w := range res.Writes {
		if w.Channel && len(o.Events) < maxEvents {
			var v any
			untrusted.DecodeJSON(w.Value, &v)
			o.Events = append(o.Events, Event{Type: w.Name, Payload: v, Shape: "channel-write"})
		}
	}
	switch {
	case res.Interrupted != nil:
		o.Status, o.Interrupt = "suspended", wasmInterrupt(res.Interrupted)
	case res.Outcome == "completed":
		o.Status, o.Outputs = "success", res.Output
	case res.Outcome == "suspended":
		o.Status, o.Interrupt = "suspended", wasmInterrupt(res.Interrupt)
	default: // failed: as a JavaScript node's throw
		o.Status, o.Thrown, o.Error = "failure", true, &CallError{Code: "pack_node_error", Message: "the module answered outcome \"failed\" without an error"}
		if res.Error != nil {
			if res.Error.Code != "" {
				o.Error.Code = res.Error.Code
			}
			o.Error.Message = res.Error.Message
		}
	}
	return o, nil
}

// wasmRequest builds the §D request of c, and the notes on what of c the
// ABI cannot carry.
func wasmRequest(c Call) (wasmrun.Request, []string, error) {
	str := func(k string) string { s, _ := c.Ctx[k].(string); return s }
	obj := func(k string) map[string]any { m, _ := c.Ctx[k].(map[string]any); return m }
	attempt, _ := c.Ctx["attempt"].(int)
	req := wasmrun.Request{
		NodeContext: wasmrun.NodeContext{RunID: str("runId"), NodeID: str("nodeId"), TenantID: str("tenantId"), Attempt: attempt, Configurable: obj("configurable")},
		Inputs:      obj("inputs"),
		Config:      obj("config"),
	}
	if req.Inputs == nil {
		req.Inputs = map[string]any{}
	}
	if req.NodeContext.Configurable == nil {
		req.NodeContext.Configurable = map[string]any{}
	}
	var notes []string
	state := func(name string) (map[string]json.RawMessage, error) {
		v, ok := c.Mocks[name]
		if !ok {
			return nil, nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, werr.New(werr.Invalid, "mocks_invalid", "the mocks' %q is not an object of %s", name, map[string]string{"channels": "channel: value", "variables": "key: value"}[name]).
				WithHint(`for a wasm pack write {"channels": {"name": value}, "variables": {"key": value}}`)
		}
		out := map[string]json.RawMessage{}
		for k, x := range m {
			b, err := json.Marshal(x)
			if err != nil {
				return nil, werr.Wrap(werr.Invalid, "mocks_invalid", err, "the mocks' %s.%s", name, k)
			}
			out[k] = b
		}
		return out, nil
	}
	var err error
	if req.Channels, err = state("channels"); err != nil {
		return req, nil, err
	}
	if req.Variables, err = state("variables"); err != nil {
		return req, nil, err
	}
	var other []string
	for k := range c.Mocks {
		if k != "channels" && k != "variables" {
			other = append(other, k)
		}
	}
	sort.Strings(other)
	if len(other) > 0 {
		notes = append(notes, fmt.Sprintf("the mocks' %s reach no wasm module: RFC 0008 gives a module no host surface but its imports; a wasm pack's mocks are {\"channels\": {…}, \"variables\": {…}}", strings.Join(other, ", ")))
	}
	if len(c.Secrets) > 0 {
		notes = append(notes, "the secrets were not given to the module: RFC 0008 has no import for secrets")
	}
	if c.HasResume {
		b, err := json.Marshal(c.Resume)
		if err != nil {
			return req, nil, werr.Wrap(werr.Invalid, "resume_invalid", err, "the resume value")
		}
		req.Resume = b
	}
	return req, notes, nil
}

// wasmInterrupt reads an InterruptPayload: its kind, and its data (the
// whole payload when it has no data member).
func wasmInterrupt(raw json.RawMessage) *Interrupt {
	var v any
	untrusted.DecodeJSON(raw, &v)
	it := &Interrupt{Kind: "interrupt", Data: v}
	if m, ok := v.(map[string]any); ok {
		if k, ok := m["kind"].(string); ok && k != "" {
			it.Kind = k
		}
		if d, ok := m["data"]; ok {
			it.Data = d
		}
	}
	return it
}

// wasmFiles lists the pack's .wasm files (the first 5, outside
// node_modules), for a runtime.entry that names none of them.
func wasmFiles(fsys fs.FS) []string {
	var out []string
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= 5 {
			return fs.SkipDir
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != ".") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".wasm") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// netRefusable reports whether h's sandbox refuses the network that
// --allow-net would allow (a wasm module has none either way).
func netRefusable(h Caller) bool {
	js, ok := h.(*Host)
	return ok && !js.opts.AllowNet
}
