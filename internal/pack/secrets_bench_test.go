package pack

import (
	"bytes"
	gobuild "go/build"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// benchFiles reads up to limit bytes of Go's own sources, or skips.
func benchFiles(b *testing.B, limit int) (files [][]byte, names []string, total int) {
	root := filepath.Join(gobuild.Default.GOROOT, "src")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || total >= limit || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) > 5<<20 {
			return nil
		}
		files, names, total = append(files, data), append(names, p[len(root):]), total+len(data)
		return nil
	})
	if total == 0 {
		b.Skip("Go's sources are not installed (GOROOT/src)")
	}
	return files, names, total
}

// BenchmarkScanRealCode is the scan over 32 MiB of Go's own sources, each
// file with its budget: bytes/s, and the work a byte (the budget's unit).
func BenchmarkScanRealCode(b *testing.B) {
	files, names, total := benchFiles(b, 32<<20)
	b.SetBytes(int64(total))
	var work int64
	for b.Loop() {
		work = 0
		for i, f := range files {
			bud := newScanBudget()
			if _, err := scanSecrets(bytes.NewReader(f), names[i], bud); err != nil {
				b.Fatal(names[i], err)
			}
			work += bud.sc.Work
		}
	}
	b.ReportMetric(float64(work)/float64(total), "work/B")
}

// BenchmarkScanCrafted is the scan of issue 34's crafted file (2 MiB of
// the rules' keywords), the dearest text a byte: linear, under the budget.
func BenchmarkScanCrafted(b *testing.B) {
	data := craftedKeywords(b, 2<<20)
	b.SetBytes(int64(len(data)))
	var work int64
	for b.Loop() {
		bud := newScanBudget()
		if _, err := scanSecrets(bytes.NewReader(data), "words.txt", bud); err != nil {
			b.Fatal(err)
		}
		work = bud.sc.Work
	}
	b.ReportMetric(float64(work)/float64(len(data)), "work/B")
}
