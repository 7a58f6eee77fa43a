package jsonedit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
)

func TestSet(t *testing.T) {
	tests := []struct {
		name, src, ptr string
		value          any
		want           string
	}{
		{"replace scalar", "{\n  \"a\": 1,\n  \"b\": \"x\"\n}\n", "/a", 2, "{\n  \"a\": 2,\n  \"b\": \"x\"\n}\n"},
		{"replace keeps escapes elsewhere", "{\n  \"a\": \"\\u2014\",\n  \"b\": 1\n}", "/b", "—<>&", "{\n  \"a\": \"\\u2014\",\n  \"b\": \"—<>&\"\n}"},
		{"add member two spaces", "{\n  \"a\": 1\n}", "/b", map[string]any{"c": []any{1, 2}},
			"{\n  \"a\": 1,\n  \"b\": {\n    \"c\": [\n      1,\n      2\n    ]\n  }\n}"},
		{"add member tabs", "{\n\t\"a\": {\n\t\t\"x\": 1\n\t}\n}", "/a/y", []any{"p"},
			"{\n\t\"a\": {\n\t\t\"x\": 1,\n\t\t\"y\": [\n\t\t\t\"p\"\n\t\t]\n\t}\n}"},
		{"add member four spaces CRLF", "{\r\n    \"a\": 1\r\n}\r\n", "/b", map[string]any{"k": true},
			"{\r\n    \"a\": 1,\r\n    \"b\": {\r\n        \"k\": true\r\n    }\r\n}\r\n"},
		{"add member compact", `{"a":1,"b":[1]}`, "/c", map[string]any{"d": "e"}, `{"a":1,"b":[1],"c":{"d":"e"}}`},
		{"add to empty object", "{\n  \"a\": {}\n}", "/a/b", 1, "{\n  \"a\": {\n    \"b\": 1\n  }\n}"},
		{"replace nested object at depth", "{\n  \"a\": [\n    {\n      \"x\": 1\n    }\n  ]\n}", "/a/0", map[string]any{"y": 2},
			"{\n  \"a\": [\n    {\n      \"y\": 2\n    }\n  ]\n}"},
		{"append with dash", "{\n  \"a\": [\n    1\n  ]\n}", "/a/-", 2, "{\n  \"a\": [\n    1,\n    2\n  ]\n}"},
		{"raw message keeps key order", "{\n  \"a\": 1\n}", "/b", json.RawMessage(`{"z":1,"a":2}`), "{\n  \"a\": 1,\n  \"b\": {\n    \"z\": 1,\n    \"a\": 2\n  }\n}"},
		{"key needing escape", "{\n  \"a\": 1\n}", "/x~1y", 1, "{\n  \"a\": 1,\n  \"x/y\": 1\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Set([]byte(tt.src), tt.ptr, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestAppend(t *testing.T) {
	tests := []struct {
		name, src, ptr string
		value          any
		want           string
	}{
		{"after items", "{\n  \"a\": [\n    {\n      \"x\": 1\n    }\n  ]\n}", "/a", map[string]any{"x": 2},
			"{\n  \"a\": [\n    {\n      \"x\": 1\n    },\n    {\n      \"x\": 2\n    }\n  ]\n}"},
		{"empty array", "{\n  \"a\": []\n}", "/a", "s", "{\n  \"a\": [\n    \"s\"\n  ]\n}"},
		{"missing array is created", "{\n  \"a\": 1\n}", "/b", "s", "{\n  \"a\": 1,\n  \"b\": [\n    \"s\"\n  ]\n}"},
		{"inline array keeps its separator", "{\n  \"k\": [\"a\", \"b\"]\n}", "/k", "c", "{\n  \"k\": [\"a\", \"b\", \"c\"]\n}"},
		{"compact", `{"a":[1,2]}`, "/a", 3, `{"a":[1,2,3]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Append([]byte(tt.src), tt.ptr, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestRemove(t *testing.T) {
	src := "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": {\n    \"d\": 1\n  }\n}"
	tests := []struct{ ptr, want string }{
		{"/a", "{\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": {\n    \"d\": 1\n  }\n}"},
		{"/b", "{\n  \"a\": 1,\n  \"c\": {\n    \"d\": 1\n  }\n}"},
		{"/c", "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ]\n}"},
		{"/b/0", "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ],\n  \"c\": {\n    \"d\": 1\n  }\n}"},
		{"/b/1", "{\n  \"a\": 1,\n  \"b\": [\n    1\n  ],\n  \"c\": {\n    \"d\": 1\n  }\n}"},
		{"/c/d", "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": {}\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.ptr, func(t *testing.T) {
			got, err := Remove([]byte(src), tt.ptr)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	src := []byte("{\n  \"a\": 1,\n  \"b\": [1]\n}")
	for _, tt := range []struct {
		name string
		f    func() error
	}{
		{"unparsable", func() error { _, err := Set([]byte("{"), "/a", 1); return err }},
		{"no parent", func() error { _, err := Set(src, "/x/y", 1); return err }},
		{"bad index", func() error { _, err := Set(src, "/b/5", 1); return err }},
		{"append to non-array", func() error { _, err := Append(src, "/a", 1); return err }},
		{"remove missing", func() error { _, err := Remove(src, "/zz"); return err }},
		{"remove root", func() error { _, err := Remove(src, ""); return err }},
		{"unrenderable", func() error { _, err := Set(src, "/a", func() {}); return err }},
	} {
		if tt.f() == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

// TestFixtureRoundTrip adds a member and an item to each real source
// pack.json and removes them again: the result must be byte-identical.
func TestFixtureRoundTrip(t *testing.T) {
	for _, src := range fixturePacks(t) {
		doc, err := jsondoc.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		entry := map[string]any{"agentId": "x.y.z", "persona": "P — ü <>", "memoryShape": map[string]any{"a": true}}
		for _, arr := range []string{"/agents", "/nodes", "/keywords"} {
			n := doc.Lookup(arr)
			out, err := Append(src, arr, entry)
			if err != nil {
				t.Fatal(err)
			}
			idx := "0"
			if n != nil {
				idx = itoa(len(n.Items))
			}
			var back []byte
			if n == nil {
				back, err = Remove(out, arr)
			} else {
				back, err = Remove(out, arr+"/"+idx)
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != string(src) {
				t.Errorf("%s: append+remove changed the file:\n%s", arr, back)
			}
			checkSemantics(t, src, out, arr, n == nil, entry)
		}
	}
}

// checkSemantics checks that out holds src's values plus the new entry.
func checkSemantics(t *testing.T, src, out []byte, arr string, created bool, entry any) {
	t.Helper()
	var a, b map[string]any
	if err := json.Unmarshal(src, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatal(err)
	}
	key := arr[1:]
	items, _ := b[key].([]any)
	if len(items) == 0 {
		t.Fatalf("%s: no items after append", arr)
	}
	want, _ := json.Marshal(entry)
	var w any
	_ = json.Unmarshal(want, &w)
	if !reflect.DeepEqual(items[len(items)-1], w) {
		t.Errorf("%s: last item %v, want %v", arr, items[len(items)-1], w)
	}
	if created {
		delete(b, key)
	} else {
		b[key] = items[:len(items)-1]
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s: other values changed", arr)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// fixturePacks returns the real source pack.json files, skipping when the
// shared fixtures are absent.
func fixturePacks(t testing.TB) [][]byte {
	out := fixturePacksOptional()
	if len(out) == 0 {
		fixtures.Dir(t) // skips when the fixtures are absent
		t.Fatal("no source packs in the fixtures")
	}
	return out
}

// fixturePacksOptional returns the real source pack.json files, or none.
func fixturePacksOptional() [][]byte {
	dir, _ := fixtures.Find()
	ms, _ := filepath.Glob(filepath.Join(dir, "source-packs", "*", "pack.json"))
	var out [][]byte
	for _, m := range ms {
		if b, err := os.ReadFile(m); err == nil {
			out = append(out, b)
		}
	}
	return out
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, src string
		want      Style
	}{
		{"two spaces", "{\n  \"a\": 1\n}", Style{"  ", "\n", ": "}},
		{"four spaces CRLF", "{\r\n    \"a\": 1\r\n}", Style{"    ", "\r\n", ": "}},
		{"tabs", "{\n\t\"a\": {\n\t\t\"b\": 1\n\t}\n}", Style{"\t", "\n", ": "}},
		{"one line, tight colon", `{"a":1,"b":2}`, Style{"", "\n", ":"}},
		{"spaced colon", "{\n  \"a\" : 1\n}", Style{"  ", "\n", " : "}},
		{"first level wins over odd lines", "{\n  \"a\": [1,\n 2]\n}", Style{"  ", "\n", ": "}},
		{"root on one line, rest indented", "{\"a\": {\n   \"b\": 1\n}}", Style{"   ", "\n", ": "}},
	}
	for _, tt := range tests {
		if got := Detect([]byte(tt.src)); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
