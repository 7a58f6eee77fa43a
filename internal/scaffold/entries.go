package scaffold

import (
	"math"
	"strconv"
	"strings"

	"github.com/github/go-spdx/v2/spdxexp"

	"github.com/openwop/wopkit/internal/lazyre"
)

// buildNode adds a node's config, input and output schemas to p and
// returns its pack.json entry.
func buildNode(p *Plan, field, pack string, n NodeAnswers) (nodeDoc, error) {
	n = n.resolved(pack)
	id := qualify(pack, n.ID)
	s := suffix(id)
	refs := [3]string{"schemas/" + s + ".config.json", "schemas/" + s + ".input.json", "schemas/" + s + ".output.json"}
	label := n.Label
	if label == "" {
		label = s
	}
	docs := []schemaDoc{
		portSchema(label+" config", "Config of "+id+".", nil, "setting"),
		portSchema(label+" input", "Input ports of "+id+".", n.Inputs, "input port"),
		portSchema(label+" output", "Output ports of "+id+".", n.Outputs, "output port"),
	}
	for i, d := range docs {
		d.ID = p.schemaID(refs[i])
		if err := p.addJSON(refs[i], d); err != nil {
			return nodeDoc{}, err
		}
		p.own(refs[i], join(field, [3]string{"id", "inputs", "outputs"}[i]))
	}
	return nodeDoc{TypeID: id, Version: n.Version, Label: n.Label, Description: n.Description,
		Category: n.Category, Role: n.Role, Capabilities: n.Capabilities,
		ConfigSchemaRef: refs[0], InputSchemaRef: refs[1], OutputSchemaRef: refs[2]}, nil
}

// buildAgent adds an agent's prompt, handoff schemas and eval suite to p and
// returns its pack.json entry.
func buildAgent(p *Plan, field, pack string, ag AgentAnswers) (agentDoc, error) {
	ag = ag.resolved(pack)
	id := qualify(pack, ag.ID)
	s := suffix(id)
	d := agentDoc{AgentID: id, Persona: ag.Persona, Label: ag.Label, Description: ag.Description,
		ModelClass: ag.ModelClass, ToolAllowlist: ag.ToolAllowlist, MemoryShape: ag.Memory}
	if d.ToolAllowlist == nil {
		d.ToolAllowlist = []string{}
	}
	if ag.PromptInline {
		d.SystemPrompt = &ag.SystemPrompt
	} else {
		d.SystemPromptRef = ag.promptFile(id)
		b, err := render("agent/prompt.md.tmpl", view{Agent: agentViewOf(pack, ag)})
		if err != nil {
			return d, err
		}
		p.add(d.SystemPromptRef, b)
		p.own(d.SystemPromptRef, join(field, "systemPrompt"))
	}
	if ag.Handoff {
		d.Handoff = &handoffDoc{TaskSchemaRef: "schemas/" + s + ".task.schema.json", ReturnSchemaRef: "schemas/" + s + ".return.schema.json"}
		zero, one := 0.0, 1.0
		task := schemaDoc{Schema: draft, Title: ag.Persona + " task", Description: "The task " + id + " is given.", Type: "object",
			Required: []string{"task"}, Properties: map[string]propSchema{"task": {Type: "string", Description: "What the agent is asked to do."}}}
		ret := schemaDoc{Schema: draft, Title: ag.Persona + " result", Description: "What " + id + " returns.", Type: "object",
			Required: []string{"answer"}, Properties: map[string]propSchema{
				"answer":     {Type: "string", Description: "The agent's answer."},
				"confidence": {Type: "number", Description: "How sure the agent is, from 0 to 1.", Minimum: &zero, Maximum: &one}}}
		task.ID, ret.ID = p.schemaID(d.Handoff.TaskSchemaRef), p.schemaID(d.Handoff.ReturnSchemaRef)
		if err := p.addJSON(d.Handoff.TaskSchemaRef, task); err != nil {
			return d, err
		}
		if err := p.addJSON(d.Handoff.ReturnSchemaRef, ret); err != nil {
			return d, err
		}
		p.own(d.Handoff.TaskSchemaRef, join(field, "handoff"))
		p.own(d.Handoff.ReturnSchemaRef, join(field, "handoff"))
	}
	if ag.Confidence >= 0 {
		d.Confidence = &confDoc{DefaultThreshold: ag.Confidence}
	}
	if ag.Eval != nil {
		e := *ag.Eval
		if e.TargetAgentID == "" {
			e.TargetAgentID = id
		}
		if len(e.AllowedModels) == 0 {
			e.AllowedModels = []string{ag.ModelClass}
		}
		ref, err := buildEval(p, join(field, "eval"), pack, s, e, e.file(id))
		if err != nil {
			return d, err
		}
		d.EvalSuiteRef = ref
	}
	return d, nil
}

