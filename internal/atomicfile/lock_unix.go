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
func LockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "lock_failed", err, "cannot lock %s", dir)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, werr.Wrap(werr.Env, "lock_failed", err, "cannot lock %s", dir)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
