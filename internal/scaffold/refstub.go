package scaffold

import (
	"path"
	"strings"
)

// RefFile returns what `wopkit new` writes for a file a manifest member
// references, for a referenced file the pack lacks (the editor's "create
// the missing file" fix): the agent prompt template for systemPromptRef,
// a default eval suite for evalSuiteRef, and for a schema reference an
// object schema with the $id validate expects inside pack name at version
// (none when either is empty). ok is false for members it has no template
// for.
func RefFile(member, ref, pack, version string) (data []byte, ok bool, err error) {
	base := strings.TrimSuffix(path.Base(ref), path.Ext(ref))
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".schema"), ".eval")
	p := &Plan{pack: pack, version: version}
	switch {
	case member == "systemPromptRef":
		ag := AgentAnswers{}.Defaults()
		ag.ID = Slug(base)
		b, err := render("agent/prompt.md.tmpl", view{Agent: agentViewOf(pack, ag)})
		return b, err == nil, err
	case member == "evalSuiteRef":
		e := EvalAnswers{}.Defaults()
		if _, err := buildEval(p, "eval", pack, Slug(base), e, ref); err != nil {
			return nil, false, err
		}
	case strings.HasSuffix(member, "SchemaRef") || member == "schemaRef" || member == "envelopeContractRef":
		title := Title(strings.NewReplacer(".", " ", "-", " ", "_", " ").Replace(base))
		s := schemaDoc{Schema: draft, ID: p.schemaID(ref), Title: title, Description: "The " + title + " value.",
			Type: "object", Properties: map[string]propSchema{}, AdditionalProperties: true}
		if err := p.addJSON(ref, s); err != nil {
			return nil, false, err
		}
	default:
		return nil, false, nil
	}
	if f := p.File(ref); f != nil {
		return f.Data, true, nil
	}
	return nil, false, nil
}
