package lsp

import "github.com/openwop/wopkit/internal/validate"

// describe is the field's help text, as the wizard words it.
func (s *Server) describe(w *view, pointer string, fi validate.FieldInfo) string {
	return fi.Description
}
