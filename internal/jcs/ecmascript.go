package jcs

// AppendECMAString appends s (valid UTF-8) as ECMAScript's JSON.stringify
// writes a string: the same escapes as JCS.
func AppendECMAString(out []byte, s string) []byte { return appendString(out, s) }

// AppendECMANumber appends a finite f in ECMAScript's Number::toString form,
// as JSON.stringify writes it.
func AppendECMANumber(out []byte, f float64) []byte { return appendNumber(out, f) }
