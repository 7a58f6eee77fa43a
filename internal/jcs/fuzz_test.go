package jcs

import (
	"bytes"
	"testing"
)

// FuzzCanonicalize: never panics, and the output of a success is canonical
// (idempotence) and accepted again, strict or not.
func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,false,null]}`, `"\ud83d\ude00"`, `{"\u20ac":1,"\r":2}`, `[1e21,1e-7,-0,0.7]`,
		`{"a":{"a":{"a":[]}}}`, `9007199254740993`, `"\u2028<>&"`, `[`, `{"a":1,"a":2}`, `1e400`,
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		c, err := Canonicalize(data, Options{Strict: strict})
		if err != nil {
			return
		}
		c2, err := Canonicalize(c, Options{Strict: strict})
		if err != nil {
			t.Fatalf("canonical output refused: %v\nin  %q\nout %q", err, data, c)
		}
		if !bytes.Equal(c, c2) {
			t.Fatalf("not idempotent:\nin  %q\nout %q\nout2 %q", data, c, c2)
		}
		if !IsCanonical(c) {
			t.Fatalf("IsCanonical false on canonical output %q", c)
		}
	})
}
