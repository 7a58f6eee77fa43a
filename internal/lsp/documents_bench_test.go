package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/fixtures"
)

// a2aPack unpacks core.openwop.a2a 1.1.0 (the largest published pack.json)
// into dir and returns its pack.json path and text.
func a2aPack(b testing.TB, dir string) (string, string) {
	b.Helper()
	fixtures.Untar(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), dir)
	pj := filepath.Join(dir, "pack.json")
	text, err := os.ReadFile(pj)
	if err != nil {
		b.Fatal(err)
	}
	return pj, string(text)
}

// BenchmarkChangeToDiagnosticsA2A measures, over the protocol as an editor
// sees it, the time from a didChange of core.openwop.a2a's pack.json to the
// publication of its diagnostics (schema, lint and its 51 referenced
// schemas read from disk). Target: median ≤ 25 ms. Reports the median.
func BenchmarkChangeToDiagnosticsA2A(b *testing.B) {
	dir := b.TempDir()
	pj, text := a2aPack(b, dir)
	c := startSession(b, dir, Options{})
	u := c.open(pj, text, 1)
	c.waitDiags(u, "v1", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 })
	// Each change edits the description, so every check is a real one.
	at := strings.Index(text, `"description": "`) + len(`"description": "`)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := int32(i + 2)
		next := text[:at] + fmt.Sprintf("edit %d ", i) + text[at:]
		start := time.Now()
		c.change(u, next, v)
		c.waitDiags(u, "the change", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == uint32(v) })
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
	c.stop()
}

// BenchmarkFiftyOpenDocuments opens 50 copies of core.openwop.a2a (each in
// its own pack directory) and reports the live heap after all are checked,
// above the heap of a session with none open. Target: ≤ 64 MiB.
func BenchmarkFiftyOpenDocuments(b *testing.B) {
	root := b.TempDir()
	var paths []string
	var text string
	for i := 0; i < 50; i++ {
		var p string
		p, text = a2aPack(b, filepath.Join(root, fmt.Sprintf("p%02d", i)))
		paths = append(paths, p)
	}
	for i := 0; i < b.N; i++ {
		c := startSession(b, root, Options{})
		// Warm the validator with one document, so the baseline includes
		// the compiled schemas every session has.
		u := c.open(paths[0], text, 1)
		c.waitDiags(u, "warm", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 })
		before := liveHeap()
		for _, p := range paths[1:] {
			u := c.open(p, text, 1)
			c.waitDiags(u, "open", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 })
		}
		after := liveHeap()
		b.ReportMetric(float64(after-before+perDoc(before, after))/(1<<20), "MiB/50docs")
		b.ReportMetric(float64(after)/(1<<20), "MiB-heap-total")
		c.stop()
	}
}

// perDoc adds back the one warm-up document's share (a 49th of the rest).
func perDoc(before, after uint64) uint64 {
	if after < before {
		return 0
	}
	return (after - before) / 49
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
