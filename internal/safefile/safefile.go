// Package safefile reads files that must be regular without ever blocking:
// a named pipe (FIFO) opened for reading blocks until a writer appears, so
// a FIFO put where wopkit expects a file (a schema, .openwopignore, a key)
// would hang a command forever. The type is checked before the open, the
// open is non-blocking, and the opened file's type is checked again.
package safefile

import (
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/openwop/wopkit/internal/werr"
)

// CodeNotRegular is the stable code of a file that is not a regular file.
const CodeNotRegular = "file_not_regular"

// NotRegular is the error for name of the given (non-regular) mode.
func NotRegular(name string, mode fs.FileMode) *werr.Error {
	return werr.New(werr.Invalid, CodeNotRegular, "%s is %s, not a regular file", name, Describe(mode)).
		WithHint("give a regular file (wopkit never reads pipes, devices or sockets as files)")
}

// Describe names a file type for messages.
func Describe(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// Open opens path for reading when it is (or links to) a regular file. A
// missing or unreadable file gives the os error; anything else a
// file_not_regular werr.Error naming path.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, NotRegular(path, fi.Mode())
	}
	return check(os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0))(path)
}

// OpenIn is Open for name inside root.
func OpenIn(root *os.Root, name string) (*os.File, error) {
	fi, err := root.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, NotRegular(name, fi.Mode())
	}
	return check(root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0))(name)
}

// check re-checks the opened file (it may have been swapped since the
// stat; the non-blocking open returned at once even for a FIFO).
func check(f *os.File, err error) func(name string) (*os.File, error) {
	return func(name string) (*os.File, error) {
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			f.Close()
			return nil, NotRegular(name, fi.Mode())
		}
		return f, nil
	}
}

// ReadFileIn is ReadFile for name inside root.
func ReadFileIn(root *os.Root, name string, max int64) ([]byte, error) {
	f, err := OpenIn(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max+1))
}

// CheckDir refuses (file_not_regular) a path that is, or links to, a named
// pipe, a device or a socket where a folder is expected, before anything
// opens it: opening a FIFO waits for a writer, so `diff FIFO NEW` would
// hang. A missing path, a folder or a regular file pass (the open that
// follows reports them as it always has).
func CheckDir(path string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || fi.Mode().IsRegular() {
		return nil
	}
	return werr.New(werr.Invalid, CodeNotRegular, "%s is %s, not a folder", path, Describe(fi.Mode())).
		WithHint("give a folder (wopkit never reads pipes, devices or sockets)")
}
