package registry

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDecodeTop checks the scanner against encoding/json: it never panics,
// it accepts only valid JSON, and on any object encoding/json accepts
// without duplicate top-level keys it agrees on the members it keeps.
func FuzzDecodeTop(f *testing.F) {
	for _, s := range []string{`{"name":"a","version":"1","x":[1,{"y":"}"}]}`, `{}`, `{"name":"a\"b"}`, `{"a":1,"a":2}`, `[1]`} {
		f.Add([]byte(s))
	}
	type doc struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	keep := func(k string) bool { return k == "name" || k == "version" }
	f.Fuzz(func(t *testing.T, data []byte) {
		var got doc
		err := DecodeTop(data, keep, &got)
		if err == nil && !json.Valid(data) {
			t.Fatalf("DecodeTop accepted invalid JSON %q", data)
		}
		var members map[string]json.RawMessage
		if json.Unmarshal(data, &members) != nil || members == nil {
			return
		}
		// JSON keys are case-sensitive (encoding/json's struct decoding is
		// not): the expected values come from the exact keys.
		var want doc
		for k, dst := range map[string]*string{"name": &want.Name, "version": &want.Version} {
			if raw, ok := members[k]; ok && json.Unmarshal(raw, dst) != nil {
				return // a kept member has the wrong type: DecodeTop refuses it too
			}
		}
		if err != nil {
			if dupTop(data) {
				return
			}
			t.Fatalf("DecodeTop refused %q: %v", data, err)
		}
		if got != want {
			t.Fatalf("DecodeTop(%q) = %+v, encoding/json %+v", data, got, want)
		}
	})
}

// dupTop reports whether a JSON object repeats a top-level key.
func dupTop(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		k, _ := t.(string)
		if seen[k] {
			return true
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}
