package pack

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPack packs a 32 MiB runtime artifact (alternating 1 MiB of text
// and of random bytes) plus the basic test pack; the whole-command figure
// against tar|gzip lives in testdata/bench-pack.sh.
func BenchmarkPack(b *testing.B) {
	dir := b.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/basic")); err != nil {
		b.Fatal(err)
	}
	const mb = 32
	f, err := os.Create(filepath.Join(dir, "index.mjs"))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.NewChaCha8([32]byte{1})
	text := []byte("export function greet(ctx) { return { status: \"success\", outputs: { greeting: `hello ${ctx.inputs.name}` } } }\n")
	chunk := make([]byte, 1<<20)
	for i := range mb {
		if i%2 == 0 {
			for j := range chunk {
				chunk[j] = text[(j+i)%len(text)] ^ byte(j>>12&1)
			}
		} else {
			rng.Read(chunk)
		}
		f.Write(chunk)
	}
	f.Close()
	out := filepath.Join(b.TempDir(), "o.tgz")
	b.SetBytes(mb << 20)
	for b.Loop() {
		if _, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate}); err != nil {
			b.Fatal(err)
		}
	}
}
