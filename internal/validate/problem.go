// Package validate checks OpenWOP documents (node packs, agent manifests,
// agent refs, agent eval suites) and agent tool install manifests against
// the embedded JSON Schemas and against the rules the schemas cannot
// express (lint), reporting every problem with its file, line, column,
// JSON pointer, stable rule id and advice. The CLI, `new --yes` and the TUI
// all call this package, so they agree on every verdict.
package validate

import (
	"fmt"
	"github.com/openwop/wopkit/internal/kinds"
	"strings"
)

// Severity says whether a problem fails validation.
type Severity string

// The severities. Warnings fail only with Options.Strict.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Problem is one thing wrong with a document.
type Problem struct {
	File     string   `json:"-"`
	Pointer  string   `json:"pointer"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
	Hint     string   `json:"hint,omitempty"`
	Severity Severity `json:"severity"`
	// Fix is the edit that fixes the problem, when it is mechanical (nil
	// otherwise): the language server offers it as it is, knowing nothing
	// of the rule. Not part of `validate --json`.
	Fix *Fix `json:"-"`
	off int  // byte offset in the document, for re-basing memoized problems
}

// Fix is a problem's mechanical fix: the edits, in order, and what they do
// in words (a quick fix's title, "Set case_count to 2").
type Fix struct {
	Title string
	Edits []Edit
	// File is the file the edits apply to, by its path in the pack (""
	// for the document the problem is about): OW011 edits the eval suite.
	File string
	// Create is a file the fix makes (a path relative to the document's
	// folder), from wopkit's template for the member at the problem's
	// pointer; Edits are then empty. The language server offers it when
	// wopkit has a template for that member.
	Create string
	// Choice, when set, says why the fix is one choice among others (a
	// guess, or one of several remedies the hint names): the editor
	// offers it, `validate --fix` lists it and does not apply it.
	Choice string
}

// choice marks the fix as one choice among others, for why.
func (f *Fix) choice(why string) *Fix {
	if f != nil {
		f.Choice = why
	}
	return f
}

// Edit is one change to the document a problem is about: Value written at
// Pointer (the member added or replaced), or appended to the array at
// Pointer (Append), or the member at Pointer removed (Remove) or renamed
// (Rename).
type Edit struct {
	Pointer string
	Value   any
	Append  bool
	Remove  bool
	// Rename renames the member at Pointer to this key, keeping its value.
	Rename string
	// After places a member Value adds after this sibling key.
	After string
}

// setFix is the fix that writes value at pointer.
func setFix(title, pointer string, value any) *Fix {
	return &Fix{Title: title, Edits: []Edit{{Pointer: pointer, Value: value}}}
}

// removeFix is the fix that removes the member at pointer.
func removeFix(title, pointer string) *Fix {
	return &Fix{Title: title, Edits: []Edit{{Pointer: pointer, Remove: true}}}
}

// String renders the problem as `file:line:column: message (at /pointer) [rule]`,
// followed by the advice when there is one.
func (p Problem) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: ", p.File, p.Line, p.Column)
	if p.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(p.Message)
	ptr := p.Pointer
	if ptr == "" {
		ptr = "/"
	}
	fmt.Fprintf(&b, " (at %s) [%s]", ptr, p.Rule)
	if p.Hint != "" {
		b.WriteString("\n    hint: " + p.Hint)
	}
	return b.String()
}

// FileReport is the verdict on one file.
type FileReport struct {
	Path     string     `json:"path"`
	Kind     kinds.Kind `json:"kind"`
	Spec     kinds.Spec `json:"spec,omitempty"`
	Valid    bool       `json:"valid"`
	Note     string     `json:"note,omitempty"`
	Errors   []Problem  `json:"errors"`
	Warnings []Problem  `json:"warnings"`
}

// Report is the verdict on everything one call validated.
type Report struct {
	Valid bool         `json:"valid"`
	Files []FileReport `json:"files"`
}

// Problems returns every problem of the report in file order, errors before
// warnings within a file.
func (r *Report) Problems() []Problem {
	var out []Problem
	for _, f := range r.Files {
		out = append(out, f.Errors...)
		out = append(out, f.Warnings...)
	}
	return out
}

// ErrorCount returns the number of errors and warnings in the report.
func (r *Report) ErrorCount() (errors, warnings int) {
	for _, f := range r.Files {
		errors += len(f.Errors)
		warnings += len(f.Warnings)
	}
	return errors, warnings
}

// add appends problems to a file report, splitting by severity.
func (f *FileReport) add(ps ...Problem) {
	for _, p := range ps {
		p.File = f.Path
		if p.Severity == Warning {
			f.Warnings = append(f.Warnings, p)
		} else {
			f.Errors = append(f.Errors, p)
		}
	}
}

// finish computes Valid and makes empty lists non-nil for stable JSON.
func (f *FileReport) finish(strict bool) {
	if f.Errors == nil {
		f.Errors = []Problem{}
	}
	if f.Warnings == nil {
		f.Warnings = []Problem{}
	}
	f.Valid = len(f.Errors) == 0 && (!strict || len(f.Warnings) == 0)
}

// FileProblem is a problem with its file in JSON too (Problem.File is left
// out of Problem's own JSON), for the results of commands that report the
// problems of several files (migrate, bump).
type FileProblem struct {
	File string `json:"file"`
	Problem
}

// String renders the problem as Problem does: file:line:column: message.
func (p FileProblem) String() string {
	q := p.Problem
	q.File = p.File
	return q.String()
}
