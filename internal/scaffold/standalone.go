package scaffold

import (
	"strings"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

func init() {
	ag := newKind(Kind{Name: "agent", Verb: "agent", Order: 80, About: "A standalone agent manifest (or an agent added into a pack)",
		Schema: kinds.Agent}, AgentAnswers{}.StandaloneDefaults)
	ag.Full = func() any { a := fullAgent(); return &a }
	ag.Plan = func(a any, v *validate.Validator) (*Plan, error) { return PlanStandaloneAgent(*a.(*AgentAnswers), v) }
	registerKind(ag)
	ev := newKind(Kind{Name: "eval", Verb: "eval", Order: 90, About: "A standalone eval suite (or a suite added into a pack)",
		Schema: kinds.EvalSuite}, EvalAnswers{}.StandaloneDefaults)
	ev.Full = func() any { e := fullEval(); return &e }
	ev.Plan = func(a any, v *validate.Validator) (*Plan, error) { return PlanStandaloneEval(*a.(*EvalAnswers), v) }
	registerKind(ev)
}

// StandaloneAgentID is the agentId a standalone agent gets when none is
// given: a standalone manifest has no pack name to prefix a suffix with.
const StandaloneAgentID = "community.example.assistant"

// StandaloneSuiteID is the suiteId a standalone eval suite gets when
// neither it nor a target agent is given.
const StandaloneSuiteID = "community.example.evals.my-suite"

// StandaloneDefaults returns the answers of a standalone agent manifest:
// the pack agent's defaults with a full agentId.
func (AgentAnswers) StandaloneDefaults() AgentAnswers {
	a := AgentAnswers{}.Defaults()
	a.ID = StandaloneAgentID
	return a
}

// StandaloneDefaults returns the answers of a standalone eval suite: one
// golden task, agent-agnostic, with a full suiteId.
func (EvalAnswers) StandaloneDefaults() EvalAnswers {
	e := EvalAnswers{}.Defaults()
	e.SuiteID = StandaloneSuiteID
	return e
}

// PlanStandaloneAgent computes a standalone agent manifest,
// <name>.agent.json (name is the agentId's last part), with the files it
// references beside it: the prompt (prompts/<name>.md unless the prompt is
// inline), the handoff schemas and the eval suite, all relative to the
// manifest. There is no pack to prefix the id with, so the agentId must be
// full (e.g. vendor.acme.writer). Every document is validated strictly;
// any problem is returned as FieldErrors and nothing is written.
func PlanStandaloneAgent(a AgentAnswers, v *validate.Validator) (*Plan, error) {
	if a.Eval != nil && a.Eval.SuiteID == "" && strings.Contains(a.ID, ".") {
		e := *a.Eval
		e.SuiteID = DefaultSuiteID(a.ID[:strings.LastIndexByte(a.ID, '.')], suffix(a.ID))
		a.Eval = &e
	}
	p := &Plan{Kind: "agent"}
	d, err := buildAgent(p, "", "", a)
	if err != nil {
		return nil, err
	}
	file := standaloneName(suffix(d.AgentID), "agent") + ".agent.json"
	if err := p.addJSON(file, d); err != nil {
		return nil, err
	}
	if d.EvalSuiteRef != "" {
		p.Evals = append(p.Evals, file) // `wopkit eval FILE` runs a standalone agent's suite
	}
	// the manifest first: it is what the author asked for
	p.Files = append(p.Files[len(p.Files)-1:], p.Files[:len(p.Files)-1]...)
	if errs := checkStandalone(v, p, file, kinds.Agent); len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}

// PlanStandaloneEval computes a standalone eval suite, <name>.eval.json
// (name is the part of the suiteId after ".evals.", File overrides the
// path). An empty (or the default) SuiteID is derived from a full TargetAgentID
// (vendor.acme.writer gives vendor.acme.evals.writer). The suite is
// validated strictly against the eval-suite schema and the EV rules.
func PlanStandaloneEval(e EvalAnswers, v *validate.Validator) (*Plan, error) {
	if (e.SuiteID == "" || e.SuiteID == StandaloneSuiteID) && strings.Contains(e.TargetAgentID, ".") {
		t := e.TargetAgentID
		e.SuiteID = DefaultSuiteID(t[:strings.LastIndexByte(t, '.')], suffix(t))
	}
	if e.SuiteID == "" { // buildEval would name it after a pack there is not
		return nil, CheckField(nil, kinds.EvalSuite, "/suiteId", "")
	}
	name := e.SuiteID
	if i := strings.LastIndex(name, ".evals."); i >= 0 {
		name = name[i+len(".evals."):]
	} else {
		name = suffix(name)
	}
	file := strings.TrimPrefix(e.File, "./")
	if file == "" {
		file = standaloneName(name, "suite") + ".eval.json"
	}
	p := &Plan{Kind: "eval"}
	if _, err := buildEval(p, "", "", name, e, file); err != nil {
		return nil, err
	}
	if errs := checkStandalone(v, p, file, kinds.EvalSuite); len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}

// standaloneName makes a document's name part safe as a file name; an
// empty or unusable name becomes fallback (the validator then says what
// is wrong with the id itself).
func standaloneName(name, fallback string) string {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return fallback
	}
	return name
}

// checkStandalone validates the main document of a standalone plan (as
// kind k) and every eval suite the plan writes, strictly, and maps the
// problems to answer fields.
func checkStandalone(v *validate.Validator, p *Plan, main string, k kinds.Kind) FieldErrors {
	v = orDefault(v)
	var errs FieldErrors
	for _, f := range p.Files {
		kind := k
		if f.Path != main {
			if !strings.HasSuffix(f.Path, ".json") || !strings.HasPrefix(f.Path, "evals/") {
				continue
			}
			kind = kinds.EvalSuite
		}
		for _, pr := range v.Bytes(f.Path, f.Data, kind).Problems() {
			fe := FieldError{File: f.Path, Pointer: pr.Pointer, Message: pr.Message, Hint: pr.Hint, Field: fieldOf(pr.Pointer), Rule: pr.Rule}
			if owner, ok := p.owners[f.Path]; ok {
				fe.Field = join(owner, fe.Field)
			}
			if pr.Rule == validate.PlaceholderRule {
				p.Placeholders = append(p.Placeholders, answerWords(fe))
				continue
			}
			errs = append(errs, answerWords(fe))
		}
	}
	return errs.sorted()
}
