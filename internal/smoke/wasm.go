package smoke

import (
	"context"
	"errors"
	"io/fs"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/wasmrun"
	"github.com/openwop/wopkit/internal/werr"
)

// WasmCaller calls the nodes of a `runtime.language: "wasm"` pack in
// process through RFC 0008's ABI (internal/wasmrun: only the ABI's
// imports, the memory and each call bounded), one module instance for all
// of the pack's nodes, with the minimal request (runId r-test, nodeId
// n-test, empty inputs). A completed call is a return with outputs, a
// failed one a throw with its code.
type WasmCaller struct{}

// Call implements Caller.
func (WasmCaller) Call(ctx context.Context, t Target) (*Observation, error) {
	fsys, err := untrusted.DirFS(t.Dir)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot open the pack folder %s", t.Dir)
	}
	b, err := fs.ReadFile(fsys, t.Entry)
	if err != nil {
		return &Observation{ImportError: err.Error()}, nil
	}
	timeout := t.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	m, err := wasmrun.Load(ctx, b, wasmrun.Limits{Timeout: timeout})
	var we *wasmrun.Error
	if errors.As(err, &we) {
		return &Observation{ImportError: we.Msg, ImportCode: we.Code}, nil
	} else if err != nil {
		return nil, err
	}
	defer m.Close(ctx)
	obs := &Observation{NodesExport: "object", DefaultExport: "undefined"}
	index := map[string]int{}
	for i, id := range m.TypeIDs {
		if _, dup := index[id]; !dup {
			index[id] = i
		}
	}
	for _, id := range t.TypeIDs {
		i, ok := index[id]
		if !ok {
			obs.Calls = append(obs.Calls, Call{Export: "missing"})
			continue
		}
		r, err := m.Invoke(ctx, i, wasmrun.Request{NodeContext: wasmrun.NodeContext{RunID: "r-test", NodeID: "n-test"}, Inputs: map[string]any{}})
		switch {
		case errors.As(err, &we):
			obs.Calls = append(obs.Calls, Call{Export: "function", Outcome: Died, Code: we.Code, Message: we.Msg})
		case err != nil:
			return nil, err
		case r.Outcome == "completed":
			obs.Calls = append(obs.Calls, Call{Export: "function", Outcome: Returned, Result: "object", HasOutputs: true})
		case r.Outcome == "failed" && r.Error != nil:
			obs.Calls = append(obs.Calls, Call{Export: "function", Outcome: Threw, Thrown: "object", Code: r.Error.Code, Message: r.Error.Message})
		case r.Outcome == "failed":
			obs.Calls = append(obs.Calls, Call{Export: "function", Outcome: Threw, Thrown: "object"})
		default: // suspended: the call ended as the ABI allows
			obs.Calls = append(obs.Calls, Call{Export: "function", Outcome: Suspended})
		}
	}
	return obs, nil
}
