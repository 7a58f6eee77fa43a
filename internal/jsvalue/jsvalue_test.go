package jsvalue

import (
	"math"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// TestNumberString checks JavaScript's Number::toString on values whose
// form node prints (String(x) in node 20): the switch to exponent form at
// 1e21 and below 1e-6, the shortest round-trip digits, -0.
func TestNumberString(t *testing.T) {
	t.Parallel()
	tenth := 0.1
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-42, "-42"}, {100, "100"},
		{tenth + 2*tenth, "0.30000000000000004"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"}, {1e-7, "1e-7"}, {0.000001, "0.000001"},
		{1.5e-6, "0.0000015"}, {123e-20, "1.23e-18"}, {1e300, "1e+300"}, {9007199254740993, "9007199254740992"},
		{5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"}, {-1.5e-7, "-1.5e-7"}, {2.5, "2.5"},
		{math.Inf(1), "Infinity"}, {math.NaN(), "NaN"},
	} {
		if got := NumberString(c.f); got != c.want {
			t.Errorf("NumberString(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func parse(t *testing.T, s string) any {
	t.Helper()
	d, err := jsondoc.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return FromNode(d.Root)
}

// TestJSString checks String(v) for each JSON type, and that objects keep
// JavaScript's key order (index keys first, ascending) when encoded.
func TestJSString(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`null`: "null", `true`: "true", `"x"`: "x", `1e21`: "1e+21", `[1,[2,3],null,"a"]`: "1,2,3,,a",
		`{"a":1}`: "[object Object]", `[]`: "", `[{}]`: "[object Object]",
	} {
		if got := JSString(parse(t, in)); got != want {
			t.Errorf("JSString(%s) = %q, want %q", in, got, want)
		}
	}
	if got := string(Encode(parse(t, `{"b":1,"10":2,"a":[1.0,2e0,"\u2028\n"],"2":3}`))); got != `{"2":3,"10":2,"b":1,"a":[1,2,"`+"\u2028"+`\n"]}` {
		t.Errorf("Encode = %s", got)
	}
	if got := string(Encode(parse(t, `1e400`))); got != "null" {
		t.Errorf("Encode(1e400) = %s, want null (Infinity)", got)
	}
}
