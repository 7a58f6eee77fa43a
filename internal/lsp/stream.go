package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// MaxMessage bounds one JSON-RPC message the server reads: a document at
// validate's limit (16 MiB) with every byte escaped fits. A larger message
// is skipped, not read into memory; the server tells the client so.
const MaxMessage = 128 << 20

// maxMessage is MaxMessage (tests lower it).
var maxMessage int64 = MaxMessage

// tooLargeMethod is the notification the stream hands the server in place
// of a message it skipped.
const tooLargeMethod = "$/wopkit/messageTooLarge"

// stream is jsonrpc2's header-framed stream (Content-Length, the LSP base
// protocol) with a bound on the message size: jsonrpc2.NewStream allocates
// whatever length a header claims, up to 2 GiB.
type stream struct {
	in  *bufio.Reader
	out io.Writer
	c   io.Closer
	mu  sync.Mutex
}

func newStream(r io.Reader, w io.Writer, c io.Closer) *stream {
	return &stream{in: bufio.NewReaderSize(r, 64<<10), out: w, c: c}
}

// Read reads the next message.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	var total, length int64 = 0, -1
	for {
		line, err := s.headerLine()
		total += int64(len(line))
		if err != nil {
			return nil, total, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, total, fmt.Errorf("invalid header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return nil, total, fmt.Errorf("invalid Content-Length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, total, fmt.Errorf("missing Content-Length header")
	}
	if length > maxMessage {
		if _, err := io.CopyN(io.Discard, s.in, length); err != nil {
			return nil, total, fmt.Errorf("skipping a message of %d bytes: %w", length, err)
		}
		total += length
		n, err := jsonrpc2.NewNotification(tooLargeMethod, map[string]int64{"bytes": length})
		return n, total, err
	}
	data := make([]byte, length)
	if _, err := io.ReadFull(s.in, data); err != nil {
		return nil, total, fmt.Errorf("reading a message: %w", err)
	}
	total += length
	msg, err := jsonrpc2.DecodeMessage(data)
	if err != nil {
		// Not a JSON-RPC message: skip it rather than end the session.
		n, nerr := jsonrpc2.NewNotification(tooLargeMethod, map[string]any{"bytes": length, "error": err.Error()})
		if nerr != nil {
			return nil, total, err
		}
		return n, total, nil
	}
	return msg, total, nil
}

// maxHeaderLine bounds one header line, its end included.
const maxHeaderLine = 4096

// headerLine reads one header line, up to and with its '\n': it stops at
// maxHeaderLine bytes, so a line without an end costs at most that much
// memory (and reading), not all the client sends.
func (s *stream) headerLine() (string, error) {
	var b strings.Builder
	for b.Len() < maxHeaderLine {
		c, err := s.in.ReadByte()
		if err != nil {
			return b.String(), fmt.Errorf("reading a header: %w", err)
		}
		b.WriteByte(c)
		if c == '\n' {
			return b.String(), nil
		}
	}
	return b.String(), fmt.Errorf("header line longer than %d bytes", maxHeaderLine)
}

// Write writes one message with its header.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling a message: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n", len(data))
	if err != nil {
		return int64(n), err
	}
	m, err := s.out.Write(data)
	return int64(n + m), err
}

// Close closes the connection.
func (s *stream) Close() error {
	if s.c != nil {
		return s.c.Close()
	}
	return nil
}
