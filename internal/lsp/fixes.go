package lsp

import (
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
)

// The quick fixes still computed here, from the document and the workspace
// (the others are carried by the problem, validate.Problem.Fix: see applyFix).

// pinTypeID pins a chain node's typeId to the version of the dependency
// that provides it: the lowest version the pack's dependencies range
// admits, or the version of that pack when it is in the workspace.
func (s *Server) pinTypeID(w *view, pointer string) *codeAction {
	n := w.jd.Lookup(pointer)
	if n == nil || n.Kind != jsondoc.String || strings.Contains(n.Str, "@") {
		return nil
	}
	version := ""
	if deps := w.jd.Lookup("/dependencies"); deps != nil && deps.Kind == jsondoc.Object {
		for _, m := range deps.Members {
			if strings.HasPrefix(n.Str, m.Key+".") {
				version = validate.LowestVersion(m.Value.Text())
				for _, pj := range s.workspacePacks(w.doc.path) {
					if pj.Root.Get("name").Text() == m.Key && pj.Root.Get("version").Text() != "" {
						version = pj.Root.Get("version").Text()
					}
				}
			}
		}
	}
	if version == "" {
		return nil
	}
	b, err := jsonedit.Set(w.doc.text, pointer, n.Str+"@"+version)
	if err != nil {
		return nil
	}
	return &codeAction{Title: fmt.Sprintf("Pin %s@%s", n.Str, version), Edit: editOf(w, b)}
}
