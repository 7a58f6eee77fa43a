// Package smoke is the registry's pre-PR smoke test (scripts/test-packs.mjs
// in openwop/openwop-registry, which scripts/precheck-packs.mjs runs before
// a pull request), run locally: `wopkit test --smoke` and, with
// `validate --for-registry --run-entry`, rule OW023.
//
// For one pack directory it decides what the script decides, per pack and
// per node, for the checks the script really makes: pack.json is valid
// against the node pack schema; every schemas/*.json compiles; the entry
// exports an object `nodes` with a function for every manifest typeId; each
// node, called once under the minimal ctx, either returns an object with
// `outputs` or throws (a `pure` node that throws host_capability_missing is
// mis-classified); a `pure` node that returns declares capabilities
// ["cacheable"]. Where wopkit decides otherwise the Report says so and
// docs/RUN.md ("Smoke test") gives the reasons: a pack of another kind has no node to
// run (the script checks it against the node pack schema and fails it); the
// entry is runtime.entry (the script always imports index.mjs); a call that
// never settles, ends the process, or throws null or undefined fails the
// node with its code (the script hangs, exits or crashes: no verdict); a
// non-pure node that returns under the minimal ctx gets a warning (the
// script's header promises it throws host_capability_missing, and nothing
// checks it).
//
// The nodes run through a Caller: NodeCaller runs a javascript pack's with
// node in internal/sandbox, WasmCaller a wasm pack's in process through RFC
// 0008's ABI (internal/wasmrun).
package smoke

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// Check names a check of the smoke test.
type Check string

// The checks. CheckRun is the call under the minimal ctx, for any role
// (`pure-runs` in `test --smoke --json`).
const (
	CheckManifest        Check = "manifest"
	CheckSchemas         Check = "schemas"
	CheckExport          Check = "export"
	CheckRun             Check = "pure-runs"
	CheckCapabilityGuard Check = "capability-guard"
	CheckCacheable       Check = "cacheable"
)

// Node statuses.
const (
	Passed = "passed"
	Failed = "failed"
	NotRun = "not-run"
)

// Finding is one failure or warning.
type Finding struct {
	Check   Check  `json:"check"`
	Message string `json:"message"`
	Code    string `json:"code,omitempty"` // the error code, where the failure has one
	File    string `json:"file,omitempty"` // the pack file it is about, slash-separated
	Hint    string `json:"hint,omitempty"`
}

// NodeVerdict is the verdict on one node.
type NodeVerdict struct {
	TypeID string `json:"typeId"`
	Role   string `json:"role,omitempty"`
	// Status is passed, failed or not-run (the node was not called: its
	// pack's entry did not import or exports no `nodes` object; or its
	// runtime is not javascript). Passed is Status == passed.
	Status string `json:"status"`
	Passed bool   `json:"passed"`
	// Check and Message are the first failure's (empty when none).
	Check   Check  `json:"check,omitempty"`
	Message string `json:"message,omitempty"`
	Code    string `json:"code,omitempty"`
	// Outcome is what the call did: returned, threw, timeout or died.
	Outcome  string    `json:"outcome,omitempty"`
	Failures []Finding `json:"failures,omitempty"`
	Warnings []Finding `json:"warnings,omitempty"`
}

// Report is the smoke test of one pack.
type Report struct {
	Pack   string `json:"pack"` // its name, else its folder's
	Kind   string `json:"kind"` // "node" or the manifest's kind
	Passed bool   `json:"passed"`
	// Note says why nothing ran, when nothing did (a pack of another kind,
	// a node pack without nodes).
	Note string `json:"note,omitempty"`
	// Checks are the checks passed, in the script's words ("manifest
	// valid", "3 schemas compile", "2 typeIds wired to executors", "2 nodes
	// smoke-tested", "1 agents declared").
	Checks []string `json:"checks"`
	// Problems are the failures not about one node (manifest, schemas,
	// the entry's import or its `nodes` export).
	Problems []Finding     `json:"problems"`
	Nodes    []NodeVerdict `json:"nodes"`
}

