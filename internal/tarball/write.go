package tarball

import (
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/werr"
)

// Write sorts entries byte-wise by name and writes the gzip'd tar stream in
// the registry's exact layout. Compression runs on opts.Concurrency workers
// (see newParallelGzip); memory use does not grow with entry sizes.
func Write(w io.Writer, entries []Entry, opts WriteOptions) error {
	level := opts.Level
	if level == 0 {
		level = DefaultLevel
	}
	if level < 1 || level > 9 {
		return werr.New(werr.Usage, CodeBadOptions, "gzip level %d is out of range", opts.Level).
			WithHint("use a level from 1 (fastest) to 9 (smallest)")
	}
	conc := opts.Concurrency
	if conc <= 0 {
		conc = runtime.GOMAXPROCS(0)
	}
	sorted, err := sortEntries(entries)
	if err != nil {
		return err
	}
	zw := newParallelGzip(w, level, conc)
	if err := writeTar(zw, sorted); err != nil {
		zw.Abort()
		return err
	}
	if err := zw.Close(); err != nil {
		return writeErr(err)
	}
	return nil
}

// WriteTar writes the uncompressed tar stream (the same bytes as inside
// Write's gzip).
func WriteTar(w io.Writer, entries []Entry) error {
	sorted, err := sortEntries(entries)
	if err != nil {
		return err
	}
	return writeTar(w, sorted)
}

// sortEntries checks names and sizes and returns a byte-wise sorted copy.
func sortEntries(entries []Entry) ([]Entry, error) {
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	folded := collisions{}
	for i, e := range sorted {
		if len(e.Name) > maxNameLen {
			return nil, invalid(CodeNameTooLong, "file name %q is %d bytes, more than the %d a pack tarball allows", e.Name, len(e.Name), maxNameLen).
				WithHint("shorten the path or move the file nearer the pack root: the registry accepts no PAX or GNU long names")
		}
		if err := checkName(e.Name); err != nil {
			return nil, err
		}
		if i > 0 && sorted[i-1].Name == e.Name {
			return nil, invalid(CodeDuplicateEntry, "file %q is listed twice", e.Name).
				WithHint("give each file once")
		}
		if err := folded.add(e.Name); err != nil {
			return nil, err
		}
		if e.Size < 0 || e.Size > maxOctal11 {
			return nil, invalid(CodeTooLarge, "file %q has size %d, outside 0..%d that a USTAR header holds", e.Name, e.Size, int64(maxOctal11)).
				WithHint("leave the file out of the pack")
		}
		if e.Open == nil {
			return nil, werr.New(werr.Env, CodeEntryChanged, "file %q has no Open function", e.Name).
				WithHint("this is a bug in the caller building the entry list")
		}
	}
	return sorted, nil
}

var zeroBlocks [2 * blockSize]byte

// writeTar writes already-sorted entries, streaming each body.
func writeTar(w io.Writer, sorted []Entry) error {
	var hdr [blockSize]byte
	buf := make([]byte, 64<<10)
	for _, e := range sorted {
		encodeHeader(&hdr, e.Name, e.Size)
		if _, err := w.Write(hdr[:]); err != nil {
			return writeErr(err)
		}
		if err := copyBody(w, e, buf); err != nil {
			return err
		}
		if pad := (blockSize - e.Size%blockSize) % blockSize; pad > 0 {
			if _, err := w.Write(zeroBlocks[:pad]); err != nil {
				return writeErr(err)
			}
		}
	}
	if _, err := w.Write(zeroBlocks[:]); err != nil {
		return writeErr(err)
	}
	return nil
}

// copyBody copies exactly e.Size bytes of e through buf and checks nothing
// follows.
func copyBody(w io.Writer, e Entry, buf []byte) error {
	rc, err := e.Open()
	if err != nil {
		return werr.Wrap(werr.Env, "io_error", err, "cannot open %q for packing", e.Name).
			WithHint("check the file exists and is readable")
	}
	defer rc.Close()
	n, err := io.CopyBuffer(markWriter{w}, io.LimitReader(rc, e.Size), buf)
	if err == nil && n < e.Size {
		err = io.EOF
	}
	var we *writeError
	switch {
	case errors.As(err, &we):
		return writeErr(we.err)
	case err == io.EOF:
		return werr.New(werr.Env, CodeEntryChanged, "file %q shrank while packing: %d bytes read, %d expected", e.Name, n, e.Size).
			WithHint("do not modify the pack while it is being packed, then pack again")
	case err != nil:
		return werr.Wrap(werr.Env, "io_error", err, "cannot read %q for packing", e.Name).
			WithHint("check the file is readable")
	}
	var one [1]byte
	if m, _ := io.ReadFull(rc, one[:]); m > 0 {
		return werr.New(werr.Env, CodeEntryChanged, "file %q grew while packing: more than the %d bytes expected", e.Name, e.Size).
			WithHint("do not modify the pack while it is being packed, then pack again")
	}
	return nil
}

// writeError marks an error from the destination, as opposed to the source.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

func writeErr(err error) error {
	var we *werr.Error
	if errors.As(err, &we) {
		return err
	}
	return werr.Wrap(werr.Env, "io_error", err, "cannot write the tarball").
		WithHint("check the destination has space and is writable")
}

// markWriter tags the destination's errors so copyBody can tell them from
// read errors.
type markWriter struct{ w io.Writer }

func (m markWriter) Write(p []byte) (int, error) {
	n, err := m.w.Write(p)
	if err != nil {
		err = &writeError{err}
	}
	return n, err
}
