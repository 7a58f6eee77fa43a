package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"hash"
	"io"

	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// source is the tarball being verified: bytes already in memory (Bytes,
// publish) or a file (File), which is streamed once: read, hashed,
// inflated and checked in one pass, holding only the entries verification
// keeps (pack.json and the signature files), never the whole tarball.
type source struct {
	data []byte // in memory; nil for a file
	path string // the file, when data is nil
	lim  tarball.Limits
	// head is the file's first bytes, read by File to tell a JSON document
	// from a tarball; the stream starts with them and goes on with file,
	// open past them until the first walk.
	head []byte
	file io.ReadCloser
	// integrity is "sha256-<base64>" of the whole tarball, known once walk
	// has run (a file's bytes are hashed as they stream past).
	integrity string
}

// walk walks the whole tarball through the safe reader (so every hostile
// entry is refused), keeping in memory only the entries keep selects (see
// readArchive). The first walk of a file also hashes every byte of it,
// including any the walk did not read, whatever the walk's verdict.
func (s *source) walk(keep func(name string) bool, seen func(tarball.Header)) (*tarball.Archive, error) {
	if s.data != nil {
		if s.integrity == "" {
			s.integrity = integrityOf(s.data)
		}
		return readArchive(bytes.NewReader(s.data), s.lim, keep, seen)
	}
	if s.file == nil { // a second walk (an extra signature entry)
		f, err := openTarball(s.path, s.lim)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readArchive(f, s.lim, keep, seen)
	}
	f := s.file
	defer f.Close()
	s.file = nil
	max := compressedMax(s.lim)
	h := &countingHash{Hash: sha256.New()}
	in := io.TeeReader(io.MultiReader(bytes.NewReader(s.head), io.LimitReader(f, max+1-int64(len(s.head)))), h)
	a, err := readArchive(in, s.lim, keep, seen)
	_, drainErr := io.Copy(io.Discard, in)
	if drainErr == nil && h.n > max {
		drainErr = tarballReadErr(s.path, max, untrusted.TooLarge(s.path, -1, max))
	} else if drainErr != nil {
		drainErr = tarballReadErr(s.path, max, drainErr)
	}
	s.integrity = "sha256-" + base64.StdEncoding.EncodeToString(h.Sum(nil))
	if err == nil {
		err = drainErr
	}
	return a, err
}

// countingHash is a hash that counts the bytes written to it.
type countingHash struct {
	hash.Hash
	n int64
}

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.Hash.Write(p)
}

// bytes returns the whole tarball (the legacy method signs the .tgz): a
// file is read again.
func (s *source) bytes() ([]byte, error) {
	if s.data != nil {
		return s.data, nil
	}
	return readTarball(s.path, s.lim)
}

func integrityOf(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// compressedMax is the compressed size limit (1 TiB when there is none).
func compressedMax(lim tarball.Limits) int64 {
	if lim.MaxCompressed <= 0 {
		return 1 << 40
	}
	return lim.MaxCompressed
}

// openTarball opens the tarball the user named through the untrusted
// layer: a link is followed (the user chose the path), but it must end at
// a regular file (never blocking on a named pipe) no larger than the
// compressed limit.
func openTarball(path string, lim tarball.Limits) (io.ReadCloser, error) {
	max := compressedMax(lim)
	f, err := untrusted.OpenNamed(path, max)
	if err != nil {
		return nil, tarballReadErr(path, max, err)
	}
	return f, nil
}

// readTarball reads the whole tarball the user named, as openTarball opens
// it.
func readTarball(path string, lim tarball.Limits) ([]byte, error) {
	max := compressedMax(lim)
	data, err := untrusted.ReadNamed(path, max)
	if err != nil {
		return nil, tarballReadErr(path, max, err)
	}
	return data, nil
}

// tarballReadErr is the error of reading the tarball path (compressed
// limit max) that failed with err.
func tarballReadErr(path string, max int64, err error) error {
	switch code := werr.CodeOf(err); {
	case code == untrusted.CodeTooLarge:
		return werr.Wrap(werr.Invalid, "tarball_too_large", err, "%s is larger than %d bytes compressed", path, max)
	case code != "":
		return err
	}
	return werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", path).WithHint("check the path")
}

// headSize is how much of a file File reads first to tell a JSON document
// from a tarball (notATarball).
const headSize = 512

// openSource opens the tarball at path and reads its first bytes, which
// are returned with the source to tell a JSON document from a tarball
// (notATarball). A file whose first headSize bytes are all white space is
// read whole, for notATarball looks past them; the caller closes the
// source (close) when it does not walk it.
func openSource(path string, lim tarball.Limits) (*source, error) {
	f, err := openTarball(path, lim)
	if err != nil {
		return nil, err
	}
	head := make([]byte, headSize)
	n, err := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF: // the whole file
		f.Close()
		return &source{data: head, path: path, lim: lim, head: head}, nil
	case err != nil:
		f.Close()
		return nil, tarballReadErr(path, compressedMax(lim), err)
	}
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) || len(bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\uFEFF")), " \t\r\n")) > 0 {
		return &source{path: path, lim: lim, head: head, file: f}, nil
	}
	f.Close()
	whole, err := readTarball(path, lim)
	if err != nil {
		return nil, err
	}
	return &source{data: whole, path: path, lim: lim, head: whole}, nil
}

// close closes the file of a source that was never walked.
func (s *source) close() {
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}
