package smoke

import (
	"context"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/run"
)

// DefaultTimeout is how long one node's call may take to settle.
const DefaultTimeout = 10 * time.Second

// NodeCaller calls a javascript pack's nodes through internal/run's Host
// (the harness `wopkit run` and `wopkit test` use: one node process under
// internal/sandbox and node's permission model, the entry imported afresh
// for each call), each with run.Call.Minimal, the registry's minimal ctx.
// A call that ends or blocks the process fails that node with its code;
// the Host starts a new process for the next one.
type NodeCaller struct{}

// importFailed is how the harness's message for an entry that does not
// import starts.
const importFailed = "importing the entry failed: "

// Call implements Caller.
func (NodeCaller) Call(ctx context.Context, t Target) (*Observation, error) {
	timeout := t.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	h, err := run.NewHost(run.HostOptions{Dir: t.Dir, Entry: t.Entry, Timeout: timeout})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	obs := &Observation{NodesExport: "object"}
	for _, id := range t.TypeIDs {
		o, err := h.Call(ctx, run.Call{TypeID: id, Minimal: true})
		if err != nil {
			return nil, err
		}
		c, stop := callOf(obs, o)
		if stop {
			obs.Calls = nil
			return obs, nil
		}
		obs.Calls = append(obs.Calls, c)
	}
	return obs, nil
}

// callOf reads one Outcome as the script would see the call; stop when it
// says the entry does not import or exports no `nodes` object (then obs
// says so, and no node is called).
func callOf(obs *Observation, o *run.Outcome) (Call, bool) {
	fn := Call{Export: "function"}
	switch {
	case o.Status == "success":
		fn.Outcome, fn.Result, fn.HasOutputs = Returned, "object", true
		return fn, false
	case o.Status == "suspended":
		fn.Outcome = Suspended
		return fn, false
	}
	code, msg := "", ""
	if o.Error != nil {
		code, msg = o.Error.Code, o.Error.Message
	}
	switch {
	case o.Export == "no-nodes" || o.Export == "default-only":
		obs.NodesExport = "undefined"
		if o.Export == "default-only" {
			obs.DefaultExport = "object"
		}
		return Call{}, true
	case o.Export != "":
		return Call{Export: "missing", Message: msg}, false
	case code == "pack_load_failure" && strings.HasPrefix(msg, importFailed):
		obs.ImportError = strings.TrimPrefix(msg, importFailed)
		return Call{}, true
	case o.Returned:
		fn.Outcome, fn.Result, fn.HasOutputs = Returned, o.ResultKind, o.HasOutputs
	case o.Thrown:
		fn.Outcome, fn.Thrown, fn.Message = Threw, o.ThrownKind, msg
		if o.ThrownKind != "null" && o.ThrownKind != "undefined" {
			fn.Code = code
		}
	case code == "sandbox_timeout":
		fn.Outcome, fn.Code, fn.Message = TimedOut, code, msg
	default:
		fn.Outcome, fn.Code, fn.Message = Died, code, msg
	}
	return fn, false
}
