package lsp

import "github.com/openwop/wopkit/internal/validate"

// describe is the field's help text: validate.HelpFor, the words the
// wizard shows beside the same field (its catalogue, else the author-facing
// sentences of the schema's description).
func (s *Server) describe(w *view, pointer string, _ validate.FieldInfo) string {
	return s.v.HelpFor(w.spec, w.kind, pointer)
}
