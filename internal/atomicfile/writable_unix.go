//go:build unix

package atomicfile

import (
	"fmt"
	"syscall"
)

// Writable reports why files cannot be made in dir (nil when they can):
// the nearest folder of dir that exists must be a folder this process may
// write and enter. Nothing is written: the preflight of a write asks
// before anything is (a read-only folder passed the review, then writing
// failed half-way with no hint). A superuser passes any permission check.
func Writable(dir string) error {
	at, err := nearestDir(dir)
	if err != nil {
		return err
	}
	const wOK, xOK = 2, 1
	if err := syscall.Access(at, wOK|xOK); err != nil {
		return fmt.Errorf("cannot create files in %s: %w", at, err)
	}
	return nil
}
