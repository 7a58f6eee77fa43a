// Package tarball writes and reads OpenWOP pack tarballs: the registry's
// deterministic gzip'd USTAR layout (docs/FORMATS.md §3), written with a parallel
// gzip compressor, and a streaming reader that refuses hostile archives
// (traversal, links, devices, duplicates, oversized entries, gzip bombs)
// before any of their bytes reach the caller.
package tarball

import (
	"io"

	"github.com/openwop/wopkit/internal/werr"
)

// Stable error codes returned by this package.
const (
	CodeCorrupt         = "tarball_corrupt"          // not gzip, truncated, bad checksum, trailing garbage
	CodePathTraversal   = "tarball_path_traversal"   // "..", absolute, backslash, empty or NUL in a name
	CodeUnsafeEntry     = "tarball_unsafe_entry"     // links, devices, fifos, PAX/GNU extension headers
	CodeDuplicateEntry  = "tarball_duplicate_entry"  // the same name twice (after stripping "./")
	CodeTooLarge        = "tarball_too_large"        // a Limits value was exceeded
	CodeManifestMissing = "tarball_manifest_missing" // no pack.json at the root
	CodeNameTooLong     = "tarball_name_too_long"    // a name over 100 bytes given to the writer
	CodeEntryChanged    = "tarball_entry_changed"    // an entry's content did not match its Size while writing
	CodeBadOptions      = "tarball_bad_options"      // WriteOptions out of range
	CodeAmbiguousHeader = "tarball_ambiguous_header" // a header other tar readers could read differently
	CodeNameCollision   = "tarball_name_collision"   // two names one file on a case-insensitive or normalising file system
	CodeUnsafeName      = "tarball_unsafe_name"      // a name with C1 controls, bidi overrides or invalid UTF-8
	CodeWindowsName     = "tarball_windows_name"     // a name Windows reads as another file or a device (checkWindowsName)
)

// ManifestName is the pack manifest every pack tarball carries at its root.
const ManifestName = "pack.json"

// Entry is one file to write into a pack tarball.
type Entry struct {
	Name string                        // slash path relative to the pack root, no "./" prefix
	Size int64                         // exact content length
	Open func() (io.ReadCloser, error) // streamed, never slurped
}

// DefaultLevel is the registry builder's gzip level (zlib.gzipSync with
// level 9 in build-pack-tarball.mjs): the gzip header, whose XFL byte
// depends on the level (zlib: 2 at level 9, 4 at level 1, else 0), is then
// the registry's byte for byte. Only the deflate bytes differ (zlib and
// klauspost/compress choose different matches).
const DefaultLevel = 9

// WriteOptions tunes Write.
type WriteOptions struct {
	Level       int // gzip level 1-9; 0 means DefaultLevel
	Concurrency int // compression workers; 0 means GOMAXPROCS
}

// Limits bounds what a reader accepts. A zero field means "no limit" for
// that field; use RegistryLimits or DefaultLimits rather than building one.
type Limits struct {
	MaxCompressed int64 // bytes of .tgz read
	MaxUnpacked   int64 // sum of the entries' sizes
	MaxEntry      int64 // one entry's size
	MaxManifest   int64 // pack.json's size
	MaxEntries    int   // number of entries, directories included
}

// RegistryLimits are the public registry's limits (docs/FORMATS.md §3): 10 MiB
// compressed, 50 MiB unpacked, 5 MiB per entry, 256 KiB pack.json, 10000
// entries.
var RegistryLimits = Limits{MaxCompressed: 10 << 20, MaxUnpacked: 50 << 20, MaxEntry: 5 << 20, MaxManifest: 256 << 10, MaxEntries: 10000}

// DefaultLimits are what every command reads by default: the registry's
// limits, so that any tarball the registry would accept is read and a
// hostile one costs bounded memory and time. Raise them for private packs
// with Scaled (the --max-size flag).
var DefaultLimits = RegistryLimits

// Scaled returns limits for tarballs of up to mb MB (MiB) compressed, in the
// registry's proportions: unpacked up to 5 x mb, one entry up to mb / 2;
// pack.json stays at the registry's 256 KiB and entries at 10000. Scaled(10)
// is RegistryLimits.
func Scaled(mb int) Limits {
	l := RegistryLimits
	if mb <= 0 {
		return l
	}
	c := int64(mb) << 20
	l.MaxCompressed, l.MaxUnpacked, l.MaxEntry = c, 5*c, c/2
	return l
}

// Header describes one entry as read from an archive.
type Header struct {
	Name string // slash path, "./" prefix and a directory's trailing "/" stripped
	Size int64
	Mode int64 // permission bits as stored (the registry writes 0644)
	Dir  bool  // a directory entry (never passed to Walk's callback)
}

func invalid(code, format string, args ...any) *werr.Error {
	return werr.New(werr.Invalid, code, format, args...)
}
