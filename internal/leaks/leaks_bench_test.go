package leaks

import (
	"testing"
)

// BenchmarkFindText: the rules on a window of code that holds a short
// keyword ("s.") on every line, the worst case of the keyword index.
func BenchmarkFindText(b *testing.B) {
	text := []byte("export function greet(ctx) { return { status: \"success\", outputs: { greeting: `hello ${ctx.inputs.name}` } } }\n")
	out := make([]byte, 256<<10)
	for j := range out {
		out[j] = text[j%len(text)] ^ byte(j>>12&1)
	}
	s, _ := Default()
	var sc Scratch
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		s.Find(out, 0, "", &sc)
	}
}
