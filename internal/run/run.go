package run

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// Input is what one run of a node is given, as bytes read from files (nil:
// not given). Names are the files' names as the user gave them, for the
// problems' positions.
type Input struct {
	Config, Input, Mocks, Secrets, Resume                     []byte
	ConfigName, InputName, MocksName, SecretsName, ResumeName string
}

// Report is `wopkit run --json` (docs/CLI.md).
type Report struct {
	Node            string          `json:"node"`
	Status          string          `json:"status"`
	Outputs         json.RawMessage `json:"outputs"`
	Error           *CallError      `json:"error"`
	Interrupt       *Interrupt      `json:"interrupt"`
	Events          []Event         `json:"events"`
	Logs            []Log           `json:"logs"`
	Problems        []FileProblem   `json:"problems"`
	Warnings        []string        `json:"warnings"`
	DurationMs      int64           `json:"durationMs"`
	PeakMemoryBytes uint64          `json:"peakMemoryBytes"`
	// Stdout is what the node printed (the first 64 KiB).
	Stdout string `json:"stdout,omitempty"`
}

// FileProblem is a validate problem with the file it is in.
type FileProblem struct {
	File string `json:"file"`
	validate.Problem
}

// Passed reports whether the run succeeded (or suspended, as asked).
func (r *Report) Passed() bool { return r.Status == "success" || r.Status == "suspended" }

// Prepared is one call checked and ready: its ctx data and the host
// surfaces, or the problems that stop it.
type Prepared struct {
	Call     Call
	Problems []FileProblem
	Code     string // node_config_invalid | node_input_invalid when Problems stop it
	secrets  []string
}

// Prepare checks in against node's schemas and builds the call.
func Prepare(p *Pack, n Node, in Input) (*Prepared, error) {
	pr := &Prepared{Call: Call{TypeID: n.TypeID}}
	config, err := checked(p, n.ConfigRef, in.Config, orName(in.ConfigName, "(config {})"), "node_config_invalid", pr)
	if err != nil {
		return nil, err
	}
	inputs, err := checked(p, n.InputRef, in.Input, orName(in.InputName, "(input {})"), "node_input_invalid", pr)
	if err != nil {
		return nil, err
	}
	if in.Mocks != nil {
		var m map[string]any
		if err := untrusted.DecodeJSON(in.Mocks, &m); err != nil {
			return nil, werr.Wrap(werr.Invalid, "mocks_invalid", err, "%s is not a JSON object of surfaces", in.MocksName).
				WithHint(`write {"surface": {"method": [answer, …]}}`)
		}
		pr.Call.Mocks = m
	}
	if in.Secrets != nil {
		s, err := parseSecrets(in.Secrets)
		if err != nil {
			return nil, werr.Wrap(werr.Invalid, "secrets_invalid", err, "%s is neither a JSON object of strings nor a .env file", in.SecretsName)
		}
		pr.Call.Secrets = s
		for _, v := range s {
			if v != "" {
				pr.secrets = append(pr.secrets, v)
			}
		}
	}
	if in.Resume != nil {
		var v any
		if err := untrusted.DecodeJSON(in.Resume, &v); err != nil {
			return nil, werr.Wrap(werr.Invalid, "resume_invalid", err, "%s is not JSON", in.ResumeName)
		}
		pr.Call.Resume, pr.Call.HasResume = v, true
	}
	pr.Call.Ctx = BuildCtx(n, config, inputs)
	return pr, nil
}

func orName(name, dflt string) string {
	if name == "" {
		return dflt
	}
	return name
}

// checked decodes a config or input (nil: {}) and records its schema
// problems.
func checked(p *Pack, ref string, src []byte, name, code string, pr *Prepared) (map[string]any, error) {
	if src == nil {
		src = []byte("{}")
	}
	sch, err := p.schema(ref)
	if err != nil {
		return nil, err
	}
	if sch != nil {
		for _, prob := range sch.Check(src) {
			pr.Problems = append(pr.Problems, FileProblem{File: name, Problem: prob})
			if pr.Code == "" {
				pr.Code = code
			}
		}
	}
	var v any
	if err := untrusted.DecodeJSON(src, &v); err != nil {
		if sch == nil {
			return nil, werr.Wrap(werr.Invalid, code, err, "%s is not JSON", name)
		}
		return nil, nil // its problem is recorded
	}
	m, ok := v.(map[string]any)
	if !ok && sch == nil {
		return nil, werr.New(werr.Invalid, code, "%s is not a JSON object", name)
	}
	return m, nil
}

