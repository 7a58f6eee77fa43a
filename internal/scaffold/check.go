package scaffold

import (
	"fmt"
	"strings"
)

// FieldError is one problem with one answer, worded by the validation
// package (the same message `wopkit validate` gives for the generated file).
type FieldError struct {
	Field   string // answer path, as accepted by --set (e.g. "name", "agents.0.persona")
	Pointer string // JSON pointer in the generated document (e.g. "/agents/0/persona")
	File    string // the generated file the problem is in (e.g. "pack.json")
	Message string // what is wrong
	Hint    string // what to do
}

func (e FieldError) Error() string {
	s := e.Message
	if e.Field != "" {
		s = e.Field + ": " + s
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// FieldErrors is a list of problems, usable as one error.
type FieldErrors []FieldError

func (es FieldErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// For returns the problems of one answer field (and of the fields below it).
func (es FieldErrors) For(field string) FieldErrors {
	var out FieldErrors
	for _, e := range es {
		if e.Field == field || strings.HasPrefix(e.Field, field+".") {
			out = append(out, e)
		}
	}
	return out
}

func fieldErrorf(field, format string, args ...any) FieldError {
	return FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}
