package termsafe

import (
	"io"
	"os"
)

// TrimWriter writes what it is given to w without the spaces that end a
// line: help laid out in columns pads every line to the terminal's width,
// which a reader of a pipe or a log sees as trailing blanks. Spaces are
// held back until the next byte shows whether a line goes on; an ANSI
// escape sequence (a style reset) among them is kept, the spaces dropped.
// The spaces still held when the output ends are trailing too: dropped.
type TrimWriter struct {
	w       io.Writer
	pending []byte // spaces and escape sequences not written yet
	inEsc   bool   // inside an escape sequence held in pending
}

// NewTrimWriter returns a TrimWriter writing to w.
func NewTrimWriter(w io.Writer) *TrimWriter { return &TrimWriter{w: w} }

// Write implements io.Writer; it reports len(p) written unless w fails.
func (t *TrimWriter) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p)+len(t.pending))
	for _, c := range p {
		switch {
		case t.inEsc:
			t.pending = append(t.pending, c)
			if c >= 0x40 && c <= 0x7e && c != '[' {
				t.inEsc = false
			}
		case c == ' ':
			t.pending = append(t.pending, c)
		case c == 0x1b && len(t.pending) > 0:
			t.pending = append(t.pending, c)
			t.inEsc = true
		case c == '\n' || c == '\r':
			out = appendEscapes(out, t.pending)
			t.pending = t.pending[:0]
			out = append(out, c)
		default:
			out = append(out, t.pending...)
			t.pending = t.pending[:0]
			out = append(out, c)
		}
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// appendEscapes appends the escape sequences of held, without its spaces.
func appendEscapes(out, held []byte) []byte {
	esc := false
	for _, c := range held {
		switch {
		case c == 0x1b:
			esc = true
			out = append(out, c)
		case esc:
			out = append(out, c)
			if c >= 0x40 && c <= 0x7e && c != '[' {
				esc = false
			}
		}
	}
	return out
}

// TrimFile is a TrimWriter on a file that still tells what it writes to:
// it has the file's Fd, so that a colour profile is detected as on the
// file itself (a terminal keeps its colours).
type TrimFile struct {
	*TrimWriter
	f *os.File
}

// NewTrimFile returns a TrimFile writing to f.
func NewTrimFile(f *os.File) *TrimFile { return &TrimFile{TrimWriter: NewTrimWriter(f), f: f} }

// Fd returns the file's descriptor.
func (t *TrimFile) Fd() uintptr { return t.f.Fd() }

// Read reads from the file.
func (t *TrimFile) Read(p []byte) (int, error) { return t.f.Read(p) }

// Close closes nothing: the file belongs to the caller.
func (t *TrimFile) Close() error { return nil }