// BuildCtx is the data members of ctx as the reference host fills them
// (the de-facto contract of docs/RUN.md), for a local run.
func BuildCtx(n Node, config, inputs map[string]any) map[string]any {
	if config == nil {
		config = map[string]any{}
	}
	if inputs == nil {
		inputs = map[string]any{}
	}
	id := make([]byte, 6)
	rand.Read(id)
	return map[string]any{
		"runId":         "run-local-" + hex.EncodeToString(id),
		"nodeId":        n.Short(),
		"tenantId":      "local",
		"userId":        "local-user",
		"inputs":        inputs,
		"config":        config,
		"configurable":  map[string]any{},
		"triggerData":   inputs,
		"attempt":       1,
		"trustBoundary": "untrusted",
	}
}

// parseSecrets reads a JSON object of strings or a .env file.
func parseSecrets(b []byte) (map[string]string, error) {
	t := bytes.TrimSpace(b)
	if len(t) > 0 && t[0] == '{' {
		var m map[string]string
		if err := untrusted.DecodeJSON(t, &m); err != nil {
			return nil, err
		}
		return m, nil
	}
	m := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("line %d is not KEY=VALUE", i+1)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		m[strings.TrimSpace(k)] = v
	}
	return m, nil
}

// Execute runs a prepared call on h and reports it: the outcome mapped,
// the outputs checked against the node's output schema, the notes a host
// would not give, the secrets' values taken out of everything shown.
func Execute(ctx context.Context, h Caller, p *Pack, n Node, pr *Prepared) (*Report, error) {
	r := &Report{Node: n.TypeID, Events: []Event{}, Logs: []Log{}, Problems: append([]FileProblem{}, pr.Problems...), Warnings: []string{}}
	if pr.Code != "" {
		r.Status = "failure"
		r.Error = &CallError{Code: pr.Code, Message: fmt.Sprintf("%d problem(s) in the %s; the node was not run", len(pr.Problems), map[string]string{"node_config_invalid": "config", "node_input_invalid": "input"}[pr.Code])}
		return r, nil
	}
	o, err := h.Call(ctx, pr.Call)
	if err != nil {
		return nil, err
	}
	r.Status, r.Outputs, r.Error, r.Interrupt = o.Status, o.Outputs, o.Error, o.Interrupt
	r.Events, r.Logs = o.Events, o.Logs
	r.DurationMs, r.PeakMemoryBytes = o.Duration.Milliseconds(), o.PeakMemoryBytes
	r.Stdout = o.Stdout
	r.Warnings = append(r.Warnings, o.Notes...)
	if r.Status == "success" {
		checkOutputs(p, n, r)
	}
	annotate(p, o, r)
	if netRefusable(h) && r.Error != nil && r.Error.Code != "sandbox_capability_denied" && netRefused(r.Error.Message) {
		r.Warnings = append(r.Warnings, "the failure looks like the network the sandbox refuses: run with --allow-net, or give the host's fetch surface (http.safeFetch) in --mocks")
	}
	redact(r, pr.secrets)
	return r, nil
}

// checkOutputs checks the outputs against the output schema.
func checkOutputs(p *Pack, n Node, r *Report) {
	var v any
	if len(r.Outputs) == 0 || string(r.Outputs) == "null" || untrusted.DecodeJSON(r.Outputs, &v) != nil {
		r.Status = "failure"
		r.Error = &CallError{Code: "node_output_invalid", Message: "the node returned {status: \"success\"} without an outputs object"}
		return
	}
	if _, ok := v.(map[string]any); !ok {
		r.Status = "failure"
		r.Error = &CallError{Code: "node_output_invalid", Message: "the node's outputs are not an object"}
		return
	}
	sch, err := p.schema(n.OutputRef)
	if err != nil {
		r.Warnings = append(r.Warnings, "the outputs were not checked: "+err.Error())
		return
	}
	if sch == nil {
		return
	}
	pretty, _ := json.MarshalIndent(v, "", "  ")
	probs := sch.Check(pretty)
	for _, prob := range probs {
		r.Problems = append(r.Problems, FileProblem{File: "(outputs)", Problem: prob})
	}
	if len(probs) > 0 {
		r.Status = "failure"
		r.Error = &CallError{Code: "node_output_invalid", Message: fmt.Sprintf("the outputs do not match %s: %s at %s", n.OutputRef, probs[0].Message, pointerText(probs[0].Pointer))}
	}
}

