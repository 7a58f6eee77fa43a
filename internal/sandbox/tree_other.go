//go:build !unix

package sandbox

import "io/fs"

// linkCount is 1 where the link count is not in FileInfo (the sandbox
// does not run there anyway: see Supported).
func linkCount(fs.FileInfo) uint64 { return 1 }
