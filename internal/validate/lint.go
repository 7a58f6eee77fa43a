package validate

import (
	"io/fs"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// Rule is one lint rule: a check the schemas cannot express, with a stable
// id that never changes meaning.
type Rule struct {
	ID       string
	Severity Severity
	// ForRegistry is the severity under Options.ForRegistry (`validate
	// --for-registry`) when it differs: a registry gate refuses what is
	// otherwise advice. Empty: Severity.
	ForRegistry Severity
	Kinds       []kinds. // the document kinds it applies to
			Kind
	Specs []kinds. // the spec versions it applies to (nil: every one)
		Spec
	Summary string // one line, for `validate --rules` and docs/RULES.md
	// NeedsFiles marks rules that read other files of the pack; they run only
	// when the document is validated with its pack (directory or tarball).
	NeedsFiles bool
	check      func(c *lintCtx)
}

// Rules returns every lint rule, ordered by id.
func Rules() []Rule {
	out := append([]Rule(nil), rules...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// lintCtx is what a rule sees.
type lintCtx struct {
	v     *Validator
	kind  kinds.Kind
	spec  kinds.Spec
	doc   *jsondoc.Doc
	opts  Options
	fsys  fs.FS // the pack's files (root = pack root), nil when not available
	name  string
	rule  *Rule
	out   []Problem
	files []FileReport         // reports on referenced files (eval suites, schemas)
	cache map[string]*packFile // pack files already read by a rule (lint_refs.go)
	held  int                  // bytes of file content the cache holds (bounded by maxCached)
}

// SeverityFor returns the rule's severity with or without --for-registry.
func (r *Rule) SeverityFor(forRegistry bool) Severity {
	if forRegistry && r.ForRegistry != "" {
		return r.ForRegistry
	}
	return r.Severity
}

// severity is the running rule's severity under the validator's options.
func (c *lintCtx) severity() Severity { return c.rule.SeverityFor(c.opts.ForRegistry) }

// refusal words what the registry does with the problem being reported,
// true to its severity: "the registry refuses it (gate)" only when it is an
// error of `validate --for-registry`; otherwise what publishing would meet.
func (c *lintCtx) refusal(gate string) string {
	switch {
	case c.opts.ForRegistry && c.severity() == Error:
		return "the registry refuses it (" + gate + ")"
	case c.severity() == Warning && c.rule.ForRegistry == Error:
		return "the registry would refuse it on publication (" + gate + "; an error with validate --for-registry)"
	}
	return "the registry would refuse it on publication (" + gate + ")"
}

// report adds a problem at pointer (at its key when key is set) under the
// running rule's id and severity.
func (c *lintCtx) report(ptr string, key bool, msg, hint string) {
	c.reportFix(ptr, key, msg, hint, nil)
}

// reportFix is report with the problem's mechanical fix (nil: none).
func (c *lintCtx) reportFix(ptr string, key bool, msg, hint string, fix *Fix) {
	line, col := c.doc.Position(c.doc.Locate(ptr, key))
	c.out = append(c.out, Problem{Pointer: ptr, Line: line, Column: col, Rule: c.rule.ID, Message: msg, Hint: hint, Severity: c.severity(), Fix: fix})
}

// lint runs every rule that applies to kind. fsys may be nil.
func (v *Validator) lint(name string, spec kinds.Spec, k kinds.Kind, doc *jsondoc.Doc, fsys fs.FS) ([]Problem, []FileReport) {
	c := &lintCtx{v: v, kind: k, spec: spec, doc: doc, opts: v.opts, fsys: fsys, name: name}
	for i := range rules {
		r := &rules[i]
		if r.NeedsFiles && fsys == nil || !appliesTo(r, spec, k) {
			continue
		}
		c.rule = r
		r.check(c)
	}
	if k == kinds.VersionManifest {
		c.lintCarried(spec)
	}
	return c.out, c.files
}

// lintCarried runs on a registry version manifest the rules of the pack
// kind whose pack.json it carries (its members are the pack's, at the same
// pointers and positions), but those that read the pack's files, which a
// version manifest does not have, and those that already ran on it.
func (c *lintCtx) lintCarried(spec kinds.Spec) {
	c.kind = kinds.DocOf(versionManifestKind(c.doc.Root))
	for i := range rules {
		r := &rules[i]
		if r.NeedsFiles || !appliesTo(r, spec, c.kind) || appliesTo(r, spec, kinds.VersionManifest) {
			continue
		}
		c.rule = r
		r.check(c)
	}
	c.kind = kinds.VersionManifest
}

// fileRulesSkipped lists the rules that read pack files which a version
// manifest of pack kind k is not checked against (lintCarried).
func fileRulesSkipped(spec kinds.Spec, k kinds.Kind) []string {
	var ids []string
	for _, r := range Rules() {
		if r.NeedsFiles && appliesTo(&r, spec, k) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

func appliesTo(r *Rule, spec kinds.Spec, k kinds.Kind) bool {
	if len(r.Specs) > 0 {
		ok := false
		for _, s := range r.Specs {
			ok = ok || s == spec
		}
		if !ok {
			return false
		}
	}
	for _, rk := range r.Kinds {
		if rk == k {
			return true
		}
	}
	return false
}

// noteFileRules notes on a version manifest's report the rules of its pack
// kind k that were skipped because they read the pack's files.
func (f *FileReport) noteFileRules(spec kinds.Spec, k kinds.Kind) {
	ids := fileRulesSkipped(spec, k)
	if len(ids) == 0 {
		return
	}
	n := "the rules that read the pack's files (" + strings.Join(ids, ", ") + ") did not run: a version manifest has none beside it; validate the tarball to run them"
	if f.Note != "" {
		n = f.Note + "; " + n
	}
	f.Note = n
}
