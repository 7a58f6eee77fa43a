package leaks

import (
	"errors"
	"slices"
	"testing"
	"unicode/utf8"
)

// FuzzDecoded: the readings of any window never panic, and the JSON reading
// of valid UTF-8 is valid UTF-8 no longer than its input; gitleaks'
// encoded parts are found as its own expression finds them, and decoding
// them (five passes, as gitleaks) never fails but on the budget.
func FuzzDecoded(f *testing.F) {
	f.Add([]byte(`{"t":"\u0041\/\\u12"}`))
	f.Add([]byte("a\x00b\x00c\x00d\x00e\x00f\x00"))
	f.Add([]byte("\x00a\x00b\x00c\x00d\x00e\x00f"))
	for _, s := range encodingSeeds {
		f.Add([]byte(s))
	}
	s, err := Default()
	if err != nil {
		f.Fatal(err)
	}
	var buf [2][]byte
	f.Fuzz(func(t *testing.T, b []byte) {
		Decoded(b, &buf)
		if j := jsonUnescaped(b, nil); j != nil && utf8.Valid(b) && (!utf8.Valid(j) || len(j) > len(b)) {
			t.Fatalf("%q read as %q", b, j)
		}
		if got, want := encodingMatches(b, nil), referenceMatches(b); !slices.Equal(got, want) {
			t.Fatalf("%q: encoded parts %v, gitleaks' expression %v", b, got, want)
		}
		if _, _, err := s.FindDecoding(b, 0, "f.txt", &Scratch{Budget: 64 << 20}); err != nil && !errors.Is(err, ErrBudget) {
			t.Fatal(err)
		}
	})
}
