package tarball

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"math"
	"sync"

	"github.com/klauspost/compress/flate"
)

const (
	pgzBlock   = 1 << 20 // input bytes per independently compressed block
	pgzDict    = 32 << 10
	pgzChunk   = 64 << 10 // unit of the stored-or-compressed decision
	storedMax  = 65535    // largest stored deflate block
	entropyMax = 7.8      // bits/byte above which a chunk is stored, not compressed
)

// parallelGzip is a pigz-style gzip writer: the input is cut into 1 MiB
// blocks compressed independently on several goroutines, each primed with
// the previous 32 KiB as dictionary and ended with a sync flush (the last
// one with a final block), and the raw deflate outputs are concatenated in
// order into ONE gzip member whose CRC-32 is combined from the blocks'
// CRCs. Chunks whose byte entropy shows they are incompressible are emitted
// as stored blocks without running the compressor. Memory is bounded by
// about 3 x concurrency blocks, whatever the input size. The gzip header
// has no name, mtime 0 and OS 255.
type parallelGzip struct {
	level int
	cur   []byte    // block being filled
	tail  []byte    // last 32 KiB of the previous block
	queue chan *job // blocks in order, consumed by the writer goroutine
	sem   chan struct{}
	done  chan struct{}
	err   error // first error of the writer goroutine; read after done
	errMu sync.Mutex
	pool  sync.Pool // input blocks
	outs  sync.Pool // output buffers (*bytes.Buffer), grown once to a block's worst case
}

type job struct {
	in, dict []byte
	last     bool
	out      *bytes.Buffer
	crc      uint32
	ready    chan struct{}
}

func newParallelGzip(w io.Writer, level, conc int) *parallelGzip {
	z := &parallelGzip{
		level: level,
		queue: make(chan *job, conc),
		sem:   make(chan struct{}, conc),
		done:  make(chan struct{}),
	}
	z.pool.New = func() any { b := make([]byte, 0, pgzBlock); return &b }
	z.outs.New = func() any { return new(bytes.Buffer) }
	z.cur = *z.pool.Get().(*[]byte)
	go z.writeLoop(w)
	return z
}

// Write buffers p into blocks and hands full blocks to the workers.
func (z *parallelGzip) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if err := z.failed(); err != nil {
			return n - len(p), err
		}
		k := min(len(p), pgzBlock-len(z.cur))
		z.cur = append(z.cur, p[:k]...)
		p = p[k:]
		if len(z.cur) == pgzBlock {
			z.dispatch(false)
		}
	}
	return n, nil
}

// Close compresses what is left, ends the stream and writes the trailer.
func (z *parallelGzip) Close() error {
	z.dispatch(true)
	close(z.queue)
	<-z.done
	return z.err
}

// Abort stops the writer goroutine without finishing the stream.
func (z *parallelGzip) Abort() {
	z.setErr(io.ErrClosedPipe)
	close(z.queue)
	<-z.done
}

func (z *parallelGzip) failed() error {
	z.errMu.Lock()
	defer z.errMu.Unlock()
	return z.err
}

func (z *parallelGzip) setErr(err error) {
	z.errMu.Lock()
	if z.err == nil {
		z.err = err
	}
	z.errMu.Unlock()
}

// dispatch starts compressing the current block.
func (z *parallelGzip) dispatch(last bool) {
	j := &job{in: z.cur, dict: z.tail, last: last, ready: make(chan struct{}), out: z.outs.Get().(*bytes.Buffer)}
	j.out.Reset()
	j.out.Grow(len(z.cur) + len(z.cur)>>6 + 64)
	nt := min(len(z.cur), pgzDict)
	if len(z.cur) < pgzDict && len(z.tail) > 0 { // short block: keep older history too
		nt = min(len(z.tail)+len(z.cur), pgzDict)
	}
	tail := make([]byte, 0, pgzDict)
	if nt > len(z.cur) {
		tail = append(tail, z.tail[len(z.tail)-(nt-len(z.cur)):]...)
		tail = append(tail, z.cur...)
	} else {
		tail = append(tail, z.cur[len(z.cur)-nt:]...)
	}
	z.tail = tail
	z.cur = (*z.pool.Get().(*[]byte))[:0]
	z.sem <- struct{}{}
	go func() {
		defer func() { <-z.sem }()
		j.crc = crc32.ChecksumIEEE(j.in)
		compressBlock(j.out, j.in, j.dict, z.level, j.last)
		close(j.ready)
	}()
	z.queue <- j
}

