// Package werr is wopkit's one error type and its one exit-code table.
//
// Every failure a user can act on is an *Error with a stable Code (the codes
// that `--json` output and scripts rely on), a lower-case message saying what
// is wrong and where, and a Hint saying what to do. ExitCode maps any error to
// the process exit status documented in docs/CLI.md:
//
//	0  success
//	1  the input is invalid, unverified or refused (Invalid)
//	2  usage error (Usage)
//	3  environment or I/O failure (Env)
package werr

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// Class is the family of an error, which decides its exit code.
type Class int

// The error classes, in the order of the exit-code table.
const (
	Invalid Class = 1 // the input is invalid, unverified or refused
	Usage   Class = 2 // the command line is wrong
	Env     Class = 3 // environment or I/O failure
)

// Error is a failure with a stable code, a message and advice.
type Error struct {
	Class Class  // decides the exit code
	Code  string // stable machine-readable code, e.g. "pack_signature_invalid"
	Msg   string // what is wrong, and where
	Hint  string // what to do about it; may be empty
	Err   error  // the underlying cause, if any
}

func (e *Error) Error() string {
	s := e.Msg
	if e.Err != nil {
		s += ": " + causeText(e.Msg, e.Err)
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// causeText is the cause as the message goes on to say it: an operating
// system's error on a path the message already names says only what went
// wrong ("no such file or directory"), not the system call and the path
// again ("statat pack.json: no such file or directory").
func causeText(msg string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err != nil && err == error(pe) {
		if strings.Contains(msg, pe.Path) || strings.Contains(msg, filepath.Base(pe.Path)) {
			return pe.Err.Error()
		}
		return pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// New returns an *Error of the given class and code with a formatted message.
func New(class Class, code, format string, args ...any) *Error {
	return &Error{Class: class, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error that carries err as its cause.
func Wrap(class Class, code string, err error, format string, args ...any) *Error {
	return &Error{Class: class, Code: code, Msg: fmt.Sprintf(format, args...), Err: err}
}

// WithHint returns e with its advice set, for chaining.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// Classed is an error that belongs to the exit-code table without being an
// *Error (for example a list of problems, such as scaffold.FieldErrors):
// ExitCode and CodeOf consult it, so no caller converts it by type.
type Classed interface {
	error
	ExitClass() Class
	StableCode() string
}

// ExitClass returns e.Class (Classed).
func (e *Error) ExitClass() Class { return e.Class }

// StableCode returns e.Code (Classed).
func (e *Error) StableCode() string { return e.Code }

// CodeOf returns the stable code of the first *Error or Classed error in
// err's chain, or "".
func CodeOf(err error) string {
	var c Classed
	if errors.As(err, &c) {
		return c.StableCode()
	}
	return ""
}

// ClassOf returns the class of the first *Error or Classed error in err's
// chain, and whether there is one.
func ClassOf(err error) (Class, bool) {
	var c Classed
	if errors.As(err, &c) {
		return c.ExitClass(), true
	}
	return 0, false
}

// ExitCode maps an error to the process exit status (see the package doc).
// An error that is not an *Error is treated as an environment failure, except
// cobra's flag and argument errors, which callers mark with Usage.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	if c, ok := ClassOf(err); ok {
		return int(c)
	}
	return int(Env)
}
