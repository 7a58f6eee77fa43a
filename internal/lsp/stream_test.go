package lsp

import (
	"context"
	"io"
	"strings"
	"testing"
)

// endlessLine is a client sending a header line that never ends: up to
// limit bytes of 'a', in reads of at most 512 bytes, counting what was
// taken from it.
type endlessLine struct{ taken, limit int }

func (e *endlessLine) Read(p []byte) (int, error) {
	if e.taken >= e.limit {
		return 0, io.EOF
	}
	n := min(len(p), 512, e.limit-e.taken)
	for i := range n {
		p[i] = 'a'
	}
	e.taken += n
	return n, nil
}

// TestHeaderLineBoundedWhileRead (issue 24, item 8): a header line without
// an end is refused after its first 4 KiB, not read whole first (a 600 MB
// line cost 1.26 GB of memory).
func TestHeaderLineBoundedWhileRead(t *testing.T) {
	t.Parallel()
	src := &endlessLine{limit: 64 << 20}
	s := newStream(src, io.Discard, io.NopCloser(nil))
	_, n, err := s.Read(context.Background())
	if err == nil || !strings.Contains(err.Error(), "header line longer than 4096 bytes") {
		t.Fatalf("err = %v, want the header line refused", err)
	}
	if src.taken > 4096+512 || n > 4096 {
		t.Errorf("read %d bytes from the client (%d counted) for a refused header line, want at most %d", src.taken, n, 4096+512)
	}
	// A well-formed message still reads, its length counted.
	const body = `{"jsonrpc":"2.0","method":"x"}`
	in := "Content-Length: 30\r\nContent-Type: x\r\n\r\n" + body
	s = newStream(strings.NewReader(in), io.Discard, io.NopCloser(nil))
	if msg, n, err := s.Read(context.Background()); err != nil || msg == nil || n != int64(len(in)) {
		t.Errorf("a well-formed message: %v, %d bytes (want %d), %v", msg, n, len(in), err)
	}
}
