// Package regcheck is what publish would say of a pack before it is
// packed, against a registry checkout: the gates that do not need the
// signed release (publish.Preflight) and the comparison with the version
// the pack follows (wopkit diff's). `validate --for-registry --registry`
// and `wopkit lsp --registry` both ask it, so an author sees the same
// problems in CI and in the editor.
package regcheck

import (
	"strings"

	"github.com/openwop/wopkit/internal/publish"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
)

// Finding is one problem on a file of the pack (File is its path in the
// pack, "pack.json" or "schemas/x.json"; the problem's Line and Column are
// in that file, its File is left for the caller to name).
type Finding struct {
	File    string
	Problem validate.Problem
}

// Gates are publish's registry gates that do not need the signed release,
// each an error on pack.json named by publish's code. path is the pack's
// folder or tarball as the user named it (a tarball's bytes are checked
// too).
func Gates(p *semdiff.Pack, path, reg string, lim *tarball.Limits) ([]Finding, error) {
	po := publish.PreflightOptions{Registry: reg, PackJSON: p.Files["pack.json"], Where: path}
	if strings.HasSuffix(path, ".tgz") {
		po.Archive = &tarball.Archive{}
		for name, data := range p.Files {
			po.Archive.Files = append(po.Archive.Files, tarball.File{Header: tarball.Header{Name: name, Size: int64(len(data))}, Data: data})
		}
		max := tarball.DefaultLimits.MaxCompressed
		if lim != nil {
			max = lim.MaxCompressed
		}
		if data, err := untrusted.ReadNamed(path, max); err == nil {
			po.Tgz = data
		}
	}
	gates, err := publish.Preflight(po)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, g := range gates {
		line, col := p.Position("pack.json", g.Pointer)
		out = append(out, Finding{File: "pack.json", Problem: validate.Problem{Pointer: g.Pointer, Line: line, Column: col,
			Rule: g.Code, Severity: validate.Error, Message: g.Message + " (publish would refuse it)", Hint: g.Hint}})
	}
	return out, nil
}

// Comparison turns the comparison r of p with the version it follows into
// findings: a bump smaller than the changes need is an error on pack.json's
// version, and each change that needs the bump a warning where it is; a
// bump that is enough is only a note (findings empty).
func Comparison(p *semdiff.Pack, r *semdiff.Result) (note string, out []Finding) {
	if r.VersionOK {
		return "compared with " + r.From + ": " + r.Verdict, nil
	}
	line, col := p.Position("pack.json", "/version")
	out = append(out, Finding{File: "pack.json", Problem: validate.Problem{Pointer: "/version", Line: line, Column: col,
		Rule: semdiff.RuleVersionTooLow, Severity: validate.Error,
		Message: "the version is too low for the changes since " + r.From + ", so publish refuses it (version_bump_too_small): " + r.Verdict,
		Hint:    "raise the version; `wopkit diff " + r.From + " " + p.Source + " --registry DIR` lists every change"}})
	need := semdiff.Breaking
	if len(r.Breaking()) == 0 {
		need = semdiff.Feature
	}
	for _, c := range r.Changes {
		if c.Level != need {
			continue
		}
		line, col := p.Position(c.File, c.Pointer)
		out = append(out, Finding{File: c.File, Problem: validate.Problem{Pointer: c.Pointer, Line: line, Column: col,
			Rule: c.Rule, Severity: validate.Warning, Message: string(c.Level) + " since " + r.From + ": " + c.Message}})
	}
	return "", out
}
