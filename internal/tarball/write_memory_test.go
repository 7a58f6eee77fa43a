package tarball

import (
	"bytes"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/werr"
)

// cycleReader yields n bytes by cycling over buf.
type cycleReader struct {
	buf []byte
	off int
	n   int64
}

func (c *cycleReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(int64(len(p)), c.n)], c.buf[c.off:])
	c.off = (c.off + k) % len(c.buf)
	c.n -= int64(k)
	return k, nil
}

// TestWriteConstantMemory streams one 192 MiB entry and checks the heap
// stays far below the entry size: Write never holds an entry in memory.
func TestWriteConstantMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 192 MiB")
	}
	pattern := mixedData(rand.New(rand.NewPCG(9, 10)), 3<<20+17)
	const size = 192 << 20
	e := Entry{Name: "big.bin", Size: size, Open: func() (io.ReadCloser, error) {
		return io.NopCloser(&cycleReader{buf: pattern, n: size}), nil
	}}
	// The heap in use counts garbage not collected yet; on a loaded machine
	// the collector runs late and a constant-memory stream looked like growth
	// (seen once: 40 MiB). A lower GC percent keeps garbage near the live
	// heap, which is what the test is about: an entry buffered whole would
	// still be 192 MiB.
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	})
	var out countW
	err := Write(&out, []Entry{e, memEntry("pack.json", []byte("{}"))}, WriteOptions{Concurrency: 2, Level: 6}) // memory, not the level, is under test
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	grew := int64(peak.Load()) - int64(base.HeapInuse)
	t.Logf("entry %d MiB, output %d MiB, peak heap growth %.1f MiB", size>>20, out.n>>20, float64(grew)/(1<<20))
	if grew > 40<<20 {
		t.Errorf("heap grew by %d MiB while streaming a %d MiB entry", grew>>20, size>>20)
	}
}

type countW struct{ n int64 }

func (c *countW) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// TestWriteDeterministic: the output bytes do not depend on the number of
// workers or on the order of the entries.
func TestWriteDeterministic(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	es := []Entry{memEntry("pack.json", []byte(`{"a":1}`)), memEntry("b.bin", mixedData(r, 3<<20+5)), memEntry("a.txt", []byte("hello"))}
	var first []byte
	for i, conc := range []int{1, 2, 5} {
		var buf bytes.Buffer
		if i == 2 {
			es[0], es[2] = es[2], es[0]
		}
		if err := Write(&buf, es, WriteOptions{Concurrency: conc}); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = buf.Bytes()
		} else if !bytes.Equal(first, buf.Bytes()) {
			t.Fatalf("concurrency %d gives different bytes", conc)
		}
	}
}

// TestReadAllDoesNotTrustSizes: a tiny archive whose header claims a 400 MiB
// entry is refused as truncated without allocating anything like 400 MiB.
func TestReadAllDoesNotTrustSizes(t *testing.T) {
	tgz := gz(file("pack.json", "{}"), testHeader("big.bin", '0', 400<<20), []byte("only this"))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadAll(bytes.NewReader(tgz), Scaled(1000)) // limits that let the header's size through
	runtime.ReadMemStats(&after)
	if werr.CodeOf(err) != CodeCorrupt {
		t.Fatalf("error = %v, want %s", err, CodeCorrupt)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d MiB for a %d-byte archive", alloc>>20, len(tgz))
	}
}
