package lsp

import (
	"io/fs"
	"path/filepath"

	"go.lsp.dev/uri"

	"github.com/openwop/wopkit/internal/validate"
)

// applyFileFix makes a fix whose edits apply to another file of the pack
// (validate.Fix.File: an agent's eval suite), read through the pack's
// bounded FS; the edit names the open document when the file is open.
func (s *Server) applyFileFix(w *view, fix *validate.Fix) *codeAction {
	fsys, ok := s.packFS(w.doc.path)
	if !ok || !fs.ValidPath(fix.File) {
		return nil
	}
	before, err := fs.ReadFile(fsys, fix.File)
	if err != nil {
		return nil
	}
	after, ok := applyEdits(before, fix.Edits)
	if !ok {
		return nil
	}
	target := filepath.Join(filepath.Dir(w.doc.path), filepath.FromSlash(fix.File))
	u, version := uri.File(target), (*int32)(nil)
	if d := s.docs.get(target); d != nil {
		v := d.version
		u, version = d.uri, &v
	}
	return actionOf(fix.Title, s.checkedEdit(w, textChange(target, u, version, before, after)))
}
