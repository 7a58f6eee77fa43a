package main

import (
	"fmt"
	"io"

	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/validate"
)

// safeLine prints one line of text output built from untrusted strings (a
// pack's manifest, tarball entry names, registry files) with every control
// character escaped, so none reaches the terminal raw.
func safeLine(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, termsafe.String(fmt.Sprintf(format, args...)))
}

// safeProblem returns p with the fields that can quote a pack escaped.
func safeProblem(p validate.Problem) validate.Problem {
	p.File = termsafe.String(p.File)
	p.Pointer = termsafe.String(p.Pointer)
	p.Message = termsafe.String(p.Message)
	p.Hint = termsafe.String(p.Hint)
	return p
}
