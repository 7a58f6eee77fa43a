package tarball_test

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/tarball/benchtree"

	"github.com/openwop/wopkit/internal/fixtures"
)

// countWriter counts bytes written.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkWrite200MB packs a generated 200 MiB tree (half text, half
// random bytes) from disk. Compare with testdata/bench-vs-gzip.sh, which
// times tar | gzip -6 on the same tree.
func BenchmarkWrite200MB(b *testing.B) {
	dir := b.TempDir()
	if err := benchtree.Generate(dir, 200<<20, 1); err != nil {
		b.Fatal(err)
	}
	es, err := benchtree.Entries(dir)
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	for _, e := range es {
		total += e.Size
	}
	b.SetBytes(total)
	b.ResetTimer()
	var out countWriter
	cpu0, n := cpuTime(), 0
	for b.Loop() {
		out = countWriter{}
		if err := tarball.Write(&out, es, tarball.WriteOptions{Level: 6}); err != nil { // compared with gzip -6
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(out.n)/float64(total), "ratio")
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(n), "cpu-s/op")
}

// BenchmarkWalkRegistryPack reads each manual-signed registry pack (the
// largest, core.openwop.flow, has 79 files: 15 KB compressed, 134 KB of tar
// stream) and hashes the tarball (integrity) and every file with SHA-256,
// as verification does.
func BenchmarkWalkRegistryPack(b *testing.B) {
	tgzs := fixtures.Tarballs(b, "")
	for _, p := range tgzs {
		raw, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(filepath.Dir(filepath.Dir(p))), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			h := sha256.New()
			buf := make([]byte, 32<<10)
			cpu0, n := cpuTime(), 0
			for b.Loop() {
				n++
				sha256.Sum256(raw)
				err := tarball.Walk(bytes.NewReader(raw), tarball.RegistryLimits, func(hd tarball.Header, body io.Reader) error {
					h.Reset()
					_, err := io.CopyBuffer(h, body, buf)
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(n), "cpu-µs/op")
		})
	}
}
