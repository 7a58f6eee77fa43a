package tui

import (
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/scaffold"
)

// prefill starts the wizard's answers from answers given on the command
// line (--set, --values): a pack's, a tool manifest's, or both.
func prefill(a *answers, p *scaffold.PackAnswers, t *scaffold.ToolAnswers) {
	if p != nil {
		prefillPack(a, *p)
	}
	if t != nil {
		a.Tool = *t
		if len(t.Env) > 0 {
			a.EnvName, a.EnvSec = t.Env[0].Name, t.Env[0].Secret
		}
		if len(t.Scopes) > 0 {
			a.ScopeRes = t.Scopes[0].Resource
		}
		if len(t.Actions) > 0 {
			a.Action = t.Actions[0]
		}
	}
}

func prefillPack(a *answers, p scaffold.PackAnswers) {
	parts := strings.Split(p.Name, ".")
	switch {
	case len(parts) >= 3:
		a.Scope, a.Org, a.Part = parts[0], parts[1], strings.Join(parts[2:], ".")
	case len(parts) == 2:
		a.Scope, a.Org, a.Part = parts[0], "", parts[1]
	case p.Name != "":
		a.Part = p.Name
	}
	a.Pack = p
	a.Keywords = strings.Join(p.Keywords, ", ")
	a.Nodes, a.Agents = nil, nil
	for _, n := range p.Nodes {
		a.Nodes = append(a.Nodes, &nodeAnswers{NodeAnswers: n, Caps: n.Capabilities,
			Inputs: strings.Join(n.Inputs, ", "), Outputs: strings.Join(n.Outputs, ", ")})
	}
	for i, g := range p.Agents {
		ga := newAgent(i)
		ga.AgentAnswers = g
		ga.Tools = strings.Join(g.ToolAllowlist, ", ")
		ga.Memory = nil
		for name, on := range map[string]bool{"scratchpad": g.Memory.Scratchpad, "conversation": g.Memory.Conversation, "longTerm": g.Memory.LongTerm} {
			if on {
				ga.Memory = append(ga.Memory, name)
			}
		}
		ga.Conf = strconv.FormatFloat(g.Confidence, 'f', -1, 64)
		ga.WithEval = g.Eval != nil
		if g.Eval != nil {
			ga.Suite = *g.Eval
			ga.Pass = strconv.FormatFloat(g.Eval.PassScore, 'f', -1, 64)
			if len(g.Eval.Tasks) > 0 {
				ga.Task = g.Eval.Tasks[0]
				ga.Criteria = strings.Join(ga.Task.Criteria, ", ")
			}
		}
		a.Agents = append(a.Agents, ga)
	}
	switch {
	case p.Runtime.Language == "remote" || len(p.Nodes) == 0:
		a.What = whatAgent
	case len(p.Agents) == 0:
		a.What = whatNodes
	default:
		a.What = whatMixed
	}
	if len(a.Nodes) == 0 {
		a.Nodes = []*nodeAnswers{newNode(0)}
	}
	if len(a.Agents) == 0 {
		a.Agents = []*agentAnswers{newAgent(0)}
	}
}