func pointerText(p string) string {
	if p == "" {
		return "the root"
	}
	return p
}

// registered are the v2 error registry's codes (spec/v2/errors.json) that
// a node's failure may carry.
var registered = map[string]bool{
	"node_config_invalid": true, "sandbox_invocation_error": true, "sandbox_memory_exceeded": true, "sandbox_timeout": true,
	"storage_limit_exceeded": true, "budget_exhausted": true, "capability_not_provided": true, "pack_runtime_requirement_unmet": true,
	"sandbox_capability_denied": true, "sandbox_escape_attempt": true, "mcp_error": true, "upstream_unavailable": true,
	"service_unavailable": true, "pack_load_failure": true, "credential_unavailable": true,
}

// vendorCode is a vendor error code's shape (vendor.code); compiled on first
// use.
var vendorCode = lazyre.New(`^[a-z][a-z0-9]*(-[a-z0-9]+)*\.[a-z][a-z0-9_]*$`)

// annotate adds what a host would not say: the peerDependencies family of
// a missing surface, the pack code a host drops, an unregistered code.
func annotate(p *Pack, o *Outcome, r *Report) {
	if r.Error == nil {
		return
	}
	code := r.Error.Code
	switch {
	case code == "host_capability_missing":
		need := ""
		if r.Error.Capability != "" {
			need = "the node needs " + r.Error.Capability + "; "
		}
		r.Warnings = append(r.Warnings, "host_capability_missing: "+need+p.family())
	case r.Error.PackCode != nil:
		r.Warnings = append(r.Warnings, fmt.Sprintf("the node returned {status: \"error\", error: {code: %q}}: the reference host maps every non-success return to pack_node_error and drops the pack's code; throw an Error with .code to keep it", *r.Error.PackCode))
	case o.Returned && o.Export == "":
		r.Warnings = append(r.Warnings, "a host records only {status: \"success\", outputs}; anything else is pack_node_error")
	}
	if o.Thrown && code != "pack_node_error" && code != "host_capability_missing" && !registered[code] && !strings.HasPrefix(code, "sandbox_") &&
		(!vendorCode.MatchString(code) || strings.HasPrefix(code, "openwop.")) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the node threw code %q, which is neither a registered v2 error code (%s) nor a vendor code <org>.<code>", code, strings.Join(registeredList(), ", ")))
	}
}

func registeredList() []string {
	var out []string
	for k := range registered {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// netRefused reports whether a failure's message is that of a socket or a
// name lookup the sandbox refused (as a pack's own error wraps it).
func netRefused(msg string) bool {
	for _, s := range []string{"getaddrinfo", "EAI_AGAIN", "connect EPERM", "socket EPERM", "fetch failed"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// redact replaces the secrets' values in everything shown.
func redact(r *Report, secrets []string) {
	if len(secrets) == 0 {
		return
	}
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
	fix := func(s string) string {
		for _, v := range secrets {
			s = strings.ReplaceAll(s, v, "[secret]")
		}
		return s
	}
	fixJSON := func(v any) any {
		b, err := json.Marshal(v)
		if err != nil {
			return v
		}
		var out any
		if untrusted.DecodeJSON([]byte(fix(string(b))), &out) != nil {
			return "[redacted]"
		}
		return out
	}
	if r.Outputs != nil {
		r.Outputs = json.RawMessage(fix(string(r.Outputs)))
		if !json.Valid(r.Outputs) {
			r.Outputs = json.RawMessage(`"[redacted]"`)
		}
	}
	if r.Error != nil {
		r.Error.Message = fix(r.Error.Message)
	}
	if r.Interrupt != nil {
		r.Interrupt.Data = fixJSON(r.Interrupt.Data)
	}
	for i := range r.Events {
		r.Events[i].Payload = fixJSON(r.Events[i].Payload)
	}
	for i := range r.Logs {
		r.Logs[i].Message = fix(r.Logs[i].Message)
		r.Logs[i].Data = fixJSON(r.Logs[i].Data)
	}
	r.Stdout = fix(r.Stdout)
}

// ReadStdin reads --input - (bounded).
func ReadStdin(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, werr.Wrap(werr.Env, "input_unreadable", err, "cannot read the input from standard input")
	}
	if len(b) > maxFile {
		return nil, untrusted.TooLarge("standard input", int64(len(b)), maxFile)
	}
	return b, nil
}
