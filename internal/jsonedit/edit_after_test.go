package jsonedit

import "testing"

func TestSetAfter(t *testing.T) {
	tests := []struct {
		name, src, ptr, after string
		value                 any
		want                  string
	}{
		{"after a middle member", "{\n  \"name\": \"x\",\n  \"version\": \"1.0.0\",\n  \"engines\": {}\n}\n", "/kind", "version", "node",
			"{\n  \"name\": \"x\",\n  \"version\": \"1.0.0\",\n  \"kind\": \"node\",\n  \"engines\": {}\n}\n"},
		{"after the first member", "{\n  \"a\": 1,\n  \"b\": 2\n}", "/k", "a", true, "{\n  \"a\": 1,\n  \"k\": true,\n  \"b\": 2\n}"},
		{"after the last member", "{\n  \"a\": 1,\n  \"b\": 2\n}", "/k", "b", true, "{\n  \"a\": 1,\n  \"b\": 2,\n  \"k\": true\n}"},
		{"no such sibling: at the end", "{\n  \"a\": 1\n}", "/k", "zz", 3, "{\n  \"a\": 1,\n  \"k\": 3\n}"},
		{"existing member replaced in place", "{\n  \"k\": 1,\n  \"a\": 1\n}", "/k", "a", 2, "{\n  \"k\": 2,\n  \"a\": 1\n}"},
		{"compact", `{"a":1,"b":2}`, "/k", "a", "v", `{"a":1,"k":"v","b":2}`},
		{"one line with spaces", `{ "a": 1, "b": 2 }`, "/k", "a", "v", `{ "a": 1, "k": "v", "b": 2 }`},
		{"tabs and CRLF, object value at depth", "{\r\n\t\"p\": {\r\n\t\t\"x\": 1,\r\n\t\t\"y\": 2\r\n\t}\r\n}", "/p/m", "x", map[string]any{"f": []any{"a"}},
			"{\r\n\t\"p\": {\r\n\t\t\"x\": 1,\r\n\t\t\"m\": {\r\n\t\t\t\"f\": [\r\n\t\t\t\t\"a\"\r\n\t\t\t]\r\n\t\t},\r\n\t\t\"y\": 2\r\n\t}\r\n}"},
		{"one-line object in an indented document stays on its line", "{\n  \"p\": {\"a\": 1},\n  \"q\": 2\n}", "/p/k", "a", map[string]any{"f": []any{"x", "y"}},
			"{\n  \"p\": {\"a\": 1, \"k\": {\"f\": [\"x\", \"y\"]}},\n  \"q\": 2\n}"},
		{"one-line object with its own joints", "{\n  \"p\": { \"a\": 1,  \"b\": 2 }\n}", "/p/k", "a", 3,
			"{\n  \"p\": { \"a\": 1,  \"k\": 3,  \"b\": 2 }\n}"},
		{"empty object", "{\n  \"p\": {}\n}", "/p/k", "x", 1, "{\n  \"p\": {\n    \"k\": 1\n  }\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetAfter([]byte(tt.src), tt.ptr, tt.after, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestRename(t *testing.T) {
	src := "{\n  \"peerDependencies\": { \"host.fs\": \"supported\",  \"a2a\": \"x\" }\n}\n"
	got, err := Rename([]byte(src), "/peerDependencies/host.fs", "fs")
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"peerDependencies\": { \"fs\": \"supported\",  \"a2a\": \"x\" }\n}\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := Rename([]byte(src), "/peerDependencies/host.fs", "a2a"); err == nil {
		t.Error("renaming onto an existing member must be refused")
	}
	for _, p := range []string{"/peerDependencies/nope", "", "/x/y", "/peerDependencies/a2a/0"} {
		if _, err := Rename([]byte(src), p, "k"); err == nil {
			t.Errorf("%q: want an error", p)
		}
	}
	if got, err := Rename([]byte(`{"a~b":1}`), "/a~0b", "c/d"); err != nil || string(got) != `{"c/d":1}` {
		t.Errorf("escaped pointer: %q %v", got, err)
	}
}
