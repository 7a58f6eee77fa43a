package leaks

import (
	"testing"
	"unicode/utf8"
)

// FuzzDecoded: the readings of any window never panic, and the JSON reading
// of valid UTF-8 is valid UTF-8 no longer than its input.
func FuzzDecoded(f *testing.F) {
	f.Add([]byte(`{"t":"\u0041\/\\u12"}`))
	f.Add([]byte("a\x00b\x00c\x00d\x00e\x00f\x00"))
	f.Add([]byte("\x00a\x00b\x00c\x00d\x00e\x00f"))
	var buf [2][]byte
	f.Fuzz(func(t *testing.T, b []byte) {
		Decoded(b, &buf)
		if j := jsonUnescaped(b, nil); j != nil && utf8.Valid(b) && (!utf8.Valid(j) || len(j) > len(b)) {
			t.Fatalf("%q read as %q", b, j)
		}
	})
}