// Warnings counts the nodes' warnings.
func (r *Report) Warnings() int {
	n := 0
	for _, nv := range r.Nodes {
		n += len(nv.Warnings)
	}
	return n
}

// Options configure Run.
type Options struct {
	// Nodes limits the calls to these nodes (a typeId or its last
	// segment); empty: every node. The other checks are the pack's.
	Nodes []string
	// Timeout bounds one call (zero: DefaultTimeout).
	Timeout time.Duration
	// Caller runs the nodes (nil: NodeCaller).
	Caller Caller
	// Validator checks the manifest and compiles the schemas (nil: one
	// with the embedded schemas).
	Validator *validate.Validator
}

// HostCapabilityMissing is the code a node throws when a host surface it
// needs is absent; the script compares it exactly (lower case).
const HostCapabilityMissing = "host_capability_missing"

// Run smoke-tests the pack in dir. The error is for what stops the test
// itself (an unreadable pack, node missing: werr codes); what the test
// finds is in the Report.
func Run(ctx context.Context, dir string, o Options) (*Report, error) {
	v := o.Validator
	if v == nil {
		var err error
		if v, err = validate.New(validate.Options{}); err != nil {
			return nil, err
		}
	}
	fsys, err := untrusted.DirFS(dir)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot open the pack folder %s", dir)
	}
	rep := &Report{Pack: path.Base(strings.ReplaceAll(dir, "\\", "/")), Kind: kinds.NodeName, Checks: []string{}, Problems: []Finding{}, Nodes: []NodeVerdict{}}
	data, err := fs.ReadFile(fsys, "pack.json")
	if err != nil {
		if werr.CodeOf(err) == "" {
			return nil, werr.Wrap(werr.Invalid, "manifest_missing", err, "%s has no readable pack.json", dir).
				WithHint("run the smoke test on a pack folder (the one with pack.json)")
		}
		return nil, err
	}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "manifest_invalid", err, "%s/pack.json is not valid JSON", dir)
	}
	var m struct {
		Name    any `json:"name"`
		Kind    any `json:"kind"`
		Nodes   any `json:"nodes"`
		Agents  any `json:"agents"`
		Runtime struct {
			Language any `json:"language"`
			Entry    any `json:"entry"`
		} `json:"runtime"`
	}
	_ = untrusted.DecodeJSON(data, &m) // a shape the schema refuses reads as absent below
	if s, ok := m.Name.(string); ok && s != "" {
		rep.Pack = s
	}
	if k, ok := m.Kind.(string); ok && k != "" && k != kinds.NodeName {
		rep.Kind = k
		rep.Passed = true
		rep.Note = fmt.Sprintf("no node to run: this is a %s pack; the smoke test runs node packs (the registry's script checks every pack against the node pack schema and fails this one, see docs/RUN.md)", k)
		return rep, nil
	}

	// (1) The manifest against the node pack schema of its spec version.
	spec, _ := kinds.DetectSpec(doc.Root)
	var errs []validate.Problem
	for _, p := range v.SchemaProblemsFor(spec, kinds.NodePack, doc, "") {
		if p.Severity == validate.Error {
			errs = append(errs, p)
		}
	}
	if len(errs) > 0 {
		msg := "manifest invalid: " + describe(errs[0])
		if len(errs) > 1 {
			msg += fmt.Sprintf(" (and %d more)", len(errs)-1)
		}
		rep.Problems = append(rep.Problems, Finding{Check: CheckManifest, Message: msg, File: "pack.json",
			Hint: "run `wopkit validate` on the pack for every problem with its line"})
	} else {
		rep.Checks = append(rep.Checks, "manifest valid")
	}

	// (2) Every schemas/*.json compiles.
	schemaFiles, schemaFailures := 0, 0
	if ents, err := fs.ReadDir(fsys, "schemas"); err == nil {
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			schemaFiles++
			name := "schemas/" + e.Name()
			b, err := fs.ReadFile(fsys, name)
			if err == nil {
				err = v.CompilePackSchema(name, b)
			}
			if err != nil {
				schemaFailures++
				rep.Problems = append(rep.Problems, Finding{Check: CheckSchemas, File: name,
					Message: fmt.Sprintf("schema %s doesn't compile: %s", e.Name(), oneLine(err.Error()))})
			}
		}
	}
	if schemaFiles > 0 && schemaFailures == 0 {
		rep.Checks = append(rep.Checks, fmt.Sprintf("%d schemas compile", schemaFiles))
	}

	// (3, 4) The entry's exports, and each node called once.
	nodes, _ := m.Nodes.([]any)
	agents, _ := m.Agents.([]any)
	if len(nodes) > 0 {
		if err := runNodes(ctx, rep, fsys, dir, nodes, m.Runtime.Language, m.Runtime.Entry, o); err != nil {
			return nil, err
		}
	} else {
		rep.Note = "no node to run: pack.json declares no nodes"
	}
	if len(agents) > 0 {
		rep.Checks = append(rep.Checks, fmt.Sprintf("%d agents declared", len(agents)))
	}
	rep.Passed = len(rep.Problems) == 0 && !slices.ContainsFunc(rep.Nodes, func(n NodeVerdict) bool { return n.Status == Failed })
	return rep, nil
}

