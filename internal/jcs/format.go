package jcs

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxSafe is 2^53-1, the largest integer every IEEE double neighbour agrees on.
const maxSafe = 1<<53 - 1

// unsafeInteger reports whether f is an integer beyond ±(2^53-1), however
// it is written: 9007199254740993, 1e17, 1e21, 1E30 and a literal of 21 or
// more digits all are (RFC 0212 §B: a signer refuses them; JavaScript's
// Number.isInteger holds for each, Number.isSafeInteger for none). Every
// double of magnitude 2^53 or more is an integer, so this is simply a
// magnitude test; it is idempotent, since the canonical form of a refused
// value is never produced.
func unsafeInteger(f float64) bool {
	return math.Abs(f) > maxSafe && !math.IsInf(f, 0)
}

// AppendNumber appends the ECMAScript Number::toString form of a finite f
// (JSON.stringify's and String(f)'s digits): the one implementation,
// which internal/jsvalue uses too.
func AppendNumber(out []byte, f float64) []byte { return appendNumber(out, f) }

// AppendString appends s (valid UTF-8) quoted as JSON.stringify quotes it
// (the JCS string form): the one implementation, which internal/jsvalue
// uses too.
func AppendString(out []byte, s string) []byte { return appendString(out, s) }

// appendNumber appends the ECMAScript Number::toString form of a finite f.
func appendNumber(out []byte, f float64) []byte {
	if f == 0 { // also -0
		return append(out, '0')
	}
	if f < 0 {
		out = append(out, '-')
		f = -f
	}
	// Shortest round-trip digits, e.g. "1.2345e+06".
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	mant, exp := e, 0
	for i, c := range e {
		if c == 'e' {
			mant = e[:i]
			exp, _ = strconv.Atoi(string(e[i+1:]))
			break
		}
	}
	var digits []byte
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	k := len(digits)
	n := exp + 1 // position of the decimal point relative to the digits
	switch {
	case k <= n && n <= 21:
		out = append(out, digits...)
		for range n - k {
			out = append(out, '0')
		}
	case 0 < n && n <= 21:
		out = append(out, digits[:n]...)
		out = append(out, '.')
		out = append(out, digits[n:]...)
	case -6 < n && n <= 0:
		out = append(out, '0', '.')
		for range -n {
			out = append(out, '0')
		}
		out = append(out, digits...)
	default:
		out = append(out, digits[0])
		if k > 1 {
			out = append(out, '.')
			out = append(out, digits[1:]...)
		}
		out = append(out, 'e')
		if n-1 >= 0 {
			out = append(out, '+')
		}
		out = strconv.AppendInt(out, int64(n-1), 10)
	}
	return out
}

const hexDigits = "0123456789abcdef"

// appendString appends s (valid UTF-8) as a JCS string literal: only '"',
// '\\' and control characters are escaped, with the short forms where JSON
// has them and lower-case \u00xx otherwise.
func appendString(out []byte, s string) []byte {
	out = append(out, '"')
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		out = append(out, s[last:i]...)
		last = i + 1
		switch c {
		case '"', '\\':
			out = append(out, '\\', c)
		case '\b':
			out = append(out, '\\', 'b')
		case '\t':
			out = append(out, '\\', 't')
		case '\n':
			out = append(out, '\\', 'n')
		case '\f':
			out = append(out, '\\', 'f')
		case '\r':
			out = append(out, '\\', 'r')
		default:
			out = append(out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
	}
	out = append(out, s[last:]...)
	return append(out, '"')
}

// compareUTF16 orders two valid UTF-8 strings by their UTF-16 code units, as
// RFC 8785 §3.2.3 requires. Byte order equals code-point order, which
// differs from UTF-16 order only between astral characters (surrogate pairs,
// 0xD800-0xDBFF) and U+E000..U+FFFF.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				if ua < ub {
					return -1
				}
				return 1
			}
			// Same high surrogate: compare the low surrogates.
			_, la := utf16.EncodeRune(ra)
			_, lb := utf16.EncodeRune(rb)
			if la < lb {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	default:
		return 1
	}
}

// firstUnit returns the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}
