// Package scaffold turns answers (plain Go values with defaults and
// per-field checks, independent of any UI) into the files of a new OpenWOP
// pack (node, workflow-chain or prompt), agent, node, eval suite, chain or
// tool install manifest. `wopkit new --yes`
// and the terminal wizard both fill the same answer structs and call Plan,
// so they produce the same bytes; Plan lists the files without writing and
// Plan.Write writes them all or nothing.
package scaffold

import "strings"

// PackAnswers describe a new node pack (pack.json and the files beside it).
type PackAnswers struct {
	PackIdentity
	Runtime RuntimeAnswers `json:"runtime"`
	Nodes   []NodeAnswers  `json:"nodes"`  // at least one unless the runtime is remote
	Agents  []AgentAnswers `json:"agents"` // at least one when the runtime is remote
}

// PackIdentity is what names and describes a pack, whatever its kind: one
// struct that a node pack's answers (PackAnswers) and every declarative
// kind's (Identity) embed, so that a field added here is every kind's.
type PackIdentity struct {
	Name        string   `json:"name"`        // reverse-DNS pack name, e.g. vendor.acme.hello
	Version     string   `json:"version"`     // SemVer of the pack
	Description string   `json:"description"` // one paragraph
	Author      string   `json:"author"`
	License     string   `json:"license"` // SPDX identifier; chooses the LICENSE text
	Homepage    string   `json:"homepage"`
	Repository  string   `json:"repository"`
	Keywords    []string `json:"keywords"`
	// Engines is engines.openwop's semver range; empty: the spec's default.
	Engines string `json:"engines" doc:"engines/openwop"`
	// Spec is the OpenWOP spec version the pack is written for: "v2" (the
	// default: kind, an engines ceiling admitting major 2, agents' role) or
	// "v1" (exactly what wopkit wrote before v2).
	Spec string `json:"spec" doc:"-"`
}

// RuntimeAnswers choose how a host loads the pack. Format, Entry and
// MinRuntimeVersion default from the runtime's template (templates/runtimes).
type RuntimeAnswers struct {
	Language          string `json:"language"` // javascript, python, go, wasm or remote
	Format            string `json:"format"`
	Entry             string `json:"entry"`
	MinRuntimeVersion string `json:"minRuntimeVersion"`
}

// NodeAnswers describe one node type of a pack.
type NodeAnswers struct {
	// ID is the node's typeId, or, without a dot, a suffix appended to the
	// pack name ("hello" in pack vendor.acme.x is vendor.acme.x.hello).
	ID           string   `json:"id"`
	Version      string   `json:"version"`
	Label        string   `json:"label"`
	Description  string   `json:"description"`
	Category     string   `json:"category"` // chat, control, data, canvas, coordination, integration
	Role         string   `json:"role"`     // pure, side-effect, human-input, streaming-output, gate
	Capabilities []string `json:"capabilities"`
	Inputs       []string `json:"inputs"`  // input port names (string ports in the generated schema)
	Outputs      []string `json:"outputs"` // output port names
}

// AgentAnswers describe one agent of a pack.
type AgentAnswers struct {
	// ID is the agentId, or, without a dot, a suffix appended to the pack name.
	ID          string `json:"id"`
	Persona     string `json:"persona"`
	Label       string `json:"label"`
	Description string `json:"description"`
	ModelClass  string `json:"modelClass"` // reasoning, writing, coding, research, classification, general
	// SystemPrompt is the prompt text. It goes to PromptFile (default
	// prompts/<suffix>.md) unless PromptInline is set.
	SystemPrompt  string   `json:"systemPrompt"`
	PromptInline  bool     `json:"systemPromptInline"`
	PromptFile    string   `json:"systemPromptFile"`
	ToolAllowlist []string `json:"toolAllowlist"` // <scope>:<tool-id> entries
	Memory        Memory   `json:"memory"`
	// Confidence is confidence.defaultThreshold (0..1); negative omits it.
	Confidence float64 `json:"confidence"`
	// Handoff writes task and return JSON Schemas and references them.
	Handoff bool `json:"handoff"`
	// Eval, when set, writes an eval suite under evals/ referenced by evalSuiteRef.
	Eval *EvalAnswers `json:"eval"`
}

// Memory is an agent's memoryShape.
type Memory struct {
	Scratchpad   bool `json:"scratchpad"`
	Conversation bool `json:"conversation"`
	LongTerm     bool `json:"longTerm"`
}

// EvalAnswers describe an agent eval suite.
type EvalAnswers struct {
	// SuiteID defaults to <pack name>.evals.<agent suffix>.
	SuiteID string `json:"suiteId"`
	Version string `json:"version"`
	// TargetAgentID is the agent the suite is for ("" for agent-agnostic,
	// but the scaffold fills it with the agent it is created with).
	TargetAgentID string        `json:"targetAgentId"`
	Modes         []string      `json:"modes"`         // golden, rubric, adversarial, regression, live-shadow
	AllowedModels []string      `json:"allowedModels"` // defaults to the agent's modelClass
	PassScore     float64       `json:"passScore"`     // thresholds.passScore; negative omits thresholds
	File          string        `json:"file"`          // default evals/<suffix>.json
	Tasks         []TaskAnswers `json:"tasks"`
}

// TaskAnswers describe one eval task.
type TaskAnswers struct {
	ID       string   `json:"id"`
	Input    string   `json:"input"`    // the task input text (sent as {"text": Input})
	Kind     string   `json:"kind"`     // golden or rubric
	Strategy string   `json:"strategy"` // golden: exact, contains or json-match
	Expected string   `json:"expected"` // golden: the expected value
	Criteria []string `json:"criteria"` // rubric: criteria, weighted equally
}

