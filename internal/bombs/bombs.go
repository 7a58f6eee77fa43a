// Package bombs builds the hostile pack tarballs that the memory and time
// bounds of every reading command are measured on (issue 10, item 2): small
// compressed archives whose content costs gigabytes when held or parsed.
// It is used by tests and benchmarks only.
package bombs

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/tarball"
)

// repeat is an io.Reader of n bytes: open, then body repeated, then close.
type repeat struct {
	open, body, close string
	n, off            int64
	block             []byte // body repeated to at least 64 KiB
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	if r.block == nil {
		r.block = []byte(strings.Repeat(r.body, (64<<10)/len(r.body)+1))
	}
	i := 0
	closeAt := r.n - int64(len(r.close))
	for i < len(p) && r.off < r.n {
		switch {
		case r.off < int64(len(r.open)):
			p[i] = r.open[r.off]
			i++
			r.off++
		case r.off >= closeAt:
			p[i] = r.close[r.off-closeAt]
			i++
			r.off++
		default:
			start := (r.off - int64(len(r.open))) % int64(len(r.body))
			k := copy(p[i:], r.block[start:int64(len(r.block))-int64(len(r.body))+start])
			k = int(min(int64(k), closeAt-r.off))
			i += k
			r.off += int64(k)
		}
	}
	return i, nil
}

// NumberArray is an entry holding a JSON array of "0" numbers of exactly
// size bytes (size >= 3): about size/2 JSON nodes.
func NumberArray(name string, size int64) tarball.Entry {
	return tarball.Entry{Name: name, Size: size, Open: func() (io.ReadCloser, error) {
		// "[0" + ",0"*k + "]": pad with spaces before "]" to reach size exactly.
		k := (size - 3) / 2
		pad := size - 3 - 2*k
		return io.NopCloser(&repeat{open: "[0", body: ",0", close: strings.Repeat(" ", int(pad)) + "]", n: size}), nil
	}}
}

// Filler is an entry of size bytes of one repeated byte.
func Filler(name string, size int64, c byte) tarball.Entry {
	return tarball.Entry{Name: name, Size: size, Open: func() (io.ReadCloser, error) {
		return io.NopCloser(&repeat{body: string(c), n: size}), nil
	}}
}

// Bytes is an entry holding b.
func Bytes(name string, b []byte) tarball.Entry {
	return tarball.Entry{Name: name, Size: int64(len(b)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	}}
}

// Manifest is a node pack.json whose nodes reference every schema in refs
// as input schema, signed manually (signatureRef keys/pack.json.sig).
func Manifest(refs []string) []byte {
	var nodes []string
	for i, r := range refs {
		nodes = append(nodes, fmt.Sprintf(`{"typeId":"vendor.bomb.x.n%d","version":"1.0.0","label":"N%d","category":"utility","role":"transform","description":"d","inputSchemaRef":%q}`, i, i, r))
	}
	return []byte(`{"name":"vendor.bomb.x","version":"1.0.0","description":"bomb","license":"MIT","author":"a",` +
		`"engines":{"openwop":">=1.0.0 <2.0.0"},"runtime":{"language":"javascript","entry":"./index.mjs","format":"esm"},` +
		`"signing":{"method":"manual","publicKeyRef":"k-1","signatureRef":"keys/pack.json.sig"},` +
		`"nodes":[` + strings.Join(nodes, ",") + `]}`)
}

// Schemas is the tarball issue 10 describes for validate: n JSON files of
// size bytes each, flat arrays of numbers, referenced by pack.json
// (63 x 16 MiB compresses to about 1 MB).
func Schemas(w io.Writer, n int, size int64) error {
	var refs []string
	var entries []tarball.Entry
	for i := range n {
		name := fmt.Sprintf("schemas/s%04d.json", i)
		refs = append(refs, name)
		entries = append(entries, NumberArray(name, size))
	}
	entries = append(entries, Bytes("pack.json", Manifest(refs)), Bytes("index.mjs", []byte("export const nodes = {};\n")))
	return tarball.Write(w, entries, tarball.WriteOptions{Level: 1})
}

// BigEntry is the tarball issue 10 describes for inspect: one entry of size
// bytes (400 MiB compresses to about 400 KB).
func BigEntry(w io.Writer, size int64) error {
	entries := []tarball.Entry{Bytes("pack.json", Manifest(nil)), Filler("evals/big.jsonl", size, 'x')}
	return tarball.Write(w, entries, tarball.WriteOptions{Level: 1})
}

// Sigs is the tarball issue 10 describes for verify: n entries x/NNNN.sig of
// size bytes each (1,000 x 1 MiB compresses to about 1 MB).
func Sigs(w io.Writer, n int, size int64) error {
	entries := []tarball.Entry{Bytes("pack.json", Manifest(nil))}
	for i := range n {
		entries = append(entries, Filler(fmt.Sprintf("x/%04d.sig", i), size, 'A'))
	}
	return tarball.Write(w, entries, tarball.WriteOptions{Level: 1})
}

// Peak runs f and returns the largest heap (live and not yet collected
// objects, runtime/metrics /memory/classes/heap/objects:bytes) seen while it
// ran, sampled every millisecond, and how long f took.
func Peak(f func()) (peak uint64, took time.Duration) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var p uint64
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := read(); v > p {
				p = v
			}
			select {
			case <-done:
				result <- p
				return
			case <-t.C:
			}
		}
	}()
	start := time.Now()
	f()
	took = time.Since(start)
	close(done)
	peak = <-result
	if peak < base {
		return 0, took
	}
	return peak - base, took
}