// buildEval adds an eval suite file to p and returns its path. name is
// the suite's name part (the agent's suffix).
func buildEval(p *Plan, field, pack, name string, e EvalAnswers, file string) (string, error) {
	doc := evalDoc{SuiteID: e.SuiteID, Version: e.Version, TargetAgentID: e.TargetAgentID,
		Modes: e.Modes, AllowedModels: e.AllowedModels}
	if doc.SuiteID == "" {
		doc.SuiteID = DefaultSuiteID(pack, name)
	}
	if doc.Modes == nil {
		doc.Modes = []string{}
	}
	if e.PassScore >= 0 {
		doc.Thresholds = &thresholds{PassScore: e.PassScore}
	}
	doc.Tasks = []taskDoc{}
	for _, t := range e.Tasks {
		td := taskDoc{TaskID: t.ID, Input: map[string]any{"task": t.Input}, Expected: expectedDoc{Kind: t.Kind}}
		if t.Kind == "rubric" {
			td.Expected.Rubric = weights(t.Criteria)
		} else {
			td.Expected.Match = &matchDoc{Strategy: t.Strategy, Value: t.Expected}
		}
		doc.Tasks = append(doc.Tasks, td)
	}
	p.own(file, field)
	if pack != "" && e.TargetAgentID != "" {
		p.Evals = append(p.Evals, e.TargetAgentID)
	}
	return file, p.addJSON(file, doc)
}

// DefaultSuiteID is the suite id scaffold proposes: <pack>.evals.<name>,
// lower-cased, with underscores as hyphens (the suiteId pattern's alphabet).
func DefaultSuiteID(pack, name string) string {
	clean := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	return clean(pack) + ".evals." + clean(name)
}

// weights spreads 1.0 over the criteria, to two decimals, the last taking
// the remainder so that they sum to 1.
func weights(criteria []string) []criterion {
	out := make([]criterion, len(criteria))
	sum := 0.0
	for i, c := range criteria {
		w := math.Round(100/float64(len(criteria))) / 100
		if i == len(criteria)-1 {
			w = math.Round((1-sum)*100) / 100
		}
		sum += w
		out[i] = criterion{Criterion: c, Weight: w}
	}
	return out
}

var portName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkPorts refuses port names that would not be identifiers in every
// runtime's code.
func checkPorts(field string, n NodeAnswers) FieldErrors {
	var errs FieldErrors
	for _, list := range []struct {
		name  string
		ports []string
	}{{"inputs", n.Inputs}, {"outputs", n.Outputs}} {
		seen := map[string]bool{}
		for _, p := range list.ports {
			switch {
			case !portName.MatchString(p):
				errs = append(errs, FieldError{Field: field + "." + list.name, Message: "port name " + strconv.Quote(p) + " is not an identifier",
					Hint: "use letters, digits and underscores, starting with a letter (e.g. text, user_id)"})
			case seen[p]:
				errs = append(errs, FieldError{Field: field + "." + list.name, Message: "port " + strconv.Quote(p) + " is listed twice", Hint: "remove the duplicate"})
			}
			seen[p] = true
		}
	}
	return errs
}

// checkLicense returns why id is not a license the scaffold can write, or "".
func checkLicense(id string) string {
	if id == "PROPRIETARY" {
		return ""
	}
	if id == "" {
		return "license is empty"
	}
	if ok, _ := spdxexp.ValidateLicenses([]string{id}); !ok {
		return strconv.Quote(id) + " is not an SPDX license identifier"
	}
	return ""
}