// runNodes checks the exports and calls the nodes.
func runNodes(ctx context.Context, rep *Report, fsys fs.FS, dir string, nodes []any, language, entry any, o Options) error {
	cacheable := make([]bool, len(nodes))
	for i, n := range nodes {
		obj, _ := n.(map[string]any)
		id, _ := obj["typeId"].(string)
		role, _ := obj["role"].(string)
		caps, _ := obj["capabilities"].([]any)
		cacheable[i] = slices.Contains(caps, any("cacheable"))
		rep.Nodes = append(rep.Nodes, NodeVerdict{TypeID: id, Role: role, Status: NotRun})
	}
	lang, _ := language.(string)
	caller := o.Caller
	switch {
	case lang == "wasm" && caller == nil:
		caller = WasmCaller{}
	case lang == "wasm", lang == "javascript":
	default:
		rep.Problems = append(rep.Problems, Finding{Check: CheckExport, Code: "unsupported_runtime",
			Message: fmt.Sprintf("the nodes were not run: runtime.language is %q; the smoke test runs javascript and wasm nodes (the registry's script would import index.mjs all the same)", lang),
			Hint:    "a remote, python or go pack's nodes run in their own runtime, not under node"})
		return nil
	}
	e, _ := entry.(string)
	if e == "" {
		e = "./index.mjs"
	}
	clean := strings.TrimPrefix(e, "./")
	if clean == "" || !fs.ValidPath(clean) {
		rep.Problems = append(rep.Problems, Finding{Check: CheckExport, File: "pack.json",
			Message: fmt.Sprintf("the nodes were not run: runtime.entry %q is not a path inside the pack", e)})
		return nil
	}
	if st, err := fs.Stat(fsys, clean); err != nil || !st.Mode().IsRegular() {
		rep.Problems = append(rep.Problems, Finding{Check: CheckExport, File: clean,
			Message: fmt.Sprintf("%s import failed: runtime.entry %q is not a file of the pack", clean, e)})
		return nil
	}
	// The calls, limited to the nodes asked for.
	var ids []string
	var which []int
	for i, nv := range rep.Nodes {
		if wanted(nv.TypeID, o.Nodes) {
			ids = append(ids, nv.TypeID)
			which = append(which, i)
		}
	}
	if caller == nil {
		caller = NodeCaller{}
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	obs, err := caller.Call(ctx, Target{Dir: dir, Entry: clean, TypeIDs: ids, Timeout: timeout})
	if err != nil {
		return err
	}
	switch {
	case obs.ImportError != "":
		hint := "fix the module so that `node -e 'import(\"./" + clean + "\")'` succeeds in the pack folder"
		if lang == "wasm" {
			hint = "the module must instantiate with only RFC 0008's openwop imports and export its ABI (openwop_abi_version 1, ...)"
		}
		rep.Problems = append(rep.Problems, Finding{Check: CheckExport, File: clean, Code: obs.ImportCode,
			Message: fmt.Sprintf("%s import failed: %s", clean, obs.ImportError), Hint: hint})
		return nil
	case obs.NodesExport != "object" && obs.NodesExport != "array":
		hint := "add `export const nodes = { \"<typeId>\": fn, ... }` (and `export default nodes`), mapping every typeId to its function"
		if obs.DefaultExport == "object" {
			hint = "the typeId map is only the default export: the reference host and the registry's script read the named export; add `export const nodes = <that object>;` beside `export default nodes`"
		}
		rep.Problems = append(rep.Problems, Finding{Check: CheckExport, File: clean,
			Message: fmt.Sprintf("%s has no named `nodes` export (it is %s): the registry's script says \"index.mjs missing default 'nodes' export\"", clean, article(obs.NodesExport)),
			Hint:    hint})
		rep.Checks = append(rep.Checks, fmt.Sprintf("%d nodes smoke-tested", len(rep.Nodes)))
		return nil
	}
	wired := true
	for k, c := range obs.Calls {
		if k >= len(which) {
			break
		}
		nv := &rep.Nodes[which[k]]
		judge(nv, c, cacheable[which[k]], timeout)
		if nv.Check == CheckExport {
			wired = false
		}
	}
	if wired && len(o.Nodes) == 0 {
		rep.Checks = append(rep.Checks, fmt.Sprintf("%d typeIds wired to executors", len(rep.Nodes)))
	}
	rep.Checks = append(rep.Checks, fmt.Sprintf("%d nodes smoke-tested", len(rep.Nodes)))
	return nil
}

// judge applies the script's rules to one node's call, and wopkit's where
// the script gives no verdict.
func judge(nv *NodeVerdict, c Call, cacheable bool, timeout time.Duration) {
	fail := func(ch Check, code, msg, hint string) {
		nv.Failures = append(nv.Failures, Finding{Check: ch, Code: code, Message: msg, Hint: hint})
	}
	id := nv.TypeID
	pure := nv.Role == "pure"
	nv.Outcome = c.Outcome
	switch {
	case c.Export == "missing":
		fail(CheckExport, "", fmt.Sprintf("no export for typeId %s", id), "add the node's function to `nodes` under exactly this typeId")
		nv.Outcome = ""
	case c.Export != "function":
		fail(CheckExport, "", fmt.Sprintf("export %s not a function (it is %s)", id, article(c.Export)), "map the typeId to the node's async function")
		nv.Outcome = ""
	case c.Outcome == Returned:
		if c.Result != "object" && c.Result != "array" {
			fail(CheckRun, "pack_node_error", fmt.Sprintf("%s: returned non-object (%s)", id, article(c.Result)),
				"return { status: \"success\", outputs: { ... } }, or throw an error with a code when the inputs are missing")
		} else if !c.HasOutputs {
			fail(CheckRun, "pack_node_error", fmt.Sprintf("%s: missing 'outputs' key in result", id),
				"return { status: \"success\", outputs: { ... } }")
		}
		if pure && !cacheable {
			fail(CheckCacheable, "", fmt.Sprintf("%s: role:pure should include capabilities:['cacheable']", id),
				"add \"cacheable\" to the node's capabilities in pack.json, or give it another role")
		}
		if !pure {
			nv.Warnings = append(nv.Warnings, Finding{Check: CheckCapabilityGuard,
				Message: fmt.Sprintf("%s: a %s node returned under the minimal ctx, with no host capability; the registry's script promises (without checking) that a non-pure node throws host_capability_missing when its capability is absent", id, roleName(nv.Role)),
				Hint:    "if the node needs a host surface (ctx.http, ctx.storage, ctx.callAI, ...), throw an error with code \"host_capability_missing\" when it is absent; if it needs none, its role may be pure"})
		}
	case c.Outcome == Threw:
		switch {
		case c.Thrown == "null" || c.Thrown == "undefined":
			fail(CheckRun, "pack_node_error", fmt.Sprintf("%s: threw %s, not an error (the registry's script crashes reading its code: no verdict)", id, c.Thrown),
				"throw an Error with a string code, such as input_invalid")
		case pure && c.Code == HostCapabilityMissing:
			fail(CheckRun, HostCapabilityMissing, fmt.Sprintf("%s: pure-tagged but throws host_capability_missing — mis-classified role", id),
				"a pure node needs no host adapter: give the node the role it has (side-effect, ...), or stop needing the host")
		}
	case c.Outcome == Suspended: // wasm: an outcome the ABI allows
	case c.Outcome == TimedOut:
		fail(CheckRun, "sandbox_timeout", fmt.Sprintf("%s: did not settle within %s (the registry's script waits for ever, or exits 13: no verdict)", id, timeout),
			"a node must settle: reject when its inputs are missing rather than wait")
	default: // Died
		code := c.Code
		if code == "" {
			code = "sandbox_invocation_error"
		}
		fail(CheckRun, code, fmt.Sprintf("%s: %s (the registry's script gives no verdict)", id, c.Message),
			"a node must return or throw, never end or block the process")
	}
	if len(nv.Failures) > 0 {
		nv.Status, nv.Passed = Failed, false
		nv.Check, nv.Message, nv.Code = nv.Failures[0].Check, nv.Failures[0].Message, nv.Failures[0].Code
	} else {
		nv.Status, nv.Passed = Passed, true
		if c.Outcome == Threw {
			nv.Code = c.Code
		}
	}
}

func roleName(r string) string {
	if r == "" {
		return "role-less"
	}
	return r
}

// wanted reports whether typeId is among the nodes asked for (all when
// none): a typeId or its last segment.
func wanted(typeID string, asked []string) bool {
	if len(asked) == 0 {
		return true
	}
	last := typeID[strings.LastIndexByte(typeID, '.')+1:]
	return slices.Contains(asked, typeID) || slices.Contains(asked, last)
}

// describe is a schema problem in one line.
func describe(p validate.Problem) string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "/"
	}
	return fmt.Sprintf("%s: %s", ptr, oneLine(p.Message))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// article is a value kind with its article: "a string", "an object",
