package pack

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// benchContent is BenchmarkPack's runtime artifact: 32 MiB alternating
// 1 MiB of JavaScript-like text and 1 MiB of random bytes.
func benchContent() []byte {
	rng := rand.NewChaCha8([32]byte{1})
	text := []byte("export function greet(ctx) { return { status: \"success\", outputs: { greeting: `hello ${ctx.inputs.name}` } } }\n")
	out := make([]byte, 32<<20)
	for i := range 32 {
		chunk := out[i<<20 : (i+1)<<20]
		if i%2 == 0 {
			for j := range chunk {
				chunk[j] = text[(j+i)%len(text)] ^ byte(j>>12&1)
			}
		} else {
			rng.Read(chunk)
		}
	}
	return out
}

// BenchmarkScanSecrets is the secret scan alone over BenchmarkPack's
// artifact (the part of pack this package's scan costs).
func BenchmarkScanSecrets(b *testing.B) {
	data := benchContent()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if what, err := scanPrivateKey(bytes.NewReader(data)); what != "" || err != nil {
			b.Fatal(what, err)
		}
	}
}
