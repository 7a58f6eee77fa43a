package tarball

import (
	"math/rand/v2"
	"testing"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// The ASCII fast path of foldKey gives what Unicode case folding of the
// canonical decomposition, recomposed, gives: for every ASCII character
// and for random ASCII names; a non-ASCII name still takes the full path.
func TestFoldKeyASCIIFastPath(t *testing.T) {
	t.Parallel()
	full := func(s string) string { return norm.NFC.String(cases.Fold().String(norm.NFD.String(s))) }
	var names []string
	for c := range 128 {
		names = append(names, string(rune(c)), "Pack/"+string(rune(c))+"X.json")
	}
	rng := rand.New(rand.NewPCG(27, 1))
	for range 2000 {
		b := make([]byte, 1+rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(128))
		}
		names = append(names, string(b))
	}
	names = append(names, "nodes/Straße.json", "K", "ǅ", "e\u0301.txt", "É.txt")
	for _, n := range names {
		if got, want := foldKey(n), full(n); got != want {
			t.Errorf("foldKey(%q) = %q, want %q", n, got, want)
		}
	}
}
