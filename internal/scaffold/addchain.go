package scaffold

import (
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

func init() {
	registerKind(newKind(Kind{Name: "chain", Verb: "chain", Order: 100, About: "A chain added into a workflow-chain pack",
		Schema: validate.WorkflowChainPack}, ChainAnswers{}.Defaults))
}

// ChainIDs lists the pack's chainIds, in order.
func (s *PackSource) ChainIDs() []string { return s.ids("/chains", "chainId") }

// Kind returns the pack's kind ("node" when pack.json does not say).
func (s *PackSource) Kind() string {
	if k := s.doc.Root.Get("kind"); k != nil && k.Kind == jsondoc.String {
		return k.Str
	}
	return KindNode
}

// PlanChain computes the edit that adds a chain to a workflow-chain pack:
// its entry at the end of chains[], the rest of pack.json byte for byte as
// it was. A chainId already in the pack, or a pack of another kind, is
// refused; the pack as it will be is validated (strict) and the problems
// of the new chain come back as FieldErrors relative to the chain answers
// ("steps.1.typeId").
func PlanChain(src *PackSource, c ChainAnswers, v *validate.Validator) (*Plan, error) {
	if k := src.Kind(); k != KindWorkflowChain {
		return nil, werr.New(werr.Invalid, "scaffold_wrong_kind", "pack %s is a %s pack (%s): chains go in a workflow-chain pack", src.Name, k, filepath.Join(src.Dir, "pack.json")).
			WithHint("create one with `wopkit new pack --set kind=workflow-chain`")
	}
	id := qualify(src.Name, c.ID)
	ids := src.ChainIDs()
	if errs := src.taken("chain", "chains", "chainId", id, ids, "choose another id, or edit the existing chain with `wopkit edit`"); errs != nil {
		return nil, errs
	}
	// the answers as the only chain of a pack: the same prechecks and
	// pointer-to-answer mapping as a new pack, relative to the chain
	one := ChainPackAnswers{Chains: []ChainAnswers{c}}
	errs := relative(one.precheck(), "chains.0")
	out, err := jsonedit.Append(src.Manifest, "/chains", c.doc(src.Name, src.spec()))
	if err != nil {
		return nil, err
	}
	p := &Plan{Kind: "chain", Files: []File{{Path: "pack.json", Data: out, Mode: 0o644, Update: true, Base: src.Manifest}}}
	prefix := jsondoc.Index("/chains", len(ids))
	keep := func(file, ptr string) bool {
		return file == "pack.json" && (ptr == prefix || strings.HasPrefix(ptr, prefix+"/"))
	}
	for _, fe := range checkPackPlan(v, p, src.FS, keep) {
		fe.Field = one.fieldOf("/chains/0" + strings.TrimPrefix(fe.Pointer, prefix))
		errs = append(errs, relative(FieldErrors{fe}, "chains.0")...)
	}
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	return p, nil
}

// spec is the spec version the pack follows (validate.DetectSpec): a
// chain added to a v2 pack pins its node types, one added to a v1 pack
// cannot.
func (s *PackSource) spec() string {
	if sp, _ := validate.DetectSpec(s.doc.Root); sp == validate.V1 {
		return SpecV1
	}
	return SpecV2
}

// relative strips prefix from the fields of errs ("chains.0.steps" is
// "steps"; "chains.0" itself is "").
func relative(errs FieldErrors, prefix string) FieldErrors {
	for i := range errs {
		switch f := errs[i].Field; {
		case f == prefix:
			errs[i].Field = ""
		case strings.HasPrefix(f, prefix+"."):
			errs[i].Field = strings.TrimPrefix(f, prefix+".")
		}
	}
	return errs
}

// Check returns the problems of adding the chain to src, as PlanChain
// would refuse them.
func (c ChainAnswers) Check(src *PackSource, v *validate.Validator) FieldErrors {
	_, err := PlanChain(src, c, v)
	return asFieldErrors(err)
}
