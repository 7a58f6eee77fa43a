package tarball

import (
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkIncompressible is the stored-or-compressed decision on 64 KiB
// chunks of text and of random bytes (it reads every byte written).
func BenchmarkIncompressible(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, pgzChunk)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	text := []byte(strings.Repeat("the pack node agent schema, ", pgzChunk/28+1))[:pgzChunk]
	for _, c := range []struct {
		name string
		in   []byte
		want bool
	}{{"text", text, false}, {"random", random, true}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			for b.Loop() {
				if incompressible(c.in) != c.want {
					b.Fatal("wrong decision")
				}
			}
		})
	}
}

// BenchmarkParallelGzip compresses 32 MiB of mixed text and random bytes,
// and 32 MiB of one repeated JSON value (the bombs' content), at level 1
// and 6 on one core.
func BenchmarkParallelGzip(b *testing.B) {
	mixed := mixedData(rand.New(rand.NewPCG(3, 4)), 32<<20)
	repeated := []byte(strings.Repeat(",0", 16<<20))
	for _, c := range []struct {
		name  string
		in    []byte
		level int
	}{{"mixed-6", mixed, 6}, {"repeated-1", repeated, 1}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			for b.Loop() {
				z := newParallelGzip(io.Discard, c.level, 1)
				z.Write(c.in)
				if err := z.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestIncompressibleMatchesEntropy: the four-table byte count decides as
// the plain order-0 entropy does, on lengths around the table width and
// the 4096-byte floor, and on data from nearly constant to random.
func TestIncompressibleMatchesEntropy(t *testing.T) {
	t.Parallel()
	plain := func(b []byte) bool {
		if len(b) < 4096 {
			return false
		}
		var hist [256]int
		for _, c := range b {
			hist[c]++
		}
		n := float64(len(b))
		var h float64
		for _, c := range hist {
			if c > 0 {
				p := float64(c) / n
				h -= p * math.Log2(p)
			}
		}
		return h > entropyMax
	}
	r := rand.New(rand.NewPCG(5, 6))
	seen := map[bool]int{}
	for _, n := range []int{0, 1, 4095, 4096, 4097, 4098, 4099, 8191, pgzChunk - 1, pgzChunk} {
		for _, alphabet := range []int{1, 2, 200, 230, 240, 250, 256} {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(alphabet))
			}
			got, want := incompressible(b), plain(b)
			if got != want {
				t.Errorf("%d bytes of %d values: incompressible = %v, the plain entropy says %v", n, alphabet, got, want)
			}
			seen[want]++
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("the inputs only cover one decision: %v", seen)
	}
}
