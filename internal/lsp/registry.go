package lsp

import (
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/regcheck"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/validate"
)

// compareWithRegistry adds to out what `validate --for-registry
// --registry` adds for the pack whose pack.json doc is (as the editor holds
// it, saved or not): publish's gates that need no release, and the
// comparison with the version it follows in the checkout (a version too
// low for its changes is an error on /version, each change that needs the
// bump a warning where it is). A checkout that cannot be read is said once,
// as information.
func (s *Server) compareWithRegistry(doc *document, out map[string][]protocol.Diagnostic) {
	dir := filepath.Dir(doc.path)
	p, err := semdiff.Planned(dir, map[string][]byte{"pack.json": doc.text})
	if err != nil {
		return // the pack.json does not parse: validate says so
	}
	found, err := regcheck.Gates(p, dir, s.opts.Registry, nil)
	if err == nil {
		var r *semdiff.Result
		if r, err = semdiff.AgainstRegistry(p, s.opts.Registry, nil); err == nil && r != nil {
			note, more := regcheck.Comparison(p, r)
			found = append(found, more...)
			if note != "" {
				out[doc.path] = append(out[doc.path], protocol.Diagnostic{Severity: protocol.DiagnosticSeverityInformation, Source: Source, Message: "note: " + note})
			}
		}
	}
	if err != nil {
		out[doc.path] = append(out[doc.path], protocol.Diagnostic{Severity: protocol.DiagnosticSeverityInformation, Source: Source,
			Message: "not compared with the registry checkout " + s.opts.Registry + ": " + err.Error()})
		return
	}
	byFile := map[string]*validate.FileReport{} // by path in the pack
	var order []string
	for _, f := range found {
		fr := byFile[f.File]
		if fr == nil {
			fr = &validate.FileReport{Path: f.File}
			byFile[f.File] = fr
			order = append(order, f.File)
		}
		if f.Problem.Severity == validate.Error {
			fr.Errors = append(fr.Errors, f.Problem)
		} else {
			fr.Warnings = append(fr.Warnings, f.Problem)
		}
	}
	for _, rel := range order {
		file := filepath.Join(dir, filepath.FromSlash(rel))
		out[file] = append(out[file], toDiagnostics(*byFile[rel], p.Files[rel])...)
	}
}
