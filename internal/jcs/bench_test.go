package jcs

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCanonicalize canonicalises the largest registry pack.json (13.9 KB).
func BenchmarkCanonicalize(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(fixtures, "source-packs/core.openwop.a2a/pack.json"))
	if err != nil {
		b.Skipf("fixtures not found (%v): they live beside the repository on developer machines", err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Canonicalize(src, Options{Strict: true}); err != nil {
			b.Fatal(err)
		}
	}
}
