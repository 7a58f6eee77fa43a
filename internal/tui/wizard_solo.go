package tui

import (
	"errors"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// A standalone agent manifest or eval suite is asked with the agent and
// eval pages of a pack's first agent (a.Agents[0]); it has no identity,
// runtime or signing page, and is written as one document (plus the
// agent's prompt and schemas) into the target directory.

// soloDefaults makes the first agent's answers fit a standalone document:
// a bare agent id gets the scope and organisation in front (assistant
// becomes community.example.assistant), as there is no pack name to do it.
func (a *answers) soloDefaults() {
	if !a.standalone() {
		return
	}
	if len(a.Agents) == 0 {
		a.Agents = []*agentAnswers{newAgent(0)}
	}
	g := a.Agents[0]
	if a.What == whatSoloAgent && g.ID != "" && !strings.Contains(g.ID, ".") {
		g.ID = a.Scope + "." + a.Org + "." + g.ID
	}
}

// soloEvalGroup asks a standalone suite's id and the agent it is for.
func soloEvalGroup(k asker, g *agentAnswers) *huh.Group {
	ek := validate.EvalSuite
	optional := func(ptr string) func(string) error {
		return k.keep(func(s string) error {
			if strings.TrimSpace(s) == "" {
				return nil
			}
			return k.check(ek, ptr, nil)(s)
		})
	}
	return huh.NewGroup(
		k.reg(huh.NewInput().Title(k.title("Target agent id", &g.Suite.TargetAgentID)).
			Description("the full agentId the suite is for, e.g. vendor.acme.writer (empty: any agent)").
			Value(&g.Suite.TargetAgentID), optional("/targetAgentId")).Key("agents.eval.targetAgentId"),
		k.reg(huh.NewInput().Title(k.title("Suite id", &g.Suite.SuiteID)).
			Description("<scope>.<org>.evals.<name>; empty: from the target agent, else "+scaffold.StandaloneSuiteID).
			Value(&g.Suite.SuiteID), optional("/suiteId")).Key("agents.eval.suiteId"),
	)
}

// soloEval assembles a standalone suite's answers.
func (a *answers) soloEval() scaffold.EvalAnswers {
	e := a.Agents[0].suite()
	if e.SuiteID == "" && !strings.Contains(e.TargetAgentID, ".") {
		e.SuiteID = scaffold.StandaloneSuiteID
	}
	return e
}

// makeSoloPlan plans a standalone agent manifest or eval suite. Problems
// are named as answers of the first agent (agents.0.id, agents.0.eval.…)
// so that the review leads back to the agent or eval page.
func makeSoloPlan(a *answers) planned {
	a.soloDefaults()
	var (
		out    planned
		p      *scaffold.Plan
		err    error
		prefix = "agents.0"
	)
	if a.What == whatSoloAgent {
		p, err = scaffold.PlanStandaloneAgent(a.Agents[0].answers())
	} else {
		p, err = scaffold.PlanStandaloneEval(a.soloEval())
		prefix = "agents.0.eval"
	}
	var fes scaffold.FieldErrors
	switch {
	case errors.As(err, &fes):
		for _, fe := range fes {
			fe.Field = strings.TrimSuffix(prefix+"."+fe.Field, ".")
			out.problems = append(out.problems, fe)
		}
		return out
	case err != nil:
		out.err = err
		return out
	}
	out.plan = p
	if len(p.Files) > 0 {
		out.manifest = string(p.Files[0].Data)
	}
	return out
}
