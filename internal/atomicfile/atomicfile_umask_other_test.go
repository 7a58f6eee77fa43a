//go:build !unix

package atomicfile

import (
	"runtime"
	"testing"
)

// TestWriteFileModeIgnoresUmask is the Unix test that a key file is 0600
// whatever the umask: there is no umask on Windows, and a file's access
// is its folder's inherited ACL, not a mode (see docs/SECURITY.md).
func TestWriteFileModeIgnoresUmask(t *testing.T) {
	t.Skipf("%s has no umask and no Unix file modes: the check that key files are 0600 whatever the umask runs on Linux and macOS", runtime.GOOS)
}
