package tui

import (
	"fmt"
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

	whatSoloAgent = "solo-agent" // a standalone agent manifest (no pack)
	whatSoloEval  = "solo-eval"  // a standalone eval suite (no pack)
)

// answers is everything the wizard asks, bound to its fields. Lists are
// typed as comma-separated text and split when the plan is made. It is
// also the draft kept when the author leaves half-way.
type answers struct {
	What string `json:"what"`

	Scope string `json:"scope"` // vendor, community, core, private
	Org   string `json:"org"`
	Part  string `json:"part"` // the pack's own name part

	Pack     scaffold.PackAnswers `json:"pack"`
	Keywords string               `json:"keywords"`
	Nodes    []*nodeAnswers       `json:"nodes"`
	Agents   []*agentAnswers      `json:"agents"`
	More     bool                 `json:"-"` // "add another?" of the node or agent being asked

	Tool     scaffold.ToolAnswers  `json:"tool"`
	EnvName  string                `json:"envName"`
	EnvSec   bool                  `json:"envSecret"`
	ScopeRes string                `json:"scopeResource"`
	Action   scaffold.ActionAnswer `json:"action"`

	SignMethod string `json:"signMethod"` // manual, v2, sigstore, sigstore-keyless, none or skip
	KeyChoice  string `json:"keyChoice"`  // new or existing
	KeyPath    string `json:"keyPath"`    // existing key file, or the prefix of a new pair
	KeyID      string `json:"keyId"`
}

// nodeAnswers is one node: the scaffold's answers plus the lists as text.
type nodeAnswers struct {
	scaffold.NodeAnswers
	Caps    []string `json:"caps"`
	Inputs  string   `json:"inputsText"`
	Outputs string   `json:"outputsText"`
}

// agentAnswers is one agent and its eval suite, lists and numbers as text.
type agentAnswers struct {
	scaffold.AgentAnswers
	Tools    string               `json:"tools"`  // the tool allowlist
	Memory   []string             `json:"memory"` // scratchpad, conversation, longTerm
	Conf     string               `json:"confidenceText"`
	WithEval bool                 `json:"withEval"`
	Suite    scaffold.EvalAnswers `json:"suite"`
	Pass     string               `json:"passScore"`
	Task     scaffold.TaskAnswers `json:"task"`
	Criteria string               `json:"criteria"`
}

// newNode returns the answers of the n-th node (0-based) from the defaults.
func newNode(n int) *nodeAnswers {
	d := scaffold.NodeAnswers{}.Defaults()
	if n > 0 {
		d.ID = fmt.Sprintf("node%d", n+1)
	}
	return &nodeAnswers{NodeAnswers: d, Caps: d.Capabilities,
		Inputs: strings.Join(d.Inputs, ", "), Outputs: strings.Join(d.Outputs, ", ")}
}

// newAgent returns the answers of the n-th agent (0-based) from the defaults.
func newAgent(n int) *agentAnswers {
	d := scaffold.AgentAnswers{}.Defaults()
	if n > 0 {
		d.ID = fmt.Sprintf("agent%d", n+1)
	}
	e := scaffold.EvalAnswers{}.Defaults()
	return &agentAnswers{AgentAnswers: d, Tools: strings.Join(d.ToolAllowlist, ", "),
		Conf: strconv.FormatFloat(d.Confidence, 'f', -1, 64), WithEval: true, Suite: e,
		Pass: strconv.FormatFloat(e.PassScore, 'f', -1, 64), Task: scaffold.TaskAnswers{}.Defaults(),
		Criteria: "answers the task, stays concise"}
}

// newAnswers starts from the scaffold's defaults.
func newAnswers() *answers {
	a := &answers{
		What: whatMixed, Scope: "community", Org: "example", Part: "my-pack",
		Pack:  scaffold.PackAnswers{}.Defaults(),
		Nodes: []*nodeAnswers{newNode(0)}, Agents: []*agentAnswers{newAgent(0)},
		Tool: scaffold.ToolAnswers{}.Defaults(), SignMethod: "v2", KeyChoice: "new",
	}
	a.Keywords = strings.Join(a.Pack.Keywords, ", ")
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

// isPack reports whether a pack (not only a tool manifest, standalone
// agent or standalone eval suite) is created.
func (a *answers) isPack() bool { return a.What != whatTool && !a.standalone() }

// standalone reports whether a standalone agent or eval suite is created.
func (a *answers) standalone() bool { return a.What == whatSoloAgent || a.What == whatSoloEval }

// hasNodes, hasAgent and hasTool say which parts the pack gets.
func (a *answers) hasNodes() bool { return a.What == whatMixed || a.What == whatNodes }
func (a *answers) hasAgent() bool {
	return a.What == whatMixed || a.What == whatAgent || a.What == whatSoloAgent
}
func (a *answers) hasTool() bool { return a.What == whatMixed || a.What == whatTool }

// packAnswers assembles the scaffold's pack answers.
func (a *answers) packAnswers() scaffold.PackAnswers {
	p := a.Pack
	p.Name = a.name()
	p.Keywords = splitList(a.Keywords)
	p.Nodes, p.Agents = nil, nil
	if a.hasNodes() {
		for _, na := range a.Nodes {
			n := na.NodeAnswers
			n.Capabilities = na.Caps
			n.Inputs, n.Outputs = splitList(na.Inputs), splitList(na.Outputs)
			p.Nodes = append(p.Nodes, n)
		}
	} else {
		p.Runtime = scaffold.RuntimeAnswers{Language: "remote"}
	}
	if a.hasAgent() {
		for _, ga := range a.Agents {
			p.Agents = append(p.Agents, ga.answers())
		}
	}
	return p
}

// answers assembles one agent's scaffold answers, its eval suite included.
func (ga *agentAnswers) answers() scaffold.AgentAnswers {
	g := ga.AgentAnswers
	g.ToolAllowlist = splitList(ga.Tools)
	g.Memory = scaffold.Memory{}
	for _, m := range ga.Memory {
		switch m {
		case "scratchpad":
			g.Memory.Scratchpad = true
		case "conversation":
			g.Memory.Conversation = true
		case "longTerm":
			g.Memory.LongTerm = true
		}
	}
	g.Confidence = parseFloat(ga.Conf, -1)
	g.Eval = nil
	if ga.WithEval {
		e := ga.suite()
		g.Eval = &e
	}
	return g
}

// suite assembles the agent's eval suite answers with its one task.
func (ga *agentAnswers) suite() scaffold.EvalAnswers {
	e := ga.Suite
	t := ga.Task
	t.Criteria = splitList(ga.Criteria)
	e.Tasks = []scaffold.TaskAnswers{t}
	e.PassScore = parseFloat(ga.Pass, -1)
	return e
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
