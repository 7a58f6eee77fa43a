package jcs

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// TestRFC8785Example is the example of RFC 8785 §3.2.2/§3.2.4. Its 1E30 is
// an integer beyond ±(2^53-1), which Strict (RFC 0212 §B) refuses: the
// example is plain JCS.
func TestRFC8785Example(t *testing.T) {
	in := `{
  "numbers": [333333333.33333329, 1E30, 4.50,
              2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`
	want := `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`
	got, err := Canonicalize([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Canonicalize([]byte(in), Options{Strict: true}); werr.CodeOf(err) != CodeNumberRange || !strings.Contains(err.Error(), "1E30") {
		t.Errorf("strict accepts 1E30: %v", err)
	}
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !IsCanonical(got) || IsCanonical([]byte(in)) {
		t.Error("IsCanonical disagrees with Canonicalize")
	}
}

// TestRFC8785Sorting is the "weird" sorting example of RFC 8785 §3.2.3: the
// emoji (a surrogate pair, 0xD83D...) sorts before U+FB33, although its code
// point is larger.
func TestRFC8785Sorting(t *testing.T) {
	in := `{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`
	want := `{"\r":"Carriage Return","1":"One","` + "\u0080" + `":"Control","ö":"Latin Small Letter O With Diaeresis","€":"Euro Sign","😀":"Emoji: Grinning Face","` + "\ufb33" + `":"Hebrew Letter Dalet With Dagesh"}`
	got, err := Canonicalize([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestRFC8785Numbers is the table of RFC 8785 Appendix B (IEEE bits -> text).
func TestRFC8785Numbers(t *testing.T) {
	tests := []struct {
		bits uint64
		want string
	}{
		{0x0000000000000000, "0"},
		{0x8000000000000000, "0"},
		{0x0000000000000001, "5e-324"},
		{0x8000000000000001, "-5e-324"},
		{0x7fefffffffffffff, "1.7976931348623157e+308"},
		{0xffefffffffffffff, "-1.7976931348623157e+308"},
		{0x4340000000000000, "9007199254740992"},
		{0xc340000000000000, "-9007199254740992"},
		{0x4430000000000000, "295147905179352830000"},
		{0x44b52d02c7e14af5, "9.999999999999997e+22"},
		{0x44b52d02c7e14af6, "1e+23"},
		{0x44b52d02c7e14af7, "1.0000000000000001e+23"},
		{0x444b1ae4d6e2ef4e, "999999999999999700000"},
		{0x444b1ae4d6e2ef4f, "999999999999999900000"},
		{0x444b1ae4d6e2ef50, "1e+21"},
		{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
		{0x3eb0c6f7a0b5ed8d, "0.000001"},
		{0x41b3de4355555553, "333333333.3333332"},
		{0x41b3de4355555554, "333333333.33333325"},
		{0x41b3de4355555555, "333333333.3333333"},
		{0x41b3de4355555556, "333333333.3333334"},
		{0x41b3de4355555557, "333333333.33333343"},
		{0xbecbf647612f3696, "-0.0000033333333333333333"},
		{0x43143ff3c1cb0959, "1424953923781206.2"},
	}
	for _, tt := range tests {
		f := math.Float64frombits(tt.bits)
		if got := string(appendNumber(nil, f)); got != tt.want {
			t.Errorf("%016x: appendNumber = %s, want %s", tt.bits, got, tt.want)
		}
		// The same value through the text path and through Marshal.
		c, err := Canonicalize([]byte(tt.want), Options{})
		if err != nil || string(c) != tt.want {
			t.Errorf("Canonicalize(%s) = %s, %v", tt.want, c, err)
		}
		m, err := Marshal(f, Options{})
		if err != nil || string(m) != tt.want {
			t.Errorf("Marshal(%016x) = %s, %v", tt.bits, m, err)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := Marshal(bad, Options{}); werr.CodeOf(err) != CodeNumberRange {
			t.Errorf("Marshal(%v) error = %v, want %s", bad, err, CodeNumberRange)
		}
	}
}

func TestNumberForms(t *testing.T) {
	tests := map[string]string{
		"1e21": "1e+21", "1e20": "100000000000000000000", "1e-7": "1e-7", "1e-6": "0.000001",
		"0.7": "0.7", "-0": "0", "-0.0": "0", "100": "100", "1E2": "100", "1.5e-10": "1.5e-10",
		"123456789012345678901234": "1.2345678901234569e+23", "0.1": "0.1", "-12.50": "-12.5",
		"1e-400": "0", "-1e-400": "0", "2.4703282292062328e-324": "5e-324", // underflow, as ECMAScript
		"1.7976931348623157e308": "1.7976931348623157e+308",
	}
	for in, want := range tests {
		got, err := Canonicalize([]byte(in), Options{})
		if err != nil || string(got) != want {
			t.Errorf("Canonicalize(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
}

func TestStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"<a href='x'>&amp;</a>"`, `"<a href='x'>&amp;</a>"`},                      // no HTML escaping
		{`"\u2028\u2029"`, "\"\u2028\u2029\""},                                      // left raw
		{`"\u001f\u0000\b\f\n\r\t\u007f"`, "\"\\u001f\\u0000\\b\\f\\n\\r\\t\x7f\""}, // control escapes
		{`"\ud834\udd1e"`, `"𝄞"`},                                                   // astral raw UTF-8
		{`"\u00E9\/"`, `"é/"`},
	}
	for _, tt := range tests {
		got, err := Canonicalize([]byte(tt.in), Options{})
		if err != nil || string(got) != tt.want {
			t.Errorf("Canonicalize(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

func TestCompareUTF16(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"\U0001F600", "\uFFFF", -1}, // astral (0xD83D) before U+FFFF in UTF-16, after it in bytes
		{"\uFB33", "\U0001F600", 1},
		{"\uE000", "\U00010000", 1},
		{"a", "ab", -1},
		{"b", "ab", 1},
		{"", "", 0},
		{"\U0001F600", "\U0001F601", -1}, // same high surrogate
	}
	for _, tt := range tests {
		if got := compareUTF16(tt.a, tt.b); got != tt.want {
			t.Errorf("compareUTF16(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	got, err := Canonicalize([]byte(`{"\uffff":1,"\ud83d\ude00":2}`), Options{})
	if err != nil || string(got) != "{\"\U0001F600\":2,\"\uffff\":1}" {
		t.Errorf("astral key sorting: %s, %v", got, err)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, in string
		strict   bool
		code     string
		where    string // substring expected in the message
	}{
		{"duplicate key", `{"a":1,"b":2,"a":3}`, false, CodeDuplicateKey, "byte 13 (line 1, column 14)"},
		{"duplicate after unescape", "{\"a\":1,\n\"\\u0061\":2}", false, CodeDuplicateKey, "line 2, column 1"},
		{"nested duplicate", `[{"x":{"k":1,"k":1}}]`, false, CodeDuplicateKey, "byte 13"},
		{"invalid utf8", "\"a\xffb\"", false, CodeInvalidString, "byte 2"},
		{"raw surrogate utf8", "\"\xed\xa0\x80\"", false, CodeInvalidString, "byte 1"},
		{"lone high escaped", `"\ud800"`, false, CodeInvalidString, "byte 1"},
		{"lone high then char", `"\ud800x"`, false, CodeInvalidString, "byte 1"},
		{"high then high", `"\ud800\ud800"`, false, CodeInvalidString, "byte 1"},
		{"lone low escaped", `"x\udc00"`, false, CodeInvalidString, "byte 2"},
		{"overflow", `[1e400]`, false, CodeNumberRange, "byte 1"},
		{"negative overflow", `-1e400`, false, CodeNumberRange, "byte 0"},
		{"rounds to infinity", `1.7976931348623159e308`, false, CodeNumberRange, "byte 0"},
		{"big int strict", `{"n":9007199254740992}`, true, CodeNumberRange, "byte 5"},
		{"big negative int strict", `-9007199254740992`, true, CodeNumberRange, "byte 0"},
		{"big int via exponent strict", `[1e17]`, true, CodeNumberRange, "byte 1"},
		{"big int via fraction strict", `9007199254740993.0`, true, CodeNumberRange, "byte 0"},
		// RFC 0212 §B: integers beyond ±(2^53-1) however written, also where
		// ECMAScript renders them with an exponent (from 1e21 on)
		{"1e21 strict", `{"n":1e21}`, true, CodeNumberRange, "integer 1e21"},
		{"-1e21 strict", `-1e21`, true, CodeNumberRange, "byte 0"},
		{"1E30 strict", `[0,1E30]`, true, CodeNumberRange, "byte 3"},
		{"22 digits strict", `{"n":1000000000000000000000}`, true, CodeNumberRange, "integer 1000000000000000000000"},
		{"30 digits strict", `123456789012345678901234567890`, true, CodeNumberRange, "byte 0"},
		{"1.5e300 strict", `1.5e300`, true, CodeNumberRange, "byte 0"},
		{"trailing comma", `[1,]`, false, CodeSyntax, "byte 3"},
		{"trailing garbage", `{} x`, false, CodeSyntax, "byte 3"},
		{"empty", ``, false, CodeSyntax, "byte 0"},
		{"leading zero", `01`, false, CodeSyntax, "byte 1"},
		{"bare dot", `1.`, false, CodeSyntax, "byte 2"},
		{"raw control", "\"a\tb\"", false, CodeSyntax, "byte 2"},
		{"bad escape", `"\x"`, false, CodeSyntax, "byte 1"},
		{"unterminated", `"abc`, false, CodeSyntax, "byte 4"},
		{"single quotes", `{'a':1}`, false, CodeSyntax, "byte 1"},
		{"bom", "\xef\xbb\xbf{}", false, CodeSyntax, "byte 0"},
		{"nan", `NaN`, false, CodeSyntax, "byte 0"},
		{"too deep", strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), false, CodeSyntax, "nesting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Canonicalize([]byte(tt.in), Options{Strict: tt.strict})
			if werr.CodeOf(err) != tt.code {
				t.Fatalf("error = %v, want code %s", err, tt.code)
			}
			if !strings.Contains(err.Error(), tt.where) {
				t.Errorf("error %q does not say %q", err, tt.where)
			}
			var we *werr.Error
			if !asWerr(err, &we) || we.Class != werr.Invalid || we.Hint == "" {
				t.Errorf("error %#v is not an Invalid *werr.Error with a hint", err)
			}
		})
	}
}

func asWerr(err error, target **werr.Error) bool {
	e, ok := err.(*werr.Error)
	*target = e
	return ok
}

func TestStrictAccepts(t *testing.T) {
	for _, in := range []string{"9007199254740991", "-9007199254740991", "0.5", "4503599627370495.5", "1e-300", "-0.0000001", "4.5e15"} {
		if _, err := Canonicalize([]byte(in), Options{Strict: true}); err != nil {
			t.Errorf("strict refused %s: %v", in, err)
		}
	}
	// Non-strict keeps large integers (rendered the ES way).
	got, err := Canonicalize([]byte("9007199254740993"), Options{})
	if err != nil || string(got) != "9007199254740992" {
		t.Errorf("non-strict big int = %s, %v", got, err)
	}
}

func TestMarshal(t *testing.T) {
	type sample struct {
		B string `json:"b"`
		A int    `json:"a"`
	}
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"map", map[string]any{"z": []any{json.Number("1.50"), 2, int64(3), 0.1, nil, true, false}, "a": "<&>"}, `{"a":"<&>","z":[1.5,2,3,0.1,null,true,false]}`},
		{"struct fallback", sample{B: "x<y", A: 7}, `{"a":7,"b":"x<y"}`},
		{"empty", map[string]any{}, `{}`},
		{"astral keys", map[string]any{"\uffff": 1, "\U0001F600": 2}, "{\"\U0001F600\":2,\"\uffff\":1}"},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.v, Options{Strict: true})
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: Marshal = %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
	bad := []struct {
		name string
		v    any
		code string
	}{
		{"big int strict", map[string]any{"n": int64(1) << 60}, CodeNumberRange},
		{"big float strict", []any{1e17}, CodeNumberRange},
		{"1e21 strict", map[string]any{"n": 1e21}, CodeNumberRange},
		{"json.Number 1E30 strict", []any{json.Number("1E30")}, CodeNumberRange},
		{"json.Number 22 digits strict", []any{json.Number("1000000000000000000000")}, CodeNumberRange},
		{"bad number", json.Number("1x"), CodeSyntax},
		{"padded number", json.Number(" 1"), CodeSyntax},
		{"invalid utf8", []any{"\xff"}, CodeInvalidString},
		{"channel", make(chan int), CodeSyntax},
	}
	for _, tt := range bad {
		if _, err := Marshal(tt.v, Options{Strict: true}); werr.CodeOf(err) != tt.code {
			t.Errorf("%s: error = %v, want %s", tt.name, err, tt.code)
		}
	}
	if _, err := Marshal(map[string]any{"n": []any{1, math.NaN()}}, Options{}); err == nil || !strings.Contains(err.Error(), "/n/1") {
		t.Errorf("NaN error does not name its pointer: %v", err)
	}
}
