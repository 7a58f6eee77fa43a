package lsp

import (
	"io/fs"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/untrusted"
)

// OW013 is reported on a schema file, not on the pack.json whose check finds
// it: the schema is no document of its own (its check reports nothing), so
// its fixes come from the packs that hold it.

// maxPackLevels bounds the walk from a schema up to its pack.json.
const maxPackLevels = 8

// schemaIDFixes are the OW013 fixes for the open file w at rng: every pack
// whose directory holds w (up to the workspace root) is checked as its
// diagnostics are, and each OW013 it reports on w gets "Set $id to ...",
// the URL validate.PackSchemaID gives for w's path in that pack.
func (s *Server) schemaIDFixes(w *view, rng protocol.Range) []codeAction {
	var out []codeAction
	// A schema is no document kind of its own: a manifest, suite or
	// prompt is not checked against its packs here.
	if w.jd == nil || w.jd.Root.Kind != jsondoc.Object || w.kind != kinds.Unknown {
		return out
	}
	root, ok := s.rootOf(w.doc.path)
	if !ok {
		return out
	}
	dir := filepath.Dir(w.doc.path)
	for i := 0; i < maxPackLevels && within(root, dir); i++ {
		if a := s.schemaIDFix(w, rng, dir); a != nil {
			out = append(out, *a)
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return out
}

// schemaIDFix is the fix of an OW013 the pack in dir reports on w at rng.
func (s *Server) schemaIDFix(w *view, rng protocol.Range, dir string) *codeAction {
	pj := filepath.Join(dir, "pack.json")
	if pj == w.doc.path {
		return nil
	}
	pack := &document{uri: uri.File(pj), path: pj}
	if d := s.docs.get(pj); d != nil {
		pack = d
	} else {
		fsys, err := untrusted.DirFS(dir)
		if err != nil {
			return nil
		}
		if pack.text, err = fs.ReadFile(fsys, "pack.json"); err != nil {
			return nil
		}
	}
	for _, d := range s.check(pack)[w.doc.path] {
		data, _ := d.Data.(problemData)
		if data.Fix == nil || !overlaps(d.Range, rng) {
			continue
		}
		b, ok := applyEdits(w.doc.text, data.Fix.Edits)
		if !ok {
			return nil
		}
		a := actionOf(data.Fix.Title, s.editOf(w, b))
		if a != nil {
			a.Kind, a.Diagnostics, a.IsPreferred = protocol.QuickFix, []protocol.Diagnostic{d}, true
		}
		return a
	}
	return nil
}
