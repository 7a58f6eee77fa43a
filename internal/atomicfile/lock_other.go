//go:build !unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/openwop/wopkit/internal/werr"
)

// LockFile is the lock file LockDir creates where flock is not available.
const LockFile = ".wopkit.lock"

// LockDir takes an exclusive lock on directory dir by creating dir/.wopkit.lock
// exclusively, waiting (up to a minute) while another process holds it, and
// returns the function that releases it (removes the file).
func LockDir(dir string) (unlock func(), err error) {
	p := filepath.Join(dir, LockFile)
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "lock_failed", err, "cannot lock %s", dir)
	}
	defer r.Close()
	deadline := time.Now().Add(time.Minute)
	for {
		f, err := r.OpenFile(LockFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(p) }, nil
		}
		if !errors.Is(err, fs.ErrExist) || time.Now().After(deadline) {
			return nil, werr.Wrap(werr.Env, "lock_failed", err, "cannot lock %s", dir).
				WithHint("if no other wopkit is running, remove %s", p)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
