// Package untrusted is the one layer through which wopkit reads input that
// strangers wrote: a pack directory in a pull request, a downloaded tarball
// and the files beside it, a registry checkout, a registry server. Every
// command reads such input through it, so that the next verb cannot reopen
// the families of bugs this layer closes (see docs/SECURITY.md):
//
//   - files: Dir opens a directory as an os.Root; a file is read only when it
//     is a regular file inside that root (checked before it is opened, the
//     open never blocks on a FIFO, a link that leaves the root is refused),
//     and only up to a size bound given by the caller (the registry's
//     limits: Max*);
//   - JSON: DecodeJSON reads a document the way the registry's Node scripts
//     read it with JSON.parse: exact member names (a member whose name
//     differs from a field's only in letter case is not that field), and a
//     member repeated in any letter case refused as ambiguous; depth, size
//     and the number of values are bounded;
//   - writes into a registry checkout go through internal/publish's tree
//     (inside the root, all or nothing under kill);
//   - HTTP to registry servers goes through internal/untrusted/httpc (the
//     token bound to one origin, no downgrade, bounded bodies and time);
//   - text printed to a terminal goes through internal/termsafe.
//
// Its JSON reader is its own, not built on internal/jsonlex, which jsondoc
// and jcs share (issue 40 item 2, measured by BenchmarkJSON in
// internal/jsondoc): it checks the grammar, the limits and the duplicates
// in one pass fused with the match to the target's fields, and a
// positioned token lexer alone costs about as much as that whole pass on a
// pack.json (10.3 µs against 11.4 µs for 13.9 KB) and a third of it on a
// registry index (0.46 ms against 1.42 ms for 277 KB). Every verify reads
// through it.
//
// The guard test in this package fails when code outside the layer opens,
// reads or decodes a file another way.
package untrusted

// Size bounds for what is read from strangers. They follow the registry's
// own limits (docs/FORMATS.md §3, tarball.RegistryLimits), with room above the
// largest real document of each kind.
const (
	// MaxDocument bounds one registry document: a version manifest, a
	// per-pack index, the discovery document and keychain, advisories, a
	// signature sidecar. The largest real v2 version manifest is under
	// 300 KiB.
	MaxDocument = 4 << 20
	// MaxIndex bounds a tree's registry-wide index (v2/index.json: 132 KiB
	// for 156 packs in the real registry, so 16 MiB is over 100 times that).
	MaxIndex = 16 << 20
	// MaxKey bounds a public key file.
	MaxKey = 64 << 10
)
