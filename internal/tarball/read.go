package tarball

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"

	"github.com/openwop/wopkit/internal/werr"
)

// Readers are pooled: each holds tens of KB that Walk would otherwise
// allocate and clear per tarball.
var (
	bufPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 16<<10) }}
	gzPool  sync.Pool
)

// maxTrailer bounds the zero bytes accepted after the end-of-archive marker
// (GNU tar pads to 10 KiB records; 1 MiB allows any blocking factor in use).
const maxTrailer = 1 << 20

// Walk streams a .tgz, calling fn for each regular file after its header
// passed every safety check; body yields exactly the entry's content.
// Directory entries are accepted and skipped. Before fn sees an offending
// entry Walk refuses, with these codes: tarball_corrupt (not gzip,
// truncated, bad header checksum, no end-of-archive marker, trailing bytes
// other than zero blocks), tarball_ambiguous_header (a header field other
// tar readers would read differently: see checkAmbiguous),
// tarball_path_traversal, tarball_unsafe_entry (links, devices, FIFOs, PAX
// or GNU extension headers, any typeflag other than '0', '\x00', '5'),
// tarball_unsafe_name, tarball_windows_name (a name Windows reads as
// another file or a device), tarball_name_collision,
// tarball_duplicate_entry (after stripping "./"; also a file that is also
// a directory) and tarball_too_large (naming the limit and the size). Decompressed bytes are counted as they are produced, so a
// gzip bomb is refused in bounded memory and time. An error returned by fn
// stops the walk and is returned as is.
func Walk(r io.Reader, lim Limits, fn func(h Header, body io.Reader) error) error {
	return walk(r, lim, fn, nil)
}

// walk is Walk also calling onDir, when not nil, for each directory entry
// (the differential tests compare directories too).
func walk(r io.Reader, lim Limits, fn func(h Header, body io.Reader) error, onDir func(h Header)) error {
	cr := &countReader{r: r, limit: lim.MaxCompressed, what: "compressed tarball"}
	br := bufPool.Get().(*bufio.Reader)
	br.Reset(cr)
	defer func() { br.Reset(nil); bufPool.Put(br) }()
	zr, _ := gzPool.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(br)
	} else {
		err = zr.Reset(br)
	}
	if err != nil {
		return readErr(cr, err, "not a gzip stream")
	}
	defer func() { zr.Close(); gzPool.Put(zr) }()
	// The decompressed stream may exceed the entries' sizes by headers and
	// padding (at most 1 KiB per entry) and the trailer.
	streamLimit := int64(0)
	if lim.MaxUnpacked > 0 {
		entries := lim.MaxEntries
		if entries <= 0 {
			entries = DefaultLimits.MaxEntries
		}
		streamLimit = lim.MaxUnpacked + int64(entries+1)*2*blockSize + maxTrailer
	}
	ur := &countReader{r: zr, limit: streamLimit, what: "decompressed tar stream"}
	w := &walker{lim: lim, src: ur, cr: cr, seen: map[string]bool{}, dirs: map[string]bool{}, folded: collisions{}, onDir: onDir}
	return w.run(fn)
}

type walker struct {
	lim      Limits
	src      *countReader // decompressed
	cr       *countReader // compressed, for error attribution
	seen     map[string]bool
	dirs     map[string]bool // every directory implied by a file or entry
	folded   collisions      // names by their case-folded NFC spelling
	unpacked int64
	entries  int
	onDir    func(h Header)
	skipper  io.LimitedReader // skip's reader, reused
}

func (w *walker) run(fn func(h Header, body io.Reader) error) error {
	var blk [blockSize]byte
	var raw rawHeader
	// One body reader serves every entry in turn: fn reads an entry's
	// body only while it runs.
	body := &bodyReader{lr: io.LimitedReader{R: w.src}, w: w}
	for index := 0; ; index++ {
		if err := w.full(blk[:], "a header"); err != nil {
			return err
		}
		if blk == [blockSize]byte{} {
			return w.trailer()
		}
		if err := decodeHeader(&blk, index, &raw); err != nil {
			return err
		}
		h, err := w.check(&raw)
		if err != nil {
			return err
		}
		if h.Dir {
			if w.onDir != nil {
				w.onDir(h)
			}
			continue
		}
		body.lr.N, body.name = h.Size, h.Name
		if err := fn(h, body); err != nil {
			return err
		}
		if body.lr.N > 0 {
			if err := w.skip(body.lr.N, h.Name); err != nil {
				return err
			}
		}
		if pad := (blockSize - h.Size%blockSize) % blockSize; pad > 0 {
			if _, err := io.ReadFull(w.src, blk[:pad]); err != nil {
				return w.streamErr(err, "padding of "+h.Name)
			}
		}
	}
}