// "undefined", "null".
func article(kind string) string {
	switch kind {
	case "undefined", "null", "":
		if kind == "" {
			return "undefined"
		}
		return kind
	case "object", "array":
		return "an " + kind
	}
	return "a " + kind
}

// ForValidate is OW023 (validate --for-registry --run-entry): the smoke
// test of the pack in dir as validate's findings, without what other rules
// report (the manifest against its schema; the entry's import and exports,
// OW017). When the test cannot run, it finds nothing: OW017 says why.
func ForValidate(dir string) []validate.SmokeFinding {
	rep, err := Run(context.Background(), dir, Options{})
	if err != nil {
		return nil
	}
	var out []validate.SmokeFinding
	for _, p := range rep.Problems {
		if p.Check == CheckSchemas {
			out = append(out, validate.SmokeFinding{Pointer: "", Message: "smoke test: " + p.Message, Hint: "the registry's test-packs.mjs compiles every schemas/*.json with Ajv 2020; `wopkit test --smoke` runs the same"})
		}
	}
	for i, nv := range rep.Nodes {
		ptr := fmt.Sprintf("/nodes/%d/typeId", i)
		for _, f := range nv.Failures {
			if f.Check == CheckExport {
				continue
			}
			msg := "smoke test: " + f.Message
			if f.Code != "" {
				msg += " (" + f.Code + ")"
			}
			out = append(out, validate.SmokeFinding{Pointer: ptr, Message: msg, Hint: f.Hint})
		}
		for _, f := range nv.Warnings {
			out = append(out, validate.SmokeFinding{Pointer: ptr, Message: "smoke test: " + f.Message, Hint: f.Hint, Warning: true})
		}
	}
	return out
}
