package jcs

import (
	"os"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// BenchmarkCanonicalize canonicalises the largest registry pack.json (13.9 KB).
func BenchmarkCanonicalize(b *testing.B) {
	src, err := os.ReadFile(fixtures.Path(b, "source-packs", "core.openwop.a2a", "pack.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Canonicalize(src, Options{Strict: true}); err != nil {
			b.Fatal(err)
		}
	}
}
