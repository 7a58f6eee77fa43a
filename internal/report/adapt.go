package report

import (
	"strings"

	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/verify"
)

// FromValidate returns a validation report's findings in file order: each
// file's note, then its errors, then its warnings.
func FromValidate(rep *validate.Report) []Finding {
	var out []Finding
	for _, f := range rep.Files {
		if f.Note != "" {
			out = append(out, Finding{Rule: RuleNote, Level: LevelNote, File: f.Path, Message: f.Note})
		}
		for _, ps := range [][]validate.Problem{f.Errors, f.Warnings} {
			for _, p := range ps {
				out = append(out, fromProblem(f.Path, p))
			}
		}
	}
	return out
}

func fromProblem(file string, p validate.Problem) Finding {
	level := LevelError
	if p.Severity == validate.Warning {
		level = LevelWarning
	}
	if p.File != "" {
		file = p.File
	}
	return Finding{Rule: p.Rule, Level: level, File: file, Line: p.Line, Column: p.Column,
		Pointer: p.Pointer, Message: p.Message, Hint: p.Hint}
}

// yankedWarning starts the note verify adds when --allow-yanked accepted a
// yanked version: it is reported as a pack_yanked warning.
const yankedWarning = "warning: "

// FromVerify returns verify's findings, tarball by tarball: an error for a
// tarball that failed (its stable code as the rule), a note for each remark
// on one that verified (a warning, pack_yanked, for a yanked version
// --allow-yanked accepted). A tarball verified without remarks has none.
func FromVerify(results []*verify.Result) []Finding {
	var out []Finding
	for _, r := range results {
		if !r.Verified {
			f := Finding{Rule: "verify_failed", Level: LevelError, File: r.Path, Message: "verification failed"}
			if r.Error != nil {
				f.Rule, f.Message, f.Hint = r.Error.Code, r.Error.Message, r.Error.Hint
			}
			out = append(out, f)
			continue
		}
		for _, n := range r.Notes {
			if w, ok := strings.CutPrefix(n, yankedWarning); ok {
				out = append(out, Finding{Rule: "pack_yanked", Level: LevelWarning, File: r.Path, Message: w})
				continue
			}
			out = append(out, Finding{Rule: RuleNote, Level: LevelNote, File: r.Path, Message: n})
		}
	}
	return out
}

// FromDiff returns the changes `wopkit diff` found as findings on the new
// side's files: breaking changes as errors, features as warnings, fixes as
// notes; the verdict on the version as one more finding when it falls short.
func FromDiff(r *semdiff.Result, display func(rel string) string) []Finding {
	var out []Finding
	for _, c := range r.Changes {
		level := LevelNote
		switch c.Level {
		case semdiff.Breaking:
			level = LevelError
		case semdiff.Feature:
			level = LevelWarning
		}
		out = append(out, Finding{Rule: c.Rule, Level: level, File: display(c.File), Pointer: c.Pointer,
			Message: string(c.Level) + ": " + c.Message})
	}
	if !r.VersionOK {
		out = append(out, Finding{Rule: semdiff.RuleVersionTooLow, Level: LevelError, File: display("pack.json"), Pointer: "/version",
			Message: r.Verdict, Hint: "raise version in pack.json to at least the bump the changes need, or undo the breaking changes"})
	}
	return out
}
