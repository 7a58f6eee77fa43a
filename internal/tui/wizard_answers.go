package tui

import (
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/scaffold"
)

// What the wizard creates.
const (
	whatMixed = "mixed" // a pack with nodes, agents and a tool manifest
	whatNodes = "node"  // a pack of nodes
	whatAgent = "agent" // an agent-only pack (remote runtime)
	whatTool  = "tool"  // a standalone tool install manifest
)

// answers is everything the wizard asks, bound to its fields. Lists are
// typed as comma-separated text and split when the plan is made. It is
// also the draft kept when the author leaves half-way.
type answers struct {
	What string `json:"what"`

	Scope string `json:"scope"` // vendor, community, core, private
	Org   string `json:"org"`
	Part  string `json:"part"` // the pack's own name part

	Pack     scaffold.PackAnswers  `json:"pack"`
	Keywords string                `json:"keywords"`
	Node     scaffold.NodeAnswers  `json:"node"`
	NodeCaps []string              `json:"nodeCaps"`
	Inputs   string                `json:"inputs"`
	Outputs  string                `json:"outputs"`
	Agent    scaffold.AgentAnswers `json:"agent"`
	Tools    string                `json:"tools"`  // the agent's tool allowlist
	Memory   []string              `json:"memory"` // scratchpad, conversation, longTerm
	Conf     string                `json:"confidence"`
	WithEval bool                  `json:"withEval"`
	Eval     scaffold.EvalAnswers  `json:"eval"`
	Pass     string                `json:"passScore"`
	Task     scaffold.TaskAnswers  `json:"task"`
	Criteria string                `json:"criteria"`

	Tool     scaffold.ToolAnswers  `json:"tool"`
	EnvName  string                `json:"envName"`
	EnvSec   bool                  `json:"envSecret"`
	ScopeRes string                `json:"scopeResource"`
	Action   scaffold.ActionAnswer `json:"action"`

	SignMethod string `json:"signMethod"` // none, manual, v2
	KeyChoice  string `json:"keyChoice"`  // new or existing
	KeyPath    string `json:"keyPath"`    // existing key file, or the prefix of a new pair
	KeyID      string `json:"keyId"`
}

// newAnswers starts from the scaffold's defaults.
func newAnswers() *answers {
	a := &answers{
		What: whatMixed, Scope: "community", Org: "example", Part: "my-pack",
		Pack: scaffold.PackAnswers{}.Defaults(), Node: scaffold.NodeAnswers{}.Defaults(),
		Agent: scaffold.AgentAnswers{}.Defaults(), Eval: scaffold.EvalAnswers{}.Defaults(),
		Task: scaffold.TaskAnswers{}.Defaults(), Tool: scaffold.ToolAnswers{}.Defaults(),
		WithEval: true, SignMethod: "manual", KeyChoice: "new",
	}
	a.Keywords = strings.Join(a.Pack.Keywords, ", ")
	a.NodeCaps = a.Node.Capabilities
	a.Inputs, a.Outputs = strings.Join(a.Node.Inputs, ", "), strings.Join(a.Node.Outputs, ", ")
	a.Tools = strings.Join(a.Agent.ToolAllowlist, ", ")
	a.Conf = strconv.FormatFloat(a.Agent.Confidence, 'f', -1, 64)
	a.Pass = strconv.FormatFloat(a.Eval.PassScore, 'f', -1, 64)
	a.Criteria = "answers the task, stays concise"
	if len(a.Tool.Actions) > 0 {
		a.Action = a.Tool.Actions[0]
	}
	return a
}

// name is the full reverse-DNS pack name as it forms.
func (a *answers) name() string {
	parts := []string{a.Scope}
	if a.Scope != "core" || a.Org != "" {
		parts = append(parts, a.Org)
	}
	return strings.Join(append(parts, a.Part), ".")
}

// isPack reports whether a pack (not only a tool manifest) is created.
func (a *answers) isPack() bool { return a.What != whatTool }

// hasNodes, hasAgent and hasTool say which parts the pack gets.
func (a *answers) hasNodes() bool { return a.What == whatMixed || a.What == whatNodes }
func (a *answers) hasAgent() bool { return a.What == whatMixed || a.What == whatAgent }
func (a *answers) hasTool() bool  { return a.What == whatMixed || a.What == whatTool }

// packAnswers assembles the scaffold's pack answers.
func (a *answers) packAnswers() scaffold.PackAnswers {
	p := a.Pack
	p.Name = a.name()
	p.Keywords = splitList(a.Keywords)
	p.Nodes, p.Agents = nil, nil
	if a.hasNodes() {
		n := a.Node
		n.Capabilities = a.NodeCaps
		n.Inputs, n.Outputs = splitList(a.Inputs), splitList(a.Outputs)
		p.Nodes = []scaffold.NodeAnswers{n}
	} else {
		p.Runtime = scaffold.RuntimeAnswers{Language: "remote"}
	}
	if a.hasAgent() {
		g := a.Agent
		g.ToolAllowlist = splitList(a.Tools)
		g.Memory = scaffold.Memory{}
		for _, m := range a.Memory {
			switch m {
			case "scratchpad":
				g.Memory.Scratchpad = true
			case "conversation":
				g.Memory.Conversation = true
			case "longTerm":
				g.Memory.LongTerm = true
			}
		}
		g.Confidence = parseFloat(a.Conf, -1)
		g.Eval = nil
		if a.WithEval {
			e := a.Eval
			t := a.Task
			t.Criteria = splitList(a.Criteria)
			e.Tasks = []scaffold.TaskAnswers{t}
			e.PassScore = parseFloat(a.Pass, -1)
			g.Eval = &e
		}
		p.Agents = []scaffold.AgentAnswers{g}
	}
	return p
}

// toolAnswers assembles the scaffold's tool answers.
func (a *answers) toolAnswers() scaffold.ToolAnswers {
	t := a.Tool
	t.Env, t.Scopes = nil, nil
	act := a.Action
	act.ScopesUsed = nil
	if a.EnvName != "" {
		t.Env = []scaffold.EnvAnswers{{Name: a.EnvName, Secret: a.EnvSec, Required: true}}
	}
	if a.ScopeRes != "" {
		t.Scopes = []scaffold.ScopeAnswers{{Resource: a.ScopeRes, Actions: []string{"read"}, Rationale: "the action " + act.Name + " reads it"}}
		act.ScopesUsed = []string{a.ScopeRes}
	}
	t.Actions = []scaffold.ActionAnswer{act}
	return t
}

// splitList splits comma-separated text into trimmed, non-empty items.
func splitList(s string) []string {
	out := []string{}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parseFloat(s string, def float64) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return def
	}
	return f
}
