package registry

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// FuzzDecodeTop checks DecodeTop against JSON.parse semantics built from
// encoding/json's tokens: it never panics; it accepts only valid JSON
// objects; it refuses every object holding a member named twice in one
// object in any letter case (at any depth); on every other object it
// agrees with reading the exact member names, and a member whose name
// differs only in letter case never fills a field.
func FuzzDecodeTop(f *testing.F) {
	for _, s := range []string{`{"name":"a","version":"1","x":[1,{"y":"}"}]}`, `{}`, `{"name":"a\"b"}`, `{"a":1,"a":2}`, `[1]`,
		`{"Name":"x","version":"1"}`, `{"name":"a","NAME":"b"}`, `{"x":{"k":1,"K":2}}`, "{\"\u212a\":1,\"k\":2}"} {
		f.Add([]byte(s))
	}
	type doc struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got doc
		err := DecodeTop(data, &got)
		if err == nil && !json.Valid(data) {
			t.Fatalf("DecodeTop accepted invalid JSON %q", data)
		}
		if !utf8.Valid(data) {
			return // names JSON.parse would merge into U+FFFD: out of scope here
		}
		var members map[string]json.RawMessage
		if json.Unmarshal(data, &members) != nil || members == nil {
			if err == nil {
				t.Fatalf("DecodeTop accepted %q, which is not a JSON object", data)
			}
			return
		}
		dup := foldedDuplicate(data)
		if dup && err == nil {
			t.Fatalf("DecodeTop accepted %q, which names a member twice in one object", data)
		}
		// JSON.parse then property access: the expected values come from
		// the exact names only.
		var want doc
		for k, dst := range map[string]*string{"name": &want.Name, "version": &want.Version} {
			if raw, ok := members[k]; ok && json.Unmarshal(raw, dst) != nil {
				return // a kept member has the wrong type: DecodeTop refuses it too
			}
		}
		if err != nil {
			switch code := werr.CodeOf(err); {
			case dup && code == untrusted.CodeJSONDuplicate:
			case code == untrusted.CodeJSONTooLarge: // nested deeper than the layer reads
			default:
				t.Fatalf("DecodeTop refused %q: %v", data, err)
			}
			return
		}
		if got != want {
			t.Fatalf("DecodeTop(%q) = %+v, exact names give %+v", data, got, want)
		}
	})
}

// foldedDuplicate reports whether any object in a valid JSON document
// names a member twice, in any letter case (simple case folding, as
// strings.EqualFold compares).
func foldedDuplicate(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		keys   []string
		key    bool // the next string token is a member name
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if k, ok := tok.(string); ok {
				for _, prev := range top.keys {
					if strings.EqualFold(prev, k) {
						return true
					}
				}
				top.keys = append(top.keys, k)
				top.key = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return false
		}
		if top := stack[len(stack)-1]; top.object {
			top.key = true
		}
	}
}
