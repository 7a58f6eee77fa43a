// Package jsonlex scans the leaves of JSON text, strings and numbers
// (RFC 8259), for the readers that build on it: internal/jsondoc (the
// positioned tree the editor and validate read) and internal/jcs (the
// canonical form OpenWOP signs). Each reports a problem with its offset
// and words it its own way.
//
// internal/untrusted keeps a reader of its own, fused with its checks:
// BenchmarkJSON (internal/jsondoc) measured that a shared positioned token
// lexer alone costs about as much as untrusted's whole pass on a pack.json
// (10.3 µs against 11.4 µs for 13.9 KB) and a third of it on a registry
// index (0.46 ms against 1.42 ms for 277 KB), while jsondoc and jcs spend 7
// to 14% of their time there.
package jsonlex

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Problem is what makes a leaf invalid.
type Problem uint8

// The problems, with where Error.At points.
const (
	OK           Problem = iota
	Unterminated         // a string without its closing quote: At is the end of the text
	Control              // a control byte in a string: At is the byte
	InvalidUTF8          // a byte that is not UTF-8 in a string (when checked): At is the byte
	EscapeEnd            // a backslash that ends the text: At is the backslash
	BadEscape            // \ and a byte that escapes nothing (Char): At is the backslash
	BadHex               // \u without four hex digits: At is the backslash
	LoneLow              // a low surrogate (Rune) first: At is its backslash
	LoneHigh             // a high surrogate (Rune) without its low one: At is its backslash
	NoDigit              // a number without a digit where one must be: At is where
	NoFraction           // a '.' without a digit after it: At is where one must be
	NoExponent           // an exponent without a digit: At is where one must be
)

// Error is a problem and where it is; Problem is OK when there is none.
type Error struct {
	Problem Problem
	At      int
	Rune    rune // LoneLow, LoneHigh
	Char    byte // BadEscape
}

// Number scans the number at s[i] ('-' or a digit): the index after it.
func Number(s []byte, i int) (end int, e Error) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return i, Error{Problem: NoDigit, At: i}
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return i, Error{Problem: NoFraction, At: i}
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, Error{Problem: NoExponent, At: i}
		}
	}
	return i, Error{}
}

// String decodes the string at s[i] (its opening quote): its value and the
// index after its closing quote. checkUTF8: refuse bytes that are not
// UTF-8 (a caller that checked the whole text already passes false).
func String(s []byte, i int, checkUTF8 bool) (v string, end int, e Error) {
	if i >= len(s) {
		return "", len(s), Error{Problem: Unterminated, At: len(s)}
	}
	i++
	start := i
	for i < len(s) && s[i] != '"' && s[i] != '\\' && s[i] >= 0x20 && (s[i] < utf8.RuneSelf || !checkUTF8) {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return string(s[start:i]), i + 1, Error{}
	}
	buf := make([]byte, 0, i-start+16)
	buf = append(buf, s[start:i]...)
	for {
		if i >= len(s) {
			return "", i, Error{Problem: Unterminated, At: i}
		}
		c := s[i]
		switch {
		case c == '"':
			return string(buf), i + 1, Error{}
		case c < 0x20:
			return "", i, Error{Problem: Control, At: i}
		case c == '\\':
			var e Error
			if buf, i, e = escape(s, i, buf); e.Problem != OK {
				return "", i, e
			}
		case c < utf8.RuneSelf || !checkUTF8:
			buf = append(buf, c)
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n <= 1 {
				return "", i, Error{Problem: InvalidUTF8, At: i}
			}
			buf = append(buf, s[i:i+n]...)
			i += n
		}
	}
}

// escape decodes the escape at s[at] (a backslash) onto buf.
func escape(s []byte, at int, buf []byte) ([]byte, int, Error) {
	if at+1 >= len(s) {
		return buf, at, Error{Problem: EscapeEnd, At: at}
	}
	c := s[at+1]
	i := at + 2
	switch c {
	case '"', '\\', '/':
		return append(buf, c), i, Error{}
	case 'b':
		return append(buf, '\b'), i, Error{}
	case 'f':
		return append(buf, '\f'), i, Error{}
	case 'n':
		return append(buf, '\n'), i, Error{}
	case 'r':
		return append(buf, '\r'), i, Error{}
	case 't':
		return append(buf, '\t'), i, Error{}
	case 'u':
		r, ok := hex4(s, i)
		if !ok {
			return buf, at, Error{Problem: BadHex, At: at}
		}
		i += 4
		if !utf16.IsSurrogate(r) {
			return utf8.AppendRune(buf, r), i, Error{}
		}
		if r >= 0xdc00 {
			return buf, at, Error{Problem: LoneLow, At: at, Rune: r}
		}
		if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if r2, ok := hex4(s, i+2); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
				return utf8.AppendRune(buf, utf16.DecodeRune(r, r2)), i + 6, Error{}
			}
		}
		return buf, at, Error{Problem: LoneHigh, At: at, Rune: r}
	}
	return buf, at, Error{Problem: BadEscape, At: at, Char: c}
}

// hex4 reads four hex digits at s[i].
func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
