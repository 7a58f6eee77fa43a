// Package report writes what validate and verify found in the formats CI
// systems read: GitHub Actions workflow commands (annotations on a pull
// request's lines) and SARIF 2.1.0 (code scanning). Both commands turn their
// results into Findings (FromValidate, FromVerify); the writers know nothing
// of either.
package report

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Level is how serious a finding is, in SARIF's words.
type Level string

// The levels. GitHub calls a note a notice.
const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelNote    Level = "note"
)

// RuleNote is the rule id of findings that are notes rather than problems:
// a file validate could not check fully, a remark of verify on a tarball it
// verified.
const RuleNote = "note"

// Finding is one thing to report, whichever command found it.
type Finding struct {
	// Rule is the stable id: a lint rule (OW001), a schema or JSON problem
	// (schema/required, json/syntax), a tarball refusal (tarball/...), a
	// verify error code (pack_signature_invalid) or RuleNote.
	Rule  string
	Level Level
	// File is the path as the command names it, relative to the working
	// directory when it is inside it; a file inside a tarball is
	// "x.tgz!/pack.json".
	File string
	// Line and Column are 1-based positions in File (in the member, for a
	// file inside a tarball); 0 when the finding concerns the whole file.
	Line, Column int
	// Pointer is the JSON pointer of the offending value, when known.
	Pointer string
	Message string
	// Hint says what to do about it, when there is advice.
	Hint string
}

// memberSep separates a tarball from a file inside it in a Finding's File.
const memberSep = "!/"

// Split returns the file on disk a finding is about and, for a file inside
// a tarball, the member's path: ("x.tgz", "pack.json") for
// "x.tgz!/pack.json", ("pack.json", "") for "pack.json".
func (f Finding) Split() (file, member string) {
	if i := strings.Index(f.File, memberSep); i > 0 {
		return f.File[:i], f.File[i+len(memberSep):]
	}
	return f.File, ""
}

// text is the finding's message as one block of text: where in a tarball's
// member it is, the message, the pointer, and the hint on a line of its own.
func (f Finding) text() string {
	var b strings.Builder
	if _, member := f.Split(); member != "" {
		b.WriteString(member)
		if f.Line > 0 {
			b.WriteString(":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(max(f.Column, 1)))
		}
		b.WriteString(": ")
	}
	b.WriteString(f.Message)
	if f.Pointer != "" {
		b.WriteString(" (at " + f.Pointer + ")")
	}
	if f.Hint != "" {
		b.WriteString("\nhint: " + f.Hint)
	}
	return b.String()
}

// position is where a finding points in the file on disk: its line and
// column, or none (0, 0) for a file inside a tarball, whose lines are the
// member's, not the tarball's.
func (f Finding) position() (line, col int) {
	if _, member := f.Split(); member != "" || f.Line <= 0 {
		return 0, 0
	}
	return f.Line, max(f.Column, 0)
}

// relPath returns path relative to dir with forward slashes when it lies
// inside dir (or is already relative), and ok false when it lies outside.
func relPath(dir, path string) (rel string, ok bool) {
	if !filepath.IsAbs(path) {
		rel = filepath.Clean(path)
	} else {
		if dir == "" {
			return filepath.ToSlash(path), false
		}
		r, err := filepath.Rel(dir, path)
		if err != nil {
			return filepath.ToSlash(path), false
		}
		rel = r
	}
	if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path), false
	}
	return filepath.ToSlash(rel), true
}
