package scaffold

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// FieldError is one problem with one answer, worded by the validation
// package (the same message `wopkit validate` gives for the generated file).
type FieldError struct {
	Field   string // answer path, as accepted by --set (e.g. "name", "agents.0.persona")
	Pointer string // JSON pointer in the generated document (e.g. "/agents/0/persona")
	File    string // the generated file the problem is in (e.g. "pack.json")
	Message string // what is wrong
	Hint    string // what to do
	// Rule is the validator's lint rule that found the problem ("PR002"),
	// "" for a schema problem or a check of the answers.
	Rule string
}

// Error renders the problem as "field: message (hint)".
func (e FieldError) Error() string {
	s := e.Message
	if e.Field != "" {
		s = e.Field + ": " + s
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// FieldErrors is a list of problems, usable as one error.
type FieldErrors []FieldError

// Error joins the problems with "; ".
func (es FieldErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// ExitClass makes FieldErrors part of werr's exit-code table: answers that
// do not make a valid document are refused input (exit 1).
func (es FieldErrors) ExitClass() werr.Class { return werr.Invalid }

// StableCode is the code of answers that do not make a valid document.
func (es FieldErrors) StableCode() string { return "scaffold_invalid_answers" }

// sorted puts problems of top-level answers (name, version, ...) first, as
// the others often follow from them; the order is otherwise kept.
func (es FieldErrors) sorted() FieldErrors {
	out := make(FieldErrors, 0, len(es))
	for _, top := range []bool{true, false} {
		for _, e := range es {
			if (e.Field != "" && !strings.Contains(e.Field, ".")) == top {
				out = append(out, e)
			}
		}
	}
	return out
}

// For returns the problems of one answer field (and of the fields below it).
func (es FieldErrors) For(field string) FieldErrors {
	var out FieldErrors
	for _, e := range es {
		if e.Field == field || strings.HasPrefix(e.Field, field+".") {
			out = append(out, e)
		}
	}
	return out
}

func fieldErrorf(field, format string, args ...any) FieldError {
	return FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// join appends a field name to a field prefix.
func join(prefix, field string) string {
	if prefix == "" {
		return field
	}
	if field == "" {
		return prefix
	}
	return prefix + "." + field
}

// keyRenames maps document keys to the answer fields they come from; ""
// stops the path there (the answer covers the whole value).
var keyRenames = map[string]string{
	"typeId": "id", "agentId": "id", "taskId": "id",
	"systemPromptRef": "systemPrompt", "systemPrompt": "systemPrompt",
	"memoryShape": "memory", "evalSuiteRef": "eval", "engines": "engines!",
	"configSchemaRef": "id!", "inputSchemaRef": "inputs!", "outputSchemaRef": "outputs!",
	"thresholds": "passScore!", "confidence": "confidence!", "handoff": "handoff!",
	"input": "input!", "strategy": "strategy", "value": "expected!", "rubric": "criteria!",
	"match": "", "expected": "",
}

// fieldOf maps a pointer in a generated pack.json or eval suite to the
// answer field it comes from ("/agents/0/memoryShape/longTerm" is
// "agents.0.memory.longTerm").
func fieldOf(pointer string) string {
	var parts []string
	for _, tok := range jsondoc.SplitPointer(pointer) {
		r, ok := keyRenames[tok]
		if !ok {
			parts = append(parts, tok)
			continue
		}
		if r == "" {
			continue
		}
		if strings.HasSuffix(r, "!") {
			parts = append(parts, strings.TrimSuffix(r, "!"))
			break
		}
		parts = append(parts, r)
	}
	return strings.Join(parts, ".")
}

// keepAll keeps every problem (a new pack: all of it is generated).
func keepAll(string, string) bool { return true }

// checkPackPlan validates the planned pack (pack.json with every planned
// file, on top of base) in strict mode and returns the problems that keep
// answers, as FieldErrors. Problems in pack.json are mapped by fieldOf
// (then by rename, when given); those in other files go to the answer field
// that produced the file.
func checkPackPlan(v *validate.Validator, p *Plan, base fs.FS, keep func(file, pointer string) bool) FieldErrors {
	return checkPackPlanRenamed(v, p, base, keep, nil)
}

func checkPackPlanRenamed(v *validate.Validator, p *Plan, base fs.FS, keep func(file, pointer string) bool, rename func(string) string) FieldErrors {
	v = orDefault(v)
	pj := p.File("pack.json")
	if pj == nil {
		return nil
	}
	var errs FieldErrors
	frs := v.PackFiles("pack.json", p.FS(base), pj.Data)
	for _, fr := range frs {
		probs := append(append([]validate.Problem{}, fr.Errors...), fr.Warnings...)
		if fr.Path != "pack.json" {
			// the schema library reports sibling properties' errors in no
			// fixed order: by pointer, so the review lists them the same way
			// every time (pack.json keeps the validator's order)
			sort.SliceStable(probs, func(i, j int) bool { return probs[i].Pointer < probs[j].Pointer })
		}
		for _, pr := range probs {
			if !keep(fr.Path, pr.Pointer) || fr.Path == "pack.json" && summarizes(pr, frs) {
				continue
			}
			fe := FieldError{File: fr.Path, Pointer: pr.Pointer, Message: pr.Message, Hint: pr.Hint, Rule: pr.Rule}
			out := &errs
			if pr.Rule == validate.PlaceholderRule {
				out = &p.Placeholders
			}
			switch owner, ok := p.owners[fr.Path]; {
			case fr.Path == "pack.json":
				fe.Field = fieldOf(pr.Pointer)
				if rename != nil {
					fe.Field = rename(fe.Field)
				}
			case ok && strings.HasSuffix(fr.Path, ".json") && strings.HasPrefix(fr.Path, "evals/"):
				fe.Field = join(owner, fieldOf(pr.Pointer))
			case ok:
				fe.Field = owner
			}
			*out = append(*out, answerWords(fe))
		}
	}
	return errs
}

// summarizes reports whether a problem of pack.json only counts the errors
// of another file of the pack that are listed with it ("not a valid eval
// suite: 1 error(s), listed under evals/x.json"): each problem is said
// once, at the answer it is about, not again as a count pointing at a file
// not written yet.
func summarizes(pr validate.Problem, frs []validate.FileReport) bool {
	for _, fr := range frs {
		if fr.Path != "pack.json" && len(fr.Errors) > 0 && strings.HasSuffix(pr.Message, "listed under "+fr.Path) {
			return true
		}
	}
	return false
}

var (
	defaultOnce      sync.Once
	defaultValidator *validate.Validator
)

// orDefault returns v, or a strict validator over the embedded schemas.
func orDefault(v *validate.Validator) *validate.Validator {
	if v != nil {
		return v
	}
	defaultOnce.Do(func() { defaultValidator, _ = validate.New(validate.Options{Strict: true}) })
	return defaultValidator
}

// CheckField checks one value as the author types it, against the schema
// of the field at pointer in a document of kind k (for example
// kinds.NodePack, "/name"), with the validator's own words. v may be nil.
func CheckField(v *validate.Validator, k kinds.Kind, pointer string, value any) FieldErrors {
	return CheckFieldFor(v, kinds.SpecAuto, k, pointer, value)
}

// CheckFieldFor is CheckField under spec version spec (a v2 pack's field
// is checked as the v2 schema checks it).
func CheckFieldFor(v *validate.Validator, spec kinds.Spec, k kinds.Kind, pointer string, value any) FieldErrors {
	var errs FieldErrors
	for _, pr := range orDefault(v).CheckValueFor(spec, k, pointer, value) {
		errs = append(errs, FieldError{Field: fieldOf(pointer), Pointer: pr.Pointer, Message: pr.Message, Hint: pr.Hint})
	}
	return errs
}

// asFieldErrors returns err as field errors (an error that is not about one
// answer becomes a FieldError without a field).
func asFieldErrors(err error) FieldErrors {
	if err == nil {
		return nil
	}
	if fes, ok := err.(FieldErrors); ok {
		return fes
	}
	return FieldErrors{{Message: err.Error()}}
}

// Check returns every problem of the answers, as PlanPack would refuse
// them (nil when the pack can be written). v may be nil.
func (a PackAnswers) Check(v *validate.Validator) FieldErrors {
	_, err := PlanPack(a, v)
	return asFieldErrors(err)
}

// Check returns every problem of the answers, as PlanTool would refuse them.
func (a ToolAnswers) Check(v *validate.Validator) FieldErrors {
	_, err := PlanTool(a, "", v)
	return asFieldErrors(err)
}

// Check returns the problems of adding the agent to src, as PlanAgent
// would refuse them.
func (a AgentAnswers) Check(src *PackSource, v *validate.Validator) FieldErrors {
	_, err := PlanAgent(src, a, v)
	return asFieldErrors(err)
}

// Check returns the problems of adding the node to src, as PlanNode would
// refuse them.
func (n NodeAnswers) Check(src *PackSource, v *validate.Validator) FieldErrors {
	_, err := PlanNode(src, n, v)
	return asFieldErrors(err)
}

// Check returns the problems of adding the eval suite to src, as PlanEval
// would refuse them.
func (e EvalAnswers) Check(src *PackSource, v *validate.Validator) FieldErrors {
	_, err := PlanEval(src, e, v)
	return asFieldErrors(err)
}
