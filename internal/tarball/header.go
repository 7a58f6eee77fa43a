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
	offLinkname = 157
	offMagic    = 257
	offVersion  = 263
	offUname    = 265
	offGname    = 297
	offDevmajor = 329
	offDevminor = 337
	offPrefix   = 345
	offPad      = 500 // 12 bytes USTAR leaves unused (star's trailer)
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
// ".." or empty segments, no backslash, NUL or control characters, no
// character that displays as another (checkNameChars), no name Windows
// reads as another file or a device (checkWindowsName).
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
	return checkWindowsName(name)
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// rawHeader is a decoded header before the safety checks on its name.
type rawHeader struct {
	name     string // as stored (prefix joined), "./" not yet stripped
	size     int64
	mode     int64
	typeflag byte
}

// decodeHeader parses a 512-byte header block into h, checking its
// checksum. index is the entry's position, for messages.
func decodeHeader(b *[blockSize]byte, index int, h *rawHeader) error {
	corrupt := func(format string, args ...any) error {
		return invalid(CodeCorrupt, "entry %d: %s", index, fmt.Sprintf(format, args...)).
			WithHint("the file is damaged or not a tar archive: rebuild or re-download it")
	}
	want, err := parseOctal(b[offChksum : offChksum+8])
	if err != nil {
		return corrupt("unreadable header checksum field %q", trimNUL(b[offChksum:offChksum+8]))
	}
	// Sum with the checksum field as spaces. Some old tars (Sun, NeXT)
	// summed signed bytes: tarfile, archive/tar and GNU tar accept that sum,
	// node-tar does not and reads the entry's content as headers instead.
	unsigned, signed := int64(8*' '), int64(8*' ')
	for i, c := range b {
		if i < offChksum || i >= offChksum+8 {
			unsigned += int64(c)
			signed += int64(int8(c))
		}
	}
	switch {
	case want == unsigned:
	case want == signed:
		return ambiguous(index, "the header checksum %o is the signed-byte sum of an old tar (the standard sum is %o), which node-tar refuses: it would read the entry's content as headers", want, unsigned)
	default:
		return corrupt("header checksum %o does not match the header (computed %o)", want, unsigned)
	}
	*h = rawHeader{typeflag: b[offTypeflag]}
	if err := checkAmbiguous(b, index); err != nil {
		return err
	}
	name := string(trimNUL(b[offName : offName+maxNameLen]))
	if prefix := string(trimNUL(b[offPrefix : offPrefix+155])); prefix != "" {
		name = prefix + "/" + name // only reached with USTAR magic and version (checkAmbiguous)
	}
	h.name = name
	if h.mode, err = parseOctal(b[offMode : offMode+8]); err != nil {
		return corrupt("unreadable mode field of %q", name)
	}
	if h.size, err = parseOctal(b[offSize : offSize+12]); err != nil {
		return corrupt("unreadable size field of %q", name)
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
