package jcs

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzCanonicalize: never panics; a success is accepted by encoding/json,
// means the same values as the input, is canonical (idempotent) and equals
// what Marshal makes of the decoded input.
func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,false,null]}`, `"\ud83d\ude00"`, `{"\u20ac":1,"\r":2}`, `[1e21,1e-7,-0,0.7]`,
		`{"a":{"a":{"a":[]}}}`, `9007199254740993`, `"\u2028<>&"`, `[`, `{"a":1,"a":2}`, `1e400`,
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		opts := Options{Strict: strict}
		c, err := Canonicalize(data, opts)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted what encoding/json refuses: %q", data)
		}
		var in, out any
		if json.Unmarshal(data, &in) != nil || json.Unmarshal(c, &out) != nil || !reflect.DeepEqual(in, out) {
			t.Fatalf("values differ:\nin  %q\nout %q", data, c)
		}
		c2, err := Canonicalize(c, opts)
		if err != nil {
			t.Fatalf("canonical output refused: %v\nin  %q\nout %q", err, data, c)
		}
		if !bytes.Equal(c, c2) {
			t.Fatalf("not idempotent:\nin  %q\nout %q\nout2 %q", data, c, c2)
		}
		if !IsCanonical(c) {
			t.Fatalf("IsCanonical false on canonical output %q", c)
		}
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		m, err := Marshal(v, opts)
		if err != nil || !bytes.Equal(m, c) {
			t.Fatalf("Marshal differs from Canonicalize (err %v)\nin  %q\ncan %q\nmar %q", err, data, c, m)
		}
	})
}
