package scaffold

import (
	"errors"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/packref"
	"github.com/openwop/wopkit/internal/validate"
)

// ToolRef is how the agents of pack name a tool it ships, in their
// toolAllowlist: mcp:<tool-id> for a tool that runs as an MCP server (the
// spec's MCP-namespaced tools), else <scope>.<org>:<tool-id> (the pack's
// own namespace, the spec's <vendor>.<host> form).
func ToolRef(pack string, t ToolAnswers) string {
	if strings.HasPrefix(t.Runtime.Kind, "mcp-") {
		return "mcp:" + t.Tool.ID
	}
	scope, org, _ := SplitName(pack)
	ns := scope + "." + org
	if org == "" {
		ns = scope + "." + PackDir(pack)
	}
	return ns + ":" + t.Tool.ID
}

// PlanPackWithTool plans a pack that ships a tool install manifest for its
// agents (see packref.ToolFile): every agent allows the tool (ToolRef), the
// manifest goes to tools/<tool-id>.tool.json, where `pack` packs it and
// `validate` checks it (rule OW018), and the README lists it. Problems of
// the pack and of the tool manifest come back together (the tool's with
// File set to its file).
func PlanPackWithTool(p PackAnswers, t ToolAnswers, v *validate.Validator) (*Plan, error) {
	if t.Tool.License == "" { // a tool the pack ships is under the pack's licence unless it says otherwise
		t.Tool.License = p.License
	}
	ref := ToolRef(p.Name, t)
	file := packref.ToolFile(t.Tool.ID)
	tp, toolErr := PlanTool(t, file, v)
	if len(asFieldErrors(toolErr).For("tool.id")) == 0 { // a bad tool id is reported once, as the tool's
		p.Agents = slices.Clone(p.Agents)
		for i := range p.Agents {
			if !slices.Contains(p.Agents[i].ToolAllowlist, ref) {
				p.Agents[i].ToolAllowlist = append(slices.Clone(p.Agents[i].ToolAllowlist), ref)
			}
		}
	}
	var errs FieldErrors
	collect := func(err error, file string) error {
		var fes FieldErrors
		if !errors.As(err, &fes) {
			return err
		}
		for _, fe := range fes {
			if fe.File == "" {
				fe.File = file
			}
			errs = append(errs, fe)
		}
		return nil
	}
	plan, err := PlanPack(p, v)
	if err != nil {
		if err := collect(err, ""); err != nil {
			return nil, err
		}
	}
	if toolErr != nil {
		if err := collect(toolErr, file); err != nil {
			return nil, err
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	plan.Files = append(plan.Files, tp.Files...)
	plan.Notes = append(plan.Notes, tp.Notes...)
	plan.Placeholders = append(plan.Placeholders, tp.Placeholders...)
	if f := plan.File("README.md"); f != nil && len(p.Agents) > 0 {
		name := t.Tool.Name
		if name == "" {
			name = t.Tool.ID
		}
		f.Data = append(f.Data, []byte("\n## Tools\n\n- `"+file+"`: "+name+" ("+t.Tool.Summary+"). The agents allow it as `"+ref+
			"`; `wopkit pack` packs it and `wopkit validate` checks it.\n")...)
	}
	return plan, nil
}