// ToolAnswers describe an agent tool install manifest (v0.4).
type ToolAnswers struct {
	Tool       ToolIdentity   `json:"tool"`
	Runtime    ToolRuntime    `json:"runtime"`
	Install    InstallAnswers `json:"install"`
	Env        []EnvAnswers   `json:"env"`
	Scopes     []ScopeAnswers `json:"scopes"`
	Actions    []ActionAnswer `json:"actions"`
	Smoke      SmokeAnswers   `json:"smoke"`
	KillSwitch KillSwitch     `json:"killSwitch"`
}

// ToolIdentity is the manifest's tool block.
type ToolIdentity struct {
	ID        string `json:"id"`
	Namespace string `json:"namespace"`
	Version   string `json:"version"`
	Name      string `json:"name"`
	Summary   string `json:"summary"`
	Homepage  string `json:"homepage"`
	License   string `json:"license"`
}

// ToolRuntime chooses the execution surface.
type ToolRuntime struct {
	Kind        string   `json:"kind"`    // mcp-stdio, mcp-http, python-module, node-module, shell-binary, container
	Command     []string `json:"command"` // entrypoint argv; derived from kind and install when empty
	EndpointURL string   `json:"endpointUrl"`
}

// InstallAnswers choose how the tool is acquired. Only the fields of the
// chosen Method are written.
type InstallAnswers struct {
	Method      string `json:"method"` // pip, npm, git, container, url, preinstalled
	Package     string `json:"package"`
	VersionSpec string `json:"versionSpec"`
	URL         string `json:"url"`
	Ref         string `json:"ref"`
	Image       string `json:"image"`
	SHA256      string `json:"sha256"`
	// Locator is the preinstalled probe kind: python-module, binary-on-path
	// or mcp-server-id (derived from the runtime kind when empty); Probe is
	// its module, binary or server id.
	Locator string `json:"locator"`
	Probe   string `json:"probe"`
}

// EnvAnswers is one environment variable the owner is asked for. Its
// prompt and whether it is a secret follow from its name until they are
// given (see EnvPrompt and SecretName): Prompt "" and Secret nil are
// derived from the current name whenever it changes.
type EnvAnswers struct {
	Name     string `json:"name"`
	Prompt   string `json:"prompt"`
	Secret   *bool  `json:"secret"`
	Required bool   `json:"required"`
}

// ScopeAnswers is one permission the tool exercises.
type ScopeAnswers struct {
	Resource  string   `json:"resource"` // e.g. net.outbound, gmail.messages
	Actions   []string `json:"actions"`  // read, write, delete, send, execute, admin
	Rationale string   `json:"rationale"`
	// Sensitivity is the data_boundary.reads sensitivity (low, medium, high)
	// ("" : medium for private data, left out for other resources).
	Sensitivity string `json:"sensitivity"`
}

// ActionAnswer is one entry of the tool's actions[] catalog.
type ActionAnswer struct {
	Name        string   `json:"name"` // snake_case
	Summary     string   `json:"summary"`
	SideEffects string   `json:"sideEffects"` // none, read, write, destructive
	Inputs      []string `json:"inputs"`      // string properties of the input schema
	ScopesUsed  []string `json:"scopesUsed"`
}

// SmokeAnswers choose the install smoke test. Kind "" derives it: an
// mcp-tool-call for MCP kinds, otherwise an action-call of the first action
// without side effects.
type SmokeAnswers struct {
	Kind   string `json:"kind"` // "", shell, http, mcp-tool-call, action-call
	Target string `json:"target"`
	// Target is the action or MCP tool name (action-call, mcp-tool-call), the
	// URL (http) or a space-separated command (shell).
}

// KillSwitch says how the owner revokes the tool. Kind "" derives an
// honest one: none when the tool holds no credentials and persists
// nothing, otherwise manual with Instructions.
type KillSwitch struct {
	Kind         string `json:"kind"` // "", none, url, shell, manual
	URL          string `json:"url"`
	Command      string `json:"command"` // space-separated argv for shell
	Instructions string `json:"instructions"`
}

// Runtimes lists the pack runtimes the templates offer, in menu order.
var Runtimes = []string{"javascript", "python", "go", "wasm", "remote"}

// ToolKinds lists the tool runtime kinds, in menu order.
var ToolKinds = []string{"mcp-stdio", "mcp-http", "python-module", "node-module", "shell-binary", "container"}

// InstallMethods lists the tool install methods, in menu order.
var InstallMethods = []string{"pip", "npm", "git", "container", "url", "preinstalled"}

// ModelClasses lists the agent model classes of the schema.
var ModelClasses = []string{"reasoning", "writing", "coding", "research", "classification", "general"}

// NodeCategories lists the node categories of the schema.
var NodeCategories = []string{"chat", "control", "data", "canvas", "coordination", "integration"}

// Licenses lists the licenses offered first (any SPDX identifier is accepted).
var Licenses = []string{"Apache-2.0", "MIT", "BSD-3-Clause", "MPL-2.0", "GPL-3.0-only", "PROPRIETARY"}

// suffix returns the last dot-separated part of an id.
func suffix(id string) string {
	if i := strings.LastIndexByte(id, '.'); i >= 0 {
		return id[i+1:]
	}
	return id
}

// Qualify is the id a declarative entry's answer id is written as: a bare
// suffix prefixed with the pack name (a dotted id is kept).
func Qualify(pack, id string) string { return qualify(pack, id) }

// qualify prefixes a bare suffix with the pack name.
func qualify(pack, id string) string {
	if id == "" || strings.Contains(id, ".") || pack == "" {
		return id
	}
	return pack + "." + id
}
