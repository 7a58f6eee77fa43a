package pack

import "github.com/openwop/wopkit/internal/ignore"

// IgnoreFile is the name of the per-pack ignore file (gitignore syntax,
// which npm-ignore shares).
const IgnoreFile = ".openwopignore"

// Ignorer decides which pack-relative paths an ignore file excludes; the
// zero value excludes nothing.
type Ignorer = ignore.Matcher

// ParseIgnore reads the pack's ignore file, gitignore syntax with git's
// semantics (internal/ignore, the matcher `new` uses too).
func ParseIgnore(data []byte) *Ignorer {
	return ignore.New(ignore.Parse(data, ""))
}
