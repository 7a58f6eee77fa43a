//go:build unix

package atomicfile

import (
	"os"
	"syscall"

	"github.com/openwop/wopkit/internal/werr"
)

// LockDir takes an exclusive advisory lock on directory dir, waiting until
// no other wopkit holds it, and returns the function that releases it. On
// Unix the lock is flock(2) on the directory itself: nothing is created in
// the directory, and a killed process releases it.
//
// The directory is opened with O_DIRECTORY|O_NONBLOCK, for the lock only:
// nothing is read from it, and a FIFO in its place is refused instead of
// blocking the open.
func LockDir(dir string) (unlock func(), err error) {
	var fd int
	for {
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "lock_failed", &os.PathError{Op: "open", Path: dir, Err: err}, "cannot lock %s", dir)
	}
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, werr.Wrap(werr.Env, "lock_failed", err, "cannot lock %s", dir)
	}
	return func() {
		syscall.Flock(fd, syscall.LOCK_UN)
		syscall.Close(fd)
	}, nil
}