// writeLoop writes the header, each block's output in order, and the trailer.
func (z *parallelGzip) writeLoop(w io.Writer) {
	defer close(z.done)
	xfl := byte(0)
	switch z.level {
	case 9:
		xfl = 2
	case 1:
		xfl = 4
	}
	header := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255}
	write := func(b []byte) {
		if z.failed() != nil {
			return
		}
		if _, err := w.Write(b); err != nil {
			z.setErr(err)
		}
	}
	write(header)
	var crc uint32
	var size uint32
	for j := range z.queue {
		<-j.ready
		write(j.out.Bytes())
		crc = crc32Combine(crc, j.crc, int64(len(j.in)))
		size += uint32(len(j.in)) // ISIZE is the length modulo 2^32
		in := j.in[:0]
		z.pool.Put(&in)
		z.outs.Put(j.out)
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc)
	binary.LittleEndian.PutUint32(trailer[4:], size)
	write(trailer[:])
}

// compressBlock appends the raw deflate form of in to out, using dict as
// history. It ends with a sync flush, or with a final block when last.
// Runs of incompressible 64 KiB chunks become stored blocks.
func compressBlock(out *bytes.Buffer, in, dict []byte, level int, last bool) {
	for start := 0; start < len(in) || (start == 0 && last); {
		end, store := nextRun(in, start)
		seg := in[start:end]
		final := last && end == len(in)
		if store {
			writeStored(out, seg, final)
		} else {
			// History: the dict plus everything of this block before seg.
			hist := in[max(0, start-pgzDict):start]
			if len(hist) < pgzDict && len(dict) > 0 {
				need := min(pgzDict-len(hist), len(dict))
				hist = append(append(make([]byte, 0, pgzDict), dict[len(dict)-need:]...), hist...)
			}
			fw, _ := flate.NewWriterDict(out, level, hist) // level is checked by Write
			fw.Write(seg)                                  // bytes.Buffer never fails
			if final {
				fw.Close()
			} else {
				fw.Flush()
			}
		}
		if end == start { // empty final block written
			break
		}
		start = end
	}
}

// nextRun returns the end of the run of chunks starting at start that share
// one decision, and whether that run is to be stored.
func nextRun(in []byte, start int) (int, bool) {
	if start >= len(in) {
		return start, false
	}
	end := min(start+pgzChunk, len(in))
	store := incompressible(in[start:end])
	for end < len(in) {
		next := min(end+pgzChunk, len(in))
		if incompressible(in[end:next]) != store {
			break
		}
		end = next
	}
	return end, store
}

// incompressible estimates whether deflate would gain nothing on b, from
// its order-0 byte entropy.
func incompressible(b []byte) bool {
	if len(b) < 4096 {
		return false
	}
	// Four tables: consecutive equal bytes would otherwise wait on each
	// other's increment (a store-to-load chain), which made this count
	// a third of the cost of compressing repetitive input.
	var hist [4][256]uint32
	n := float64(len(b))
	for ; len(b) >= 4; b = b[4:] {
		hist[0][b[0]]++
		hist[1][b[1]]++
		hist[2][b[2]]++
		hist[3][b[3]]++
	}
	for _, c := range b {
		hist[0][c]++
	}
	var h float64
	for c := range 256 {
		if k := hist[0][c] + hist[1][c] + hist[2][c] + hist[3][c]; k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	return h > entropyMax
}

// writeStored appends b as stored deflate blocks at a byte boundary (every
// segment before ends with a flush, so the stream is byte-aligned here).
func writeStored(out *bytes.Buffer, b []byte, final bool) {
	for len(b) > 0 {
		n := min(len(b), storedMax)
		var h [5]byte
		if final && n == len(b) {
			h[0] = 1
		}
		binary.LittleEndian.PutUint16(h[1:], uint16(n))
		binary.LittleEndian.PutUint16(h[3:], ^uint16(n))
		out.Write(h[:])
		out.Write(b[:n])
		b = b[n:]
	}
}
