package wizard

import (
	"testing"
)

// TestPlanningReadsTheAnswers: planning runs beside the screen, on a copy
// of the answers, and must not change what it is given (makeSoloPlan
// wrote the standalone agent's full id, and a missing eval suite, into
// the answers it planned).
func TestPlanningReadsTheAnswers(t *testing.T) {
	for _, what := range []string{whatSoloAgent, whatSoloEval, whatMixed, whatAgent, whatTool} {
		t.Run(what, func(t *testing.T) {
			a := newAnswers()
			a.What = what
			a.Pack.Agents[0].ID = "assistant"
			a.Pack.Agents[0].Eval = nil
			before := a.fingerprint()
			p := makePlan(testValidator, a)
			if p.Err != nil {
				t.Fatal(p.Err)
			}
			if what == whatSoloAgent && p.Plan != nil && p.Manifest == "" {
				t.Errorf("no manifest planned")
			}
			if after := a.fingerprint(); after != before {
				t.Errorf("planning changed the answers:\n%s\n%s", before, after)
			}
		})
	}
}

// TestSoloAgentIDHasScope: the standalone agent's bare id is planned with
// the scope and organisation in front, as the agent page shows it.
func TestSoloAgentIDHasScope(t *testing.T) {
	a := newAnswers()
	a.What = whatSoloAgent
	a.Pack.Name = "community.example.thing"
	a.Pack.Agents[0].ID = "assistant"
	if got := a.soloAgent().ID; got != "community.example.assistant" {
		t.Errorf("soloAgent id %q", got)
	}
	a.soloDefaults()
	if got := a.Pack.Agents[0].ID; got != "community.example.assistant" {
		t.Errorf("soloDefaults id %q", got)
	}
}
