package untrusted

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/openwop/wopkit/internal/safefile"
	"github.com/openwop/wopkit/internal/werr"
)

// The stable codes of a file the layer refuses to read.
const (
	CodeNotRegular  = safefile.CodeNotRegular // a FIFO, device, socket or directory
	CodeTooLarge    = "file_too_large"        // over the bound the caller gave
	CodeOutsideRoot = "path_outside_root"     // a name or link that leaves the root
)

// Dir is a directory of untrusted files (a pack, a registry checkout, the
// folder of a downloaded tarball), opened as an os.Root: no name and no
// symbolic link can reach outside it.
type Dir struct {
	root *os.Root
	path string

	mu   sync.Mutex
	subs map[string]*os.Root // kept directory handles (see sub)
	// direct opens every file by its whole path through the root, as
	// before directory handles were kept (the tests compare the two).
	direct bool
}

// OpenDir opens path as a root. The directory itself may be reached
// through a link (the user named it); nothing below it may leave it.
func OpenDir(path string) (*Dir, error) {
	if err := safefile.CheckDir(path); err != nil {
		return nil, err
	}
	return openDir(path)
}

// openDir is OpenDir without the check that path is not a named pipe (which
// would block the open): for the folder of a file just opened in it.
func openDir(path string) (*Dir, error) {
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Dir{root: r, path: path}, nil
}

// Close releases the root and the directory handles kept under it.
func (d *Dir) Close() error {
	d.closeSubs()
	return d.root.Close()
}

// Path is the directory as it was named.
func (d *Dir) Path() string { return d.path }

// OSRoot is the os.Root, for the write door (atomicfile.InDir), whose
// guard allows no other caller: writes into the tree go through the door.
func (d *Dir) OSRoot() *os.Root { return d.root }

// Join names rel (a slash path) inside the directory, for messages.
func (d *Dir) Join(rel string) string { return filepath.Join(d.path, filepath.FromSlash(rel)) }

// Stat stats rel inside the root, following links that stay inside it.
func (d *Dir) Stat(rel string) (fs.FileInfo, error) {
	fi, err := d.root.Stat(filepath.FromSlash(rel))
	return fi, d.pathErr(rel, err)
}

// Open opens the regular file rel (a slash path) of at most max bytes for
// reading: a missing file gives an error matching fs.ErrNotExist; a file
// that is not regular (checked before the open, which never blocks) gives
// file_not_regular; one over max gives file_too_large; a name or link that
// leaves the root gives path_outside_root.
func (d *Dir) Open(rel string, max int64) (*os.File, error) {
	f, _, err := d.open(rel, max)
	return f, err
}

