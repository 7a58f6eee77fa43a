package jsonlex

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestProblems: each problem is found where it is, and valid leaves end
// where they end.
func TestProblems(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want Problem
		at   int
		val  string
	}{
		{`"abc" `, OK, 5, "abc"},
		{`"a\"\\\/\b\f\n\r\t" `, OK, 19, "a\"\\/\b\f\n\r\t"},
		{`"\u00e9\ud83d\ude00"`, OK, 20, "é😀"},
		{`"caf` + "\u00e9" + `"`, OK, 7, "café"},
		{`"abc`, Unterminated, 4, ""},
		{"\"a\tb\"", Control, 2, ""},
		{"\"a\xffb\"", InvalidUTF8, 2, ""},
		{`"ab\`, EscapeEnd, 3, ""},
		{`"a\xb"`, BadEscape, 2, ""},
		{`"a\u12g4"`, BadHex, 2, ""},
		{`"a\ude00"`, LoneLow, 2, ""},
		{`"a\ud83d"`, LoneHigh, 2, ""},
		{`"a\ud83d\u0041"`, LoneHigh, 2, ""},
	} {
		v, end, e := String([]byte(c.text), 0, true)
		if e.Problem != c.want || c.want != OK && e.At != c.at || c.want == OK && (end != c.at || v != c.val) {
			t.Errorf("String(%q) = %q, %d, %+v; want %v at %d (%q)", c.text, v, end, e, c.want, c.at, c.val)
		}
	}
	for _, c := range []struct {
		text string
		want Problem
		end  int
	}{
		{"0 ", OK, 1}, {"-12.5e+3,", OK, 8}, {"01", OK, 1}, {"-", NoDigit, 1}, {"-a", NoDigit, 1},
		{"1.", NoFraction, 2}, {"1.e3", NoFraction, 2}, {"1e", NoExponent, 2}, {"1e+", NoExponent, 3},
	} {
		end, e := Number([]byte(c.text), 0)
		if e.Problem != c.want || end != c.end || c.want != OK && e.At != c.end {
			t.Errorf("Number(%q) = %d, %+v; want %v, %d", c.text, end, e, c.want, c.end)
		}
	}
}

// FuzzString: a string jsonlex accepts decodes as encoding/json decodes
// it, and one encoding/json refuses jsonlex refuses (encoding/json takes
// lone surrogates and bad UTF-8, which jsonlex refuses).
func FuzzString(f *testing.F) {
	f.Add(`"a\u00e9\ud83d\ude00b"`)
	f.Add(`"\ud83d"`)
	f.Add("\"\xff\"")
	f.Fuzz(func(t *testing.T, text string) {
		v, end, e := String([]byte(text), 0, true)
		Number([]byte(text), 0)
		if text == "" || text[0] != '"' {
			return // String's callers give it a quote
		}
		var want string
		err := json.Unmarshal([]byte(text[:max(0, min(end, len(text)))]), &want)
		if e.Problem == OK {
			if err != nil || v != want || !utf8.ValidString(v) {
				t.Fatalf("%q: jsonlex %q, encoding/json %q (%v)", text, v, want, err)
			}
		}
		if json.Unmarshal([]byte(text), &want) != nil && e.Problem == OK && end == len(text) {
			t.Fatalf("%q: encoding/json refuses it, jsonlex reads %q", text, v)
		}
	})
}