// check applies every safety rule to a header and returns the cleaned one.
func (w *walker) check(raw *rawHeader) (Header, error) {
	w.entries++
	if w.lim.MaxEntries > 0 && w.entries > w.lim.MaxEntries {
		return Header{}, tooLarge("the archive has more than %d entries, the limit", w.lim.MaxEntries)
	}
	var dir bool
	switch raw.typeflag {
	case typeReg, typeRegOld:
	case typeDir:
		dir = true
	default:
		return Header{}, invalid(CodeUnsafeEntry, "entry %q is %s, which a pack tarball may not contain", raw.name, typeName(raw.typeflag)).
			WithHint("packs hold regular files only: rebuild the archive with wopkit pack")
	}
	name := strings.TrimPrefix(raw.name, "./")
	if dir {
		if raw.size != 0 {
			// Tools disagree on whether such content exists: refuse rather
			// than read the archive differently from them.
			return Header{}, invalid(CodeCorrupt, "directory entry %q claims %d bytes of content", raw.name, raw.size).
				WithHint("the archive is malformed: rebuild it with wopkit pack")
		}
		name = strings.TrimSuffix(name, "/")
		if name == "" || name == "." { // the root directory itself
			return Header{Name: "", Mode: raw.mode, Dir: true}, nil
		}
	} else if raw.typeflag == typeRegOld && strings.HasSuffix(name, "/") {
		return Header{}, invalid(CodeUnsafeEntry, "entry %q is an old-style directory with a type of regular file", raw.name).
			WithHint("rebuild the archive with wopkit pack")
	}
	if err := checkName(name); err != nil {
		return Header{}, err
	}
	if w.seen[name] || (!dir && w.dirs[name]) {
		return Header{}, invalid(CodeDuplicateEntry, "entry %q appears twice in the archive (after removing any \"./\" prefix)", name).
			WithHint("the archive is ambiguous: which copy is meant depends on the tool; rebuild it with wopkit pack")
	}
	for i := strings.IndexByte(name, '/'); i >= 0; i = next(name, i) {
		parent := name[:i]
		if w.seen[parent] && !w.dirs[parent] {
			return Header{}, invalid(CodeDuplicateEntry, "entry %q lies under %q, which is a file in the same archive", name, parent).
				WithHint("the archive is ambiguous: rebuild it with wopkit pack")
		}
		w.dirs[parent] = true
	}
	if err := w.folded.add(name); err != nil {
		return Header{}, err
	}
	w.seen[name] = true
	if dir {
		w.dirs[name] = true
		return Header{Name: name, Mode: raw.mode, Dir: true}, nil
	}
	size := raw.size
	switch {
	case size < 0:
		return Header{}, invalid(CodeCorrupt, "entry %q has a negative size", name).WithHint("the file is damaged: rebuild or re-download it")
	case name == ManifestName && w.lim.MaxManifest > 0 && size > w.lim.MaxManifest:
		return Header{}, tooLarge("pack.json is %s, more than the %s limit", fmtBytes(size), fmtBytes(w.lim.MaxManifest))
	case w.lim.MaxEntry > 0 && size > w.lim.MaxEntry:
		return Header{}, tooLarge("entry %q is %s, more than the %s per-entry limit", name, fmtBytes(size), fmtBytes(w.lim.MaxEntry))
	case w.lim.MaxUnpacked > 0 && w.unpacked+size > w.lim.MaxUnpacked:
		return Header{}, tooLarge("entry %q brings the unpacked size to %s, more than the %s limit", name, fmtBytes(w.unpacked+size), fmtBytes(w.lim.MaxUnpacked))
	}
	w.unpacked += size
	return Header{Name: name, Size: size, Mode: raw.mode}, nil
}

