package tarball

import (
	"bytes"
	"fmt"
)

// The readers wopkit must agree with: whatever it accepts, Python's tarfile,
// Go's archive/tar, GNU tar and node-tar (npm) list alike, entry for entry.
// They part ways on malformed fields in three ways, each an attack:
//   - tarfile parses every numeric field of every header (devmajor and
//     devminor too, whatever the type) and silently ends the archive at one
//     it cannot read: a scanner in Python never sees the entries after it;
//   - node-tar skips a header it finds invalid (a checksum it does not
//     recompute, a linkname on a regular file, a base-256 number outside
//     JavaScript's safe integers) and reads the entry's content as headers,
//     as GNU tar does for a blank or unreadable size ("skipping to next
//     header"): content crafted as tar headers becomes other files;
//   - readers join or cut the name at different places (the prefix outside
//     USTAR, bytes after a NUL, star's trailer making the prefix 131 bytes in
//     archive/tar and 130 in node-tar).
//
// checkAmbiguous therefore accepts each field only in the form every one of
// them reads alike and refuses the rest with tarball_ambiguous_header:
//   - magic and version exactly "ustar\x0000" (USTAR), "ustar  \x00" (GNU)
//     or all NUL (V7); bytes in the prefix field only with USTAR;
//   - the name, prefix, uname and gname fields: no byte after a NUL;
//   - linkname and the 12 bytes after the prefix: all NUL;
//   - mode, uid, gid, size, mtime, devmajor and devminor: all NUL (0 for
//     every reader: npm's node-tar leaves uid and gid so, wopkit's writer
//     devmajor and devminor), or optional leading spaces, at least one octal
//     digit, then only NUL or space (GNU tar refuses a field of spaces and
//     skips the header when it is the size). uid, gid and mtime may instead
//     be GNU base-256 (an LDAP uid, a date before 1970; wopkit ignores their
//     values): a first byte of exactly 0x80 or 0xff and a value within
//     ±(2^53-1), which every reader decodes alike;
//   - the checksum: octal digits ending in NUL or space within its 8 bytes
//     (node-tar reads 12 bytes from there), equal to the unsigned sum
//     (decodeHeader).
//
// PAX ('x', 'g'), GNU long names ('L', 'K'), sparse files ('S') and every
// other typeflag but '0', NUL and '5' are refused before their content is
// read (tarball_unsafe_entry, walker.check), so no extension record is ever
// interpreted: their odd lengths and duplicate keys cannot matter.
func checkAmbiguous(b *[blockSize]byte, index int) error {
	switch string(b[offMagic : offMagic+8]) {
	case magicUSTAR + "00", magicGNU + " \x00", "\x00\x00\x00\x00\x00\x00\x00\x00":
	default:
		return ambiguous(index, "the magic and version %q are none of USTAR's %q, GNU's %q or V7's NULs (readers guess the format differently)",
			b[offMagic:offMagic+8], magicUSTAR+"00", magicGNU+" \x00")
	}
	prefix := b[offPrefix : offPrefix+155]
	if string(b[offMagic:offMagic+6]) != magicUSTAR && !allZero(prefix) {
		return ambiguous(index, "bytes in the USTAR prefix field (%q) of a header without the USTAR magic %q",
			trimNUL(prefix), b[offMagic:offMagic+8])
	}
	for _, f := range []struct {
		what  string
		field []byte
	}{{"name", b[offName : offName+maxNameLen]}, {"prefix", prefix}, {"uname", b[offUname : offUname+32]}, {"gname", b[offGname : offGname+32]}} {
		if i := bytes.IndexByte(f.field, 0); i >= 0 && !allZero(f.field[i:]) {
			return ambiguous(index, "the %s field %q has bytes after a NUL", f.what, f.field[:bytes.LastIndexFunc(f.field, func(r rune) bool { return r != 0 })+1])
		}
	}
	// Links and other types are refused by type (walker.check), naming it.
	if link := b[offLinkname : offLinkname+100]; !allZero(link) && acceptedType(b[offTypeflag]) {
		return ambiguous(index, "a regular file or directory with a link name (%q), which node-tar refuses: it would read the entry's content as headers", trimNUL(link))
	}
	if pad := b[offPad:blockSize]; !allZero(pad) {
		return ambiguous(index, "bytes after the prefix field (%q): archive/tar takes a star trailer there and reads a shorter prefix", pad)
	}
	for _, f := range numericFields {
		field := b[f.off : f.off+f.len]
		if field[0]&0x80 != 0 {
			if !f.base256OK {
				return ambiguous(index, "the %s field is in GNU base-256 form, which not every reader understands", f.name)
			}
			if !base256Agreed(field) {
				return ambiguous(index, "the %s field % x is a base-256 number that readers decode differently or not at all", f.name, field)
			}
			continue
		}
		if _, err := parseOctal(field); err != nil || (allBlank(field) && !allZero(field)) {
			return ambiguous(index, "the %s field %q is not plain octal digits", f.name, field)
		}
	}
	if sum := b[offChksum : offChksum+8]; allBlank(sum) || (sum[7] != 0 && sum[7] != ' ') {
		return ambiguous(index, "the checksum field %q does not end in a NUL or space (node-tar reads on into the type and link name)", sum)
	}
	return nil
}

// numericFields are the numbers common readers parse in every header.
// GNU tar writes uid, gid and mtime in base-256 when they do not fit in
// octal (an LDAP uid above 2097151, a date before 1970): every reader at
// hand reads those, and wopkit ignores their values, so base-256 is
// accepted there; a base-256 size or mode is refused (no pack needs one,
// and a reader without the extension would read another size).
var numericFields = []struct {
	name      string
	off, len  int
	base256OK bool
}{
	{"mode", offMode, 8, false}, {"uid", offUID, 8, true}, {"gid", offGID, 8, true},
	{"size", offSize, 12, false}, {"mtime", offMtime, 12, true},
	{"devmajor", offDevmajor, 8, false}, {"devminor", offDevminor, 8, false},
}

// base256Agreed tells whether a GNU base-256 field is read alike by
// tarfile (first byte 0x80 or 0xff only), archive/tar (at most 63 bits)
// and node-tar (0x80 or 0xff, within ±(2^53-1)).
func base256Agreed(f []byte) bool {
	fill := byte(0)
	switch f[0] {
	case 0x80:
	case 0xff:
		fill = 0xff
	default:
		return false
	}
	// At most 7 value bytes, the rest sign fill: the value fits in 56 bits.
	for _, c := range f[1 : len(f)-7] {
		if c != fill {
			return false
		}
	}
	var v uint64
	for _, c := range f[len(f)-7:] {
		v = v<<8 | uint64(c^fill)
	}
	const maxSafe = 1<<53 - 1
	if fill == 0 {
		return v <= maxSafe
	}
	return v+1 <= maxSafe // the value is -(v+1)
}

// acceptedType tells whether walker.check accepts the typeflag.
func acceptedType(t byte) bool { return t == typeReg || t == typeRegOld || t == typeDir }

// allBlank tells whether a field holds only NULs and spaces.
func allBlank(f []byte) bool {
	for _, c := range f {
		if c != 0 && c != ' ' {
			return false
		}
	}
	return true
}

func ambiguous(index int, format string, args ...any) error {
	return invalid(CodeAmbiguousHeader, "entry %d: %s", index, fmt.Sprintf(format, args...)).
		WithHint("other tar readers would read this entry differently from wopkit: the archive is hostile or damaged; rebuild it with wopkit pack")
}
