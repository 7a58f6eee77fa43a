package tarball

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

const (
	blockSize   = 512
	maxNameLen  = 100
	maxOctal11  = 1<<33 - 1 // largest size an 11-digit octal field holds
	typeReg     = '0'
	typeRegOld  = '\x00'
	typeDir     = '5'
	magicUSTAR  = "ustar\x00"
	magicGNU    = "ustar "
	offName     = 0
	offMode     = 100
	offUID      = 108
	offGID      = 116
	offSize     = 124
	offMtime    = 136
	offChksum   = 148
	offTypeflag = 156
	offMagic    = 257
	offVersion  = 263
	offPrefix   = 345
)

// fmtBytes renders a byte count with a binary-unit approximation.
func fmtBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%d bytes (%.1f GiB)", n, float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d bytes (%.1f MiB)", n, float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d bytes (%.1f KiB)", n, float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

// encodeHeader writes the registry's exact USTAR header for a regular file:
// mode 0644, uid/gid 0, mtime 0, empty uname/gname, typeflag '0', magic
// "ustar\0" version "00", checksum as 7 octal digits + NUL, devmajor/devminor
// and prefix all NUL.
func encodeHeader(hdr *[blockSize]byte, name string, size int64) {
	*hdr = [blockSize]byte{}
	copy(hdr[offName:], name)
	copy(hdr[offMode:], "0000644\x00")
	copy(hdr[offUID:], "0000000\x00")
	copy(hdr[offGID:], "0000000\x00")
	copy(hdr[offSize:], fmt.Sprintf("%011o\x00", size))
	copy(hdr[offMtime:], "00000000000\x00")
	hdr[offTypeflag] = typeReg
	copy(hdr[offMagic:], magicUSTAR)
	copy(hdr[offVersion:], "00")
	copy(hdr[offChksum:], "        ")
	var sum int64
	for _, b := range hdr {
		sum += int64(b)
	}
	copy(hdr[offChksum:], fmt.Sprintf("%07o\x00", sum))
}