func next(name string, i int) int {
	j := strings.IndexByte(name[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// trailer checks that only zero bytes follow the first end-of-archive block.
func (w *walker) trailer() error {
	var buf [4096]byte
	var total int64
	for {
		n, err := w.src.Read(buf[:])
		for _, c := range buf[:n] {
			if c != 0 {
				return invalid(CodeCorrupt, "non-zero bytes after the end-of-archive marker").
					WithHint("the file has trailing garbage: rebuild or re-download it")
			}
		}
		total += int64(n)
		if total > maxTrailer {
			return tooLarge("more than %s of zero padding after the end-of-archive marker", fmtBytes(maxTrailer))
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return w.streamErr(err, "the end of the archive")
		}
	}
}

// full reads exactly len(b) bytes of the tar stream.
func (w *walker) full(b []byte, what string) error {
	if _, err := io.ReadFull(w.src, b); err != nil {
		return w.streamErr(err, what)
	}
	return nil
}

// skip discards n bytes of the tar stream.
func (w *walker) skip(n int64, name string) error {
	// io.CopyN, with the walker's own limited reader (CopyN makes one per
	// call).
	w.skipper = io.LimitedReader{R: w.src, N: n}
	written, err := io.Copy(io.Discard, &w.skipper)
	if err == nil && written < n {
		err = io.EOF
	}
	if err != nil {
		return w.streamErr(err, "the content of "+name)
	}
	return nil
}

// streamErr classifies an error from the decompressed stream.
func (w *walker) streamErr(err error, what string) error {
	var we *werr.Error
	if errors.As(err, &we) {
		return err
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return invalid(CodeCorrupt, "the archive is truncated: it ends inside %s, before the end-of-archive marker", what).
			WithHint("the download or write was cut short: fetch or build the tarball again")
	}
	return readErr(w.cr, err, "cannot decompress "+what)
}

// readErr turns a gzip or source error into a werr.Error.
func readErr(cr *countReader, err error, msg string) error {
	var we *werr.Error
	if errors.As(err, &we) {
		return err
	}
	if cr.srcErr != nil { // the underlying reader failed: an I/O problem
		return werr.Wrap(werr.Env, "io_error", cr.srcErr, "cannot read the tarball").
			WithHint("check the file is readable")
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return werr.Wrap(werr.Invalid, CodeCorrupt, err, "%s: the gzip stream is truncated", msg).
			WithHint("the download or write was cut short: fetch or build the tarball again")
	}
	return werr.Wrap(werr.Invalid, CodeCorrupt, err, "%s", msg).
		WithHint("the file is damaged or not a .tgz: rebuild or re-download it")
}

func tooLarge(format string, args ...any) *werr.Error {
	return invalid(CodeTooLarge, format, args...).
		WithHint("make the pack smaller, or if you trust this archive read it with larger limits")
}

// countReader counts bytes and fails once more than limit were read.
type countReader struct {
	r      io.Reader
	n      int64
	limit  int64 // 0: unlimited
	what   string
	srcErr error // a non-EOF error from r
}

func (c *countReader) Read(p []byte) (int, error) {
	if c.limit > 0 && c.n > c.limit {
		return 0, tooLarge("the %s exceeds the %s limit", c.what, fmtBytes(c.limit))
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		var we *werr.Error
		if !errors.As(err, &we) {
			c.srcErr = err
		}
	}
	if c.limit > 0 && c.n > c.limit {
		return n, tooLarge("the %s exceeds the %s limit", c.what, fmtBytes(c.limit))
	}
	return n, err
}

// bodyReader is the body handed to Walk's callback: it reports truncation
// as tarball_corrupt rather than a bare EOF.
type bodyReader struct {
	lr   io.LimitedReader
	w    *walker
	name string
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.lr.N <= 0 {
		return 0, io.EOF
	}
	n, err := b.lr.Read(p)
	if err == io.EOF && b.lr.N > 0 {
		return n, b.w.streamErr(io.ErrUnexpectedEOF, "the content of "+b.name)
	}
	if err != nil && err != io.EOF {
		return n, b.w.streamErr(err, "the content of "+b.name)
	}
	return n, err
}
