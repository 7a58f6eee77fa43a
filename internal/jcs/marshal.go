package jcs

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/werr"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// Marshal returns the JCS form of a Go value built from map[string]any,
// []any, string, bool, nil, json.Number, float64 and the Go integer types
// (what encoding/json produces with UseNumber). Any other value is first
// encoded with encoding/json and then canonicalised, so structs work too.
func Marshal(v any, opts Options) ([]byte, error) {
	return appendValue(nil, v, opts, "", 0)
}

// valueErr reports a problem with a Go value at a JSON pointer.
func valueErr(code, ptr, format string, args ...any) *werr.Error {
	if ptr == "" {
		ptr = "/"
	}
	e := werr.New(werr.Invalid, code, format, args...)
	e.Msg += " at " + ptr
	switch code {
	case CodeNumberRange:
		return e.WithHint("use a finite number; under strict rules keep integers within ±9007199254740991")
	case CodeInvalidString:
		return e.WithHint("make the string valid UTF-8")
	default:
		return e.WithHint("build the value from maps, slices, strings, numbers, booleans and nil")
	}
}

func appendValue(out []byte, v any, opts Options, ptr string, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, valueErr(CodeSyntax, ptr, "value nested deeper than %d levels", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		return append(out, "null"...), nil
	case bool:
		if x {
			return append(out, "true"...), nil
		}
		return append(out, "false"...), nil
	case string:
		if !utf8.ValidString(x) {
			return nil, valueErr(CodeInvalidString, ptr, "string is not valid UTF-8")
		}
		return appendString(out, x), nil
	case json.Number:
		c, err := Canonicalize([]byte(x), opts)
		if err != nil || !numberEnds(string(x)) {
			if code := werr.CodeOf(err); code == CodeNumberRange {
				return nil, valueErr(code, ptr, "number %s is out of range", string(x))
			}
			return nil, valueErr(CodeSyntax, ptr, "json.Number %q is not a JSON number", string(x))
		}
		return append(out, c...), nil
	case float64:
		return appendFloat(out, x, opts, ptr)
	case float32:
		return appendFloat(out, float64(x), opts, ptr)
	case int:
		return appendFloat(out, float64(x), opts, ptr)
	case int64:
		return appendFloat(out, float64(x), opts, ptr)
	case int32:
		return appendFloat(out, float64(x), opts, ptr)
	case uint64:
		return appendFloat(out, float64(x), opts, ptr)
	case uint32:
		return appendFloat(out, float64(x), opts, ptr)
	case uint:
		return appendFloat(out, float64(x), opts, ptr)
	case []any:
		out = append(out, '[')
		for i, e := range x {
			if i > 0 {
				out = append(out, ',')
			}
			var err error
			if out, err = appendValue(out, e, opts, ptr+"/"+strconv.Itoa(i), depth+1); err != nil {
				return nil, err
			}
		}
		return append(out, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if !utf8.ValidString(k) {
				return nil, valueErr(CodeInvalidString, ptr, "object key %q is not valid UTF-8", k)
			}
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareUTF16)
		out = append(out, '{')
		for i, k := range keys {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendString(out, k)
			out = append(out, ':')
			var err error
			if out, err = appendValue(out, x[k], opts, ptr+jsondoc.Pointer(k), depth+1); err != nil {
				return nil, err
			}
		}
		return append(out, '}'), nil
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, werr.Wrap(werr.Invalid, CodeSyntax, err, "cannot encode %T as JSON at %s", x, orRoot(ptr)).
				WithHint("build the value from maps, slices, strings, numbers, booleans and nil")
		}
		c, err := Canonicalize(b, opts)
		if err != nil {
			return nil, err
		}
		return append(out, c...), nil
	}
}

// appendFloat appends a Go number in its ES form.
func appendFloat(out []byte, f float64, opts Options, ptr string) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, valueErr(CodeNumberRange, ptr, "number %v has no JSON form", f)
	}
	if opts.Strict && unsafeInteger(f) {
		return nil, valueErr(CodeNumberRange, ptr, "integer %.0f is beyond ±(2^53-1)", f)
	}
	return appendNumber(out, f), nil
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "/"
	}
	return ptr
}

// numberEnds reports whether s starts and ends like a JSON number (so that
// Canonicalize, which skips surrounding whitespace, saw nothing else).
func numberEnds(s string) bool {
	if s == "" {
		return false
	}
	first, last := s[0], s[len(s)-1]
	return (first == '-' || (first >= '0' && first <= '9')) && last >= '0' && last <= '9'
}
