// Package atomicfile writes files so that a reader, or a crash, sees either
// the old content or the new, never a part: data goes to a temporary file in
// the same directory, is synced, and is renamed over the final path. A Batch
// commits several files together (a tarball, its signature and its version
// manifest; the files of a scaffold), leaving nothing behind on failure.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openwop/wopkit/internal/werr"
)

// File is a file being written under a temporary name beside its final path.
type File struct {
	*os.File
	final  string
	closed bool
}

// Create starts writing final. The file gets mode perm whatever the umask
// (key files must be 0600).
func Create(final string, perm fs.FileMode) (*File, error) {
	f, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+".tmp-*")
	if err != nil {
		return nil, failed(err, final).WithHint("check that the directory exists and is writable")
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, failed(err, final)
	}
	return &File{File: f, final: final}, nil
}

// Final returns the path the file will have once committed.
func (f *File) Final() string { return f.final }

// finish syncs and closes the temporary file.
func (f *File) finish() error {
	if f.closed {
		return nil
	}
	f.closed = true
	err := f.Sync()
	if errors.Is(err, os.ErrInvalid) {
		err = nil
	}
	return errors.Join(err, f.File.Close())
}

// Commit syncs the file and renames it over its final path.
func (f *File) Commit() error {
	if err := f.finish(); err != nil {
		f.Abort()
		return failed(err, f.final)
	}
	if err := os.Rename(f.Name(), f.final); err != nil {
		f.Abort()
		return failed(err, f.final)
	}
	return nil
}

// Abort discards the temporary file; the final path is untouched.
func (f *File) Abort() {
	if !f.closed {
		f.closed = true
		f.File.Close()
	}
	os.Remove(f.Name())
}

// WriteFile replaces path with data, giving it mode perm.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return failed(err, path)
	}
	return f.Commit()
}

// Replace is WriteFile that keeps an existing file's permissions; a new file
// gets perm.
func Replace(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	return WriteFile(path, data, perm)
}

// Batch writes several files that appear together or not at all: each is
// written under a temporary name, and Commit renames them all.
type Batch struct {
	files []*File
}

// Create starts writing one file of the batch.
func (b *Batch) Create(final string, perm fs.FileMode) (*File, error) {
	f, err := Create(final, perm)
	if err != nil {
		return nil, err
	}
	b.files = append(b.files, f)
	return f, nil
}

// Add writes a whole file of the batch from data.
func (b *Batch) Add(final string, data []byte, perm fs.FileMode) error {
	f, err := b.Create(final, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return failed(err, final)
	}
	return nil
}

// Commit syncs every file, then renames them in the order they were created.
// On failure the files not yet renamed are removed, and the error says how
// many were already in place.
func (b *Batch) Commit() error {
	for _, f := range b.files {
		if err := f.finish(); err != nil {
			b.Abort()
			return failed(err, f.final)
		}
	}
	for i, f := range b.files {
		if err := os.Rename(f.Name(), f.final); err != nil {
			b.files = b.files[i:]
			b.Abort()
			e := failed(err, f.final)
			if i > 0 {
				e.Msg += " (after " + itoa(i) + " of the other files were written)"
			}
			return e
		}
	}
	b.files = nil
	return nil
}

// Abort discards every file of the batch not yet committed.
func (b *Batch) Abort() {
	for _, f := range b.files {
		f.Abort()
	}
	b.files = nil
}

func failed(err error, path string) *werr.Error {
	return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", path)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for ; i > 0; i /= 10 {
		n--
		b[n] = byte('0' + i%10)
	}
	return string(b[n:])
}
