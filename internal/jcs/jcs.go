// Package jcs produces the RFC 8785 JSON Canonicalization Scheme (JCS) form of
// JSON texts and Go values: the exact bytes OpenWOP signs as pack.json.
//
// Objects have their members sorted by the UTF-16 code units of their keys,
// there is no insignificant whitespace, strings escape only what JCS escapes
// (no HTML escaping, U+2028/U+2029 and astral characters left raw) and
// numbers take the ECMAScript Number::toString form. Duplicate keys, invalid
// UTF-8, lone surrogates and numbers that would be non-finite are always
// refused; Options.Strict adds the I-JSON refusal of integers beyond
// ±(2^53-1) that OpenWOP v2 signing requires.
//
// Its reader writes the canonical form as it parses (parse.go), in one
// pass, reading strings and numbers with internal/jsonlex, which jsondoc
// shares (internal/untrusted keeps its own: see jsonlex's package doc).
package jcs

import (
	"bytes"
	"fmt"

	"github.com/openwop/wopkit/internal/werr"
)

// Stable error codes returned by this package (all of class werr.Invalid).
const (
	CodeDuplicateKey  = "jcs_duplicate_key"
	CodeInvalidString = "jcs_invalid_string"
	CodeNumberRange   = "jcs_number_range"
	CodeSyntax        = "jcs_syntax"
)

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 1000

// Options tunes canonicalisation.
type Options struct {
	// Strict adds the I-JSON refusal required by OpenWOP v2 signing of
	// integers beyond ±(2^53-1) (RFC 0212 §B): any number whose value is an
	// integer of magnitude above 2^53-1, however it was written
	// (9007199254740993, 9007199254740993.0, 1e17, 1e21, 1E30, a literal of
	// 21 or more digits). Every double that large is an integer, so Strict
	// accepts numbers of magnitude up to 2^53-1 only; RFC 8785's own
	// example value 1E30 canonicalises without Strict.
	Strict bool
}

// Canonicalize returns the JCS form of a JSON text. It always refuses
// duplicate keys, invalid UTF-8 and lone surrogates (escaped ones too) and
// numbers that would render as non-finite (e.g. 1e400); with Strict it also
// refuses integers beyond ±(2^53-1). Errors are *werr.Error carrying the byte
// offset and line:column of the problem.
func Canonicalize(data []byte, opts Options) ([]byte, error) {
	p := &parser{data: data, opts: opts}
	out := make([]byte, 0, len(data))
	p.skipWS()
	out, err := p.value(out, 0)
	if err != nil {
		return nil, err
	}
	p.skipWS()
	if p.pos < len(p.data) {
		return nil, p.fail(CodeSyntax, p.pos, "unexpected %s after the JSON value", p.describe(p.pos))
	}
	return out, nil
}

// IsCanonical reports whether data is exactly its own JCS form (under the
// non-strict options: a text that Canonicalize refuses is not canonical).
func IsCanonical(data []byte) bool {
	c, err := Canonicalize(data, Options{})
	return err == nil && bytes.Equal(c, data)
}

// newErr builds a werr.Error with a location and the package's standard hint.
func newErr(code string, data []byte, off int, format string, args ...any) *werr.Error {
	line, col := lineCol(data, off)
	msg := fmt.Sprintf(format, args...)
	e := werr.New(werr.Invalid, code, "%s at byte %d (line %d, column %d)", msg, off, line, col)
	switch code {
	case CodeDuplicateKey:
		return e.WithHint("remove one of the two members: canonical JSON allows each key once per object")
	case CodeInvalidString:
		return e.WithHint("save the file as UTF-8 and write characters outside the BMP as a surrogate pair or raw UTF-8")
	case CodeNumberRange:
		return e.WithHint("write the value as a string, or keep integers within ±9007199254740991")
	default:
		return e.WithHint("fix the JSON syntax at that position")
	}
}

// lineCol converts a byte offset into a 1-based line and column (in bytes).
func lineCol(data []byte, off int) (int, int) {
	if off > len(data) {
		off = len(data)
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
