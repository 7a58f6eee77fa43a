package jsondoc

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseMatchesEncodingJSON(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `{"a":1,"b":[true,false,null],"c":{"d":"e\u00e9\n\"x"}}`,
		`  [1, -2.5e10, 0, "\ud83d\ude00", "<>&\u2028"]  `,
		`"plain"`, `-0`, `1E+2`,
	} {
		d, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		dec := json.NewDecoder(strings.NewReader(src))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := d.Root.Value(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v want %#v", src, got, want)
		}
	}
}

func TestParseErrorsHavePositions(t *testing.T) {
	cases := []struct {
		src, code string
		line, col int
	}{
		{"", "json_empty", 1, 1},
		{"  \n ", "json_empty", 2, 2},
		{"{\n  \"a\": 1,\n  \"a\": 2\n}", "json_duplicate_key", 3, 3},
		{"{\n  \"a\": 1\n  \"b\": 2\n}", "json_syntax", 3, 3},
		{"{\"a\": [1, 2,]}", "json_syntax", 1, 12},
		{"{\"é\": tru}", "json_syntax", 1, 7},
		{"{\"a\": \"\\ud800\"}", "json_encoding", 1, 8},
		{"{\"a\": \"x\xff\"}", "json_encoding", 1, 9},
		{"\xEF\xBB\xBF{}", "json_encoding", 1, 1},
		{"{} {}", "json_syntax", 1, 4},
		{"{\"a\": 01}", "json_syntax", 1, 8},
		{"[" + strings.Repeat("[", 300) + strings.Repeat("]", 301), "json_too_deep", 1, 258},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.src))
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("%q: want SyntaxError, got %v", c.src, err)
			continue
		}
		if se.Code != c.code || se.Line != c.line || se.Column != c.col {
			t.Errorf("%q: got %s %d:%d (%s), want %s %d:%d", c.src, se.Code, se.Line, se.Column, se.Msg, c.code, c.line, c.col)
		}
	}
}

func TestLookupAndLocate(t *testing.T) {
	src := "{\n  \"nodes\": [\n    {\"typeId\": \"x\", \"a/b\": 1}\n  ]\n}"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n := d.Lookup("/nodes/0/typeId"); n == nil || n.Str != "x" {
		t.Fatalf("lookup typeId: %#v", n)
	}
	if n := d.Lookup("/nodes/0/a~1b"); n == nil || n.Str != "1" {
		t.Fatalf("lookup escaped: %#v", n)
	}
	if l, c := d.Position(d.Locate("/nodes/0/typeId", true)); l != 3 || c != 6 {
		t.Errorf("key position %d:%d", l, c)
	}
	if l, c := d.Position(d.Locate("/nodes/0/typeId", false)); l != 3 || c != 16 {
		t.Errorf("value position %d:%d", l, c)
	}
	if l, c := d.Position(d.Locate("/nodes/0/missing/deeper", false)); l != 3 || c != 5 {
		t.Errorf("fallback position %d:%d", l, c)
	}
	if got := Pointer("a/b", "c~d"); got != "/a~1b/c~0d" {
		t.Errorf("Pointer: %s", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00"`, `{"a":1,"a":2}`, `[1e400]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseLimits(b, Limits{MaxBytes: 1 << 20, MaxDepth: 64})
		if err != nil {
			return
		}
		// Whatever we accept, encoding/json accepts with the same value.
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			t.Fatalf("accepted what encoding/json refuses: %q", b)
		}
		_ = d.Root.Value()
	})
}

func TestDuplicateKeyInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "\"k%d\": %d, ", i, i)
	}
	b.WriteString("\"k3\": 0}")
	_, err := Parse([]byte(b.String()))
	if se, ok := err.(*SyntaxError); !ok || se.Code != "json_duplicate_key" || !strings.Contains(se.Msg, `"k3"`) {
		t.Fatalf("got %v", err)
	}
	if _, err := Parse([]byte(strings.Replace(b.String(), `"k3": 0}`, `"k40": 0}`, 1))); err != nil {
		t.Fatal(err)
	}
}