// open is Open, also returning the size of the file opened.
func (d *Dir) open(rel string, max int64) (*os.File, int64, error) {
	if f, size, ok, err := d.openFast(rel, max); ok {
		return f, size, err
	}
	name := filepath.FromSlash(rel)
	fi, err := d.root.Stat(name)
	if err != nil {
		return nil, 0, d.pathErr(rel, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, safefile.NotRegular(d.Join(rel), fi.Mode())
	}
	if max >= 0 && fi.Size() > max {
		return nil, 0, tooLarge(d.Join(rel), fi.Size(), max)
	}
	f, err := d.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, d.pathErr(rel, err)
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = safefile.NotRegular(d.Join(rel), st.Mode())
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// ReadFile reads the regular file rel of at most max bytes (see Open).
func (d *Dir) ReadFile(rel string, max int64) ([]byte, error) {
	return d.readFileInto(rel, max, nil)
}

// readFileInto is ReadFile reading into into's array when it has room.
func (d *Dir) readFileInto(rel string, max int64, into []byte) ([]byte, error) {
	f, size, err := d.open(rel, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSizedInto(f, d.Join(rel), max, size, into)
}

// UseFile reads the regular file rel of at most max bytes as ReadFile
// does, with the same errors, and hands its bytes to use, whose error it
// returns. The bytes are valid only until use returns (their buffer is
// reused for the next file: a registry document read and decoded per
// version of a whole registry then allocates nothing to hold it); use must
// keep none of them (copy what it keeps: DecodeJSON does).
func (d *Dir) UseFile(rel string, max int64, use func(data []byte) error) error {
	bp := getReadBuf()
	data, err := d.readFileInto(rel, max, *bp)
	if err != nil {
		putReadBuf(bp)
		return err
	}
	err = use(data)
	*bp = data
	putReadBuf(bp)
	return err
}

// maxPooledRead is the largest buffer UseFile keeps for reuse: a registry
// document or a version manifest is a few KiB; a rare large file is read
// into a buffer of its own, left to the collector.
const maxPooledRead = 256 << 10

// readBufs holds UseFile's buffers.
var readBufs sync.Pool

func getReadBuf() *[]byte {
	if bp, ok := readBufs.Get().(*[]byte); ok {
		return bp
	}
	return new([]byte)
}

func putReadBuf(bp *[]byte) {
	if cap(*bp) > maxPooledRead {
		return
	}
	*bp = (*bp)[:0]
	readBufs.Put(bp)
}

// ReadJSON reads rel (at most max bytes) and decodes it with DecodeJSON;
// a refused document's error names the file, line and column.
func (d *Dir) ReadJSON(rel string, max int64, v any) error {
	data, err := d.ReadFile(rel, max)
	if err != nil {
		return err
	}
	return NameJSON(d.Join(rel), DecodeJSON(data, v))
}

// NameJSON puts the file's name in front of a DecodeJSON error
// ("path:line:col: ..."); nil stays nil.
func NameJSON(path string, err error) error {
	if err == nil {
		return nil
	}
	var we *werr.Error
	var je *JSONError
	if errors.As(err, &we) && errors.As(err, &je) {
		out := *we
		out.Msg = path + ":" + strconv.Itoa(je.Line) + ":" + strconv.Itoa(je.Column)
		out.Err = je
		return &out
	}
	if errors.As(err, &we) {
		out := *we
		out.Msg = path + ": " + we.Msg
		return &out
	}
	return err
}

// ReadFile reads one untrusted file named by the user (a signature or
// version manifest beside a tarball): the file's folder is the root, so the
// file must be a regular file in it, and a link that leaves the folder is
// refused. See Dir.Open for the errors.
func ReadFile(path string, max int64) ([]byte, error) {
	d, err := OpenDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadFile(filepath.Base(path), max)
}

func readBounded(r io.Reader, name string, max int64) ([]byte, error) {
	size := int64(-1)
	if f, ok := r.(*os.File); ok && max >= 0 {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	return readSized(r, name, max, size)
}

// readSized is readBounded of a file whose size, when known (not -1),
// sizes the buffer (io.ReadAll grows from 512 bytes, copying as it goes);
// the limit, not the size, bounds what is read.
func readSized(r io.Reader, name string, max, size int64) ([]byte, error) {
	return readSizedInto(r, name, max, size, nil)
}

// readSizedInto is readSized reading into into's array when it has room
// for the whole file (and a new one otherwise).
func readSizedInto(r io.Reader, name string, max, size int64, into []byte) ([]byte, error) {
	if max < 0 {
		return io.ReadAll(r)
	}
	size = min(size, max) + 1
	if int64(cap(into)) < size+bytes.MinRead {
		into = make([]byte, 0, size+bytes.MinRead)
	}
	buf := bytes.NewBuffer(into[:0])
	if _, err := buf.ReadFrom(io.LimitReader(r, max+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > max {
		return nil, tooLarge(name, -1, max)
	}
	return data, nil
}

// TooLarge is the error for a file name of size bytes (-1: it grew past
// max while it was read) over the limit max.
func TooLarge(name string, size, max int64) *werr.Error { return tooLarge(name, size, max) }

func tooLarge(name string, size, max int64) *werr.Error {
	if size < 0 {
		return werr.New(werr.Invalid, CodeTooLarge, "%s grew past %d bytes while it was read", name, max).
			WithHint("files are read up to the registry's limits; check what is writing to it")
	}
	return werr.New(werr.Invalid, CodeTooLarge, "%s is %d bytes, over the limit of %d", name, size, max).
		WithHint("the registry does not serve a file this large; it was not read")
}

// pathErr turns os.Root's refusal of a path that leaves the root into a
// path_outside_root error; other errors are returned as they are.
func (d *Dir) pathErr(rel string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return err
	}
	if strings.Contains(err.Error(), "escapes from parent") || strings.Contains(err.Error(), "path escapes") {
		// The os error ("statat x: path escapes from parent") says nothing
		// more to the user: left out of the message.
		return werr.New(werr.Invalid, CodeOutsideRoot, "%s leaves %s (a name with .. or a link pointing outside it)", d.Join(rel), d.path).
			WithHint("wopkit reads only files inside the directory it was given; replace the link with the file itself")
	}
	return err
}

// OpenNamed opens a file the user named on the command line (a tarball, a
// manifest): a link is followed, since the user chose the path, but it must
// end at a regular file (checked before the open, which never blocks on a
// FIFO) of at most max bytes (max < 0: no bound here, the reader bounds
// what it reads). Files found inside that file's folder or a pack are read
// with OpenDir or DirFS instead, never with OpenNamed.
func OpenNamed(path string, max int64) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, safefile.NotRegular(path, fi.Mode())
	}
	if max >= 0 && fi.Size() > max {
		return nil, tooLarge(path, fi.Size(), max)
	}
	return safefile.Open(path)
}

// ReadNamed reads a file the user named (see OpenNamed) of at most max
// bytes.
func ReadNamed(path string, max int64) ([]byte, error) {
	f, err := OpenNamed(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, path, max)
}

// OpenIn opens the regular file name inside root, a root the caller opened
// (pack walks a pack's directory through one): checked before the open,
// never blocking, never leaving the root. Errors as Dir.Open, without a
// size bound (the caller bounds what it reads).
func OpenIn(root *os.Root, name string) (*os.File, error) {
	return safefile.OpenIn(root, name)
}

// ReadFileIn reads at most max+1 bytes of the regular file name inside
// root (the caller compares the length with max).
func ReadFileIn(root *os.Root, name string, max int64) ([]byte, error) {
	return safefile.ReadFileIn(root, name, max)
}
