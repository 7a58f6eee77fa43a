package scaffold

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
)

// PlanEval computes the files that add an eval suite for one of the pack's
// agents: the suite under evals/ and the agent's evalSuiteRef pointing to
// it. The suite targets the agent (TargetAgentID, which may be a suffix;
// empty picks the pack's only agent) and allows its modelClass unless
// AllowedModels says otherwise. An agent that already has a suite is
// refused.
func PlanEval(src *PackSource, e EvalAnswers, v *validate.Validator) (*Plan, error) {
	ids := src.AgentIDs()
	target := qualify(src.Name, e.TargetAgentID)
	if target == "" {
		switch len(ids) {
		case 0:
			return nil, FieldErrors{{Field: "targetAgentId", Message: "pack " + src.Name + " has no agent for an eval suite to target",
				Hint: "add one first with `wopkit new agent --pack " + src.Dir + "`"}}
		case 1:
			target = ids[0]
		default:
			return nil, FieldErrors{{Field: "targetAgentId", Message: "pack " + src.Name + " has several agents: say which one the suite is for",
				Hint: "pass --set targetAgentId=ID with one of: " + strings.Join(ids, ", ")}}
		}
	}
	i := slices.Index(ids, target)
	if i < 0 {
		hint := "the pack has no agents yet"
		if len(ids) > 0 {
			hint = "use one of: " + strings.Join(ids, ", ")
		}
		return nil, FieldErrors{{Field: "targetAgentId", Message: "pack " + src.Name + " has no agent " + target, Hint: hint}}
	}
	agentPtr := jsondoc.Index("/agents", i)
	agent := src.doc.Lookup(agentPtr)
	if ref := agent.Get("evalSuiteRef").Text(); ref != "" {
		return nil, FieldErrors{{Field: "targetAgentId", Pointer: agentPtr + "/evalSuiteRef", File: "pack.json",
			Message: "agent " + target + " already has an eval suite (" + ref + ")",
			Hint:    "add tasks to " + filepath.Join(src.Dir, ref) + ", or remove its evalSuiteRef first"}}
	}
	e.TargetAgentID = target
	if len(e.AllowedModels) == 0 {
		if mc := agent.Get("modelClass").Text(); mc != "" {
			e.AllowedModels = []string{mc}
		}
	}
	p := &Plan{Kind: "eval"}
	file := e.file(target)
	if _, err := buildEval(p, "", src.Name, suffix(target), e, file); err != nil {
		return nil, err
	}
	out, err := jsonedit.Set(src.Manifest, agentPtr+"/evalSuiteRef", file)
	if err != nil {
		return nil, err
	}
	p.Files = append([]File{{Path: "pack.json", Data: out, Mode: 0o644, Update: true, Base: src.Manifest}}, p.Files...)
	planned := map[string]bool{file: true}
	keep := func(f, ptr string) bool {
		return planned[f] || f == "pack.json" && (ptr == agentPtr+"/evalSuiteRef" || strings.HasPrefix(ptr, agentPtr+"/evalSuiteRef/"))
	}
	rename := func(string) string { return "targetAgentId" }
	if errs := checkPackPlanRenamed(v, p, src.FS, keep, rename); len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}
