package smoke

import (
	"context"
	"time"
)

// Caller loads a pack's entry once and calls its nodes one after the other
// under the registry's minimal ctx ({runId: 'r-test', nodeId: 'n-test',
// config: {}, inputs: {}, triggerData: {}, log() {}}), as
// scripts/test-packs.mjs does. It reports what it saw and decides nothing:
// the verdicts are Check's. NodeCaller is the one wopkit uses.
type Caller interface {
	Call(ctx context.Context, p Target) (*Observation, error)
}

// Target is one pack to call.
type Target struct {
	Dir     string        // the pack directory
	Entry   string        // runtime.entry, slash-separated, relative to Dir
	TypeIDs []string      // the nodes to call, in this order
	Timeout time.Duration // how long one call may take to settle
}

// Observation is what a Caller saw.
type Observation struct {
	// ImportError is set when the entry could not be imported: the
	// module's own error, or why the process ended while importing.
	ImportError string
	// ImportCode is the sandbox's code when the process ended or was
	// killed while importing (sandbox_timeout, sandbox_memory_exceeded,
	// sandbox_invocation_error); empty for an ordinary import error.
	ImportCode string
	// NodesExport and DefaultExport are the kinds of the named `nodes`
	// export and of the default export ("object", "undefined", "function",
	// "array", "null", ...).
	NodesExport   string
	DefaultExport string
	// Calls holds one entry per Target.TypeIDs, in order (none when the
	// import failed or there is no `nodes` object).
	Calls []Call
}

// Call is what became of one node.
type Call struct {
	// Export is "function" when nodes[typeId] is one (then the node was
	// called), "missing" when it is falsy, else the value's kind.
	Export string
	// Outcome: "returned", "threw", "suspended" (wasm), "timeout" (the promise had not settled
	// at Target.Timeout), or "died" (the process ended or was killed during
	// the call: see Code).
	Outcome string
	// Result is the kind of the returned value; HasOutputs whether it is an
	// object with an `outputs` key.
	Result     string
	HasOutputs bool
	// Thrown is the kind of the thrown value ("object", "null", "string",
	// ...); Code its `code` when that is a string; Message its message.
	Thrown  string
	Code    string
	Message string
}

// Outcomes of a Call.
const (
	Returned = "returned"
	Threw    = "threw"
	TimedOut = "timeout"
	// Suspended: an RFC 0008 module answered outcome "suspended".
	Suspended = "suspended"
	Died      = "died"
)