// checkName validates a slash path for a pack tarball: relative, no ".",
// ".." or empty segments, no backslash, NUL or control characters.
func checkName(name string) error {
	switch {
	case name == "":
		return invalid(CodePathTraversal, "entry has an empty name").
			WithHint("the archive is malformed or hostile: do not use it")
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return invalid(CodePathTraversal, "entry name %q contains a control character", name).
			WithHint("the archive is malformed or hostile: do not use it")
	case strings.Contains(name, `\`):
		return invalid(CodePathTraversal, "entry name %q contains a backslash", name).
			WithHint("pack tarballs use forward slashes only: rebuild the archive")
	case name[0] == '/' || (len(name) >= 2 && name[1] == ':' && isLetter(name[0])):
		return invalid(CodePathTraversal, "entry name %q is an absolute path", name).
			WithHint("the archive tries to write outside its directory: do not use it")
	}
	if err := checkNameChars(name); err != nil {
		return err
	}
	for seg := range strings.SplitSeq(name, "/") {
		switch seg {
		case "..":
			return invalid(CodePathTraversal, "entry name %q climbs out of the pack with \"..\"", name).
				WithHint("the archive tries to write outside its directory: do not use it")
		case ".", "":
			return invalid(CodePathTraversal, "entry name %q has an empty or \".\" path segment", name).
				WithHint("pack tarballs use clean relative paths: rebuild the archive")
		}
	}
	return nil
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// rawHeader is a decoded header before the safety checks on its name.
type rawHeader struct {
	name     string // as stored (prefix joined), "./" not yet stripped
	size     int64
	mode     int64
	typeflag byte
}

// decodeHeader parses a 512-byte header block, checking its checksum.
// index is the entry's position, for messages.
func decodeHeader(b *[blockSize]byte, index int) (*rawHeader, error) {
	corrupt := func(format string, args ...any) error {
		return invalid(CodeCorrupt, "entry %d: %s", index, fmt.Sprintf(format, args...)).
			WithHint("the file is damaged or not a tar archive: rebuild or re-download it")
	}
	want, err := parseOctal(b[offChksum : offChksum+8])
	if err != nil {
		return nil, corrupt("unreadable header checksum field %q", trimNUL(b[offChksum:offChksum+8]))
	}
	// Sum with the checksum field as spaces; some old tars summed signed bytes.
	unsigned := int64(8 * ' ')
	for _, c := range b[:offChksum] {
		unsigned += int64(c)
	}
	for _, c := range b[offChksum+8:] {
		unsigned += int64(c)
	}
	if want != unsigned {
		signed := int64(8 * ' ')
		for i, c := range b {
			if i < offChksum || i >= offChksum+8 {
				signed += int64(int8(c))
			}
		}
		if want != signed {
			return nil, corrupt("header checksum %o does not match the header (computed %o)", want, unsigned)
		}
	}
	h := &rawHeader{typeflag: b[offTypeflag]}
	if err := checkAmbiguous(b, index); err != nil {
		return nil, err
	}
	name := string(trimNUL(b[offName : offName+maxNameLen]))
	if prefix := string(trimNUL(b[offPrefix : offPrefix+155])); prefix != "" {
		name = prefix + "/" + name // only reached with USTAR magic and version (checkAmbiguous)
	}
	h.name = name
	if h.mode, err = parseOctal(b[offMode : offMode+8]); err != nil {
		return nil, corrupt("unreadable mode field of %q", name)
	}
	if h.size, err = parseOctal(b[offSize : offSize+12]); err != nil {
		return nil, corrupt("unreadable size field of %q", name)
	}
	return h, nil
}

// numericFields are the header's numbers that common readers parse (Python's
// tarfile parses all of them and stops reading the archive at a header whose
// numbers it cannot read).
//
// GNU tar writes uid, gid and mtime in base-256 when they do not fit in
// octal (an LDAP uid above 2097151, a date before 1970): every reader at
// hand reads those, and wopkit ignores their values, so base-256 is
// accepted there; a base-256 size or mode is refused (no pack needs one,
// and a reader without the extension would read another size).
var numericFields = []struct {
	name      string
	off, len  int
	base256OK bool
}{{"mode", offMode, 8, false}, {"uid", offUID, 8, true}, {"gid", offGID, 8, true}, {"size", offSize, 12, false}, {"mtime", offMtime, 12, true}}

// checkAmbiguous refuses a header that common readers (GNU tar, Go's
// archive/tar, Python's tarfile, libarchive) could read differently from
// wopkit, with tarball_ambiguous_header:
//   - bytes in the USTAR prefix field without the exact USTAR magic and
//     version "00" (tarfile joins the prefix whatever the magic, GNU tar and
//     Go ignore it outside USTAR: "evil.txt" for one is "../x/evil.txt" for
//     another);
//   - a NUL inside the name or prefix field followed by other bytes (readers
//     that stop at the first NUL and readers that do not disagree);
//   - a numeric field in base-256 (GNU's extension: readers without it read
//     another size) or in any form other than optional leading spaces, octal
//     digits and NUL/space terminators (tarfile accepts "+12", "1_2" and
//     digits after a NUL; others refuse or stop there).
func checkAmbiguous(b *[blockSize]byte, index int) error {
	ambiguous := func(format string, args ...any) error {
		return invalid(CodeAmbiguousHeader, "entry %d: %s", index, fmt.Sprintf(format, args...)).
			WithHint("other tar readers would read this entry differently from wopkit: the archive is hostile or damaged; rebuild it with wopkit pack")
	}
	ustar := string(b[offMagic:offMagic+6]) == magicUSTAR && string(b[offVersion:offVersion+2]) == "00"
	prefix := b[offPrefix : offPrefix+155]
	if !ustar && !allZero(prefix) {
		return ambiguous("bytes in the USTAR prefix field (%q) of a header without the USTAR magic %q",
			trimNUL(prefix), b[offMagic:offMagic+8])
	}
	for _, f := range []struct {
		what  string
		field []byte
	}{{"name", b[offName : offName+maxNameLen]}, {"prefix", prefix}} {
		if i := bytes.IndexByte(f.field, 0); i >= 0 && !allZero(f.field[i:]) {
			return ambiguous("the %s field %q has bytes after a NUL", f.what, f.field[:bytes.LastIndexFunc(f.field, func(r rune) bool { return r != 0 })+1])
		}
	}
	for _, f := range numericFields {
		field := b[f.off : f.off+f.len]
		if field[0]&0x80 != 0 {
			if f.base256OK {
				continue
			}
			return ambiguous("the %s field is in GNU base-256 form, which not every reader understands", f.name)
		}
		if _, err := parseOctal(field); err != nil {
			return ambiguous("the %s field %q is not plain octal digits", f.name, field)
		}
	}
	return nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// parseOctal reads a NUL- or space-terminated octal field (leading spaces
// allowed), without allocating.
func parseOctal(f []byte) (int64, error) {
	i := 0
	for i < len(f) && f[i] == ' ' {
		i++
	}
	var v int64
	for ; i < len(f); i++ {
		c := f[i]
		if c == 0 || c == ' ' {
			break
		}
		if c < '0' || c > '7' || v > 1<<59 {
			return 0, strconv.ErrSyntax
		}
		v = v<<3 | int64(c-'0')
	}
	for ; i < len(f); i++ { // only terminators may follow
		if f[i] != 0 && f[i] != ' ' {
			return 0, strconv.ErrSyntax
		}
	}
	return v, nil
}

func trimNUL(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// typeName names a typeflag for messages.
func typeName(t byte) string {
	switch t {
	case '1':
		return "a hard link"
	case '2':
		return "a symbolic link"
	case '3':
		return "a character device"
	case '4':
		return "a block device"
	case '6':
		return "a FIFO"
	case '7':
		return "a contiguous file"
	case 'x', 'g':
		return "a PAX extended header"
	case 'L':
		return "a GNU long-name header"
	case 'K':
		return "a GNU long-link header"
	default:
		if t >= 0x20 && t < 0x7f {
			return fmt.Sprintf("an entry of unsupported type %q", t)
		}
		return fmt.Sprintf("an entry of unsupported type 0x%02x", t)
	}
}
