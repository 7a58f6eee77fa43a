package tarball

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// checkNameChars refuses names that display as something else or cannot be
// stored on every file system: invalid UTF-8, C1 control characters
// (U+0080-U+009F) and the bidirectional marks and overrides (U+061C,
// U+200E-U+200F, U+202A-U+202E, U+2066-U+2069) that make "evil.sh\u202etxt."
// read as another name.
func checkNameChars(name string) error {
	if !utf8.ValidString(name) {
		return invalid(CodeUnsafeName, "entry name %q is not valid UTF-8", name).
			WithHint("macOS and Windows cannot store such a name: rename the file")
	}
	for _, r := range name {
		if what := unsafeRune(r); what != "" {
			return invalid(CodeUnsafeName, "entry name %q contains %s (U+%04X)", name, what, r).
				WithHint("such a name displays as another name: rename the file")
		}
	}
	return nil
}

func unsafeRune(r rune) string {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return "a C1 control character"
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return "a bidirectional control character"
	}
	return ""
}

// CheckName refuses a name no pack tarball may hold, with the reader's and
// writer's codes (tarball_path_traversal, tarball_unsafe_name,
// tarball_windows_name): pack applies it to the files of a directory before
// reading them.
func CheckName(name string) error { return checkName(name) }

// checkWindowsName refuses, with tarball_windows_name, a name Windows
// stores as another file or opens as a device, so that extracting there
// could replace pack.json or read from a device. Each path segment:
//   - ends in a dot or a space: Windows drops them ("pack.json." and
//     "pack.json " are "pack.json");
//   - holds one of < > : " | ? * (":" names an NTFS alternate data stream of
//     the file before it: "pack.json:x" writes into pack.json);
//   - is a reserved device name, whatever its case and extension: CON, PRN,
//     AUX, NUL, COM0-COM9, LPT0-LPT9 (and their superscript ¹²³ forms),
//     CONIN$, CONOUT$ ("aux.json", "nul.txt", "COM1 .md");
//   - has the form of an 8.3 short name with "~" and digits ("PACK~1.JSO"),
//     which on a volume that makes short names is the alias of another
//     file ("pack.json") in the same directory.
//
// Control characters and backslashes are refused before, by checkName.
func checkWindowsName(name string) error {
	for seg := range strings.SplitSeq(name, "/") {
		why := ""
		switch {
		case strings.HasSuffix(seg, ".") || strings.HasSuffix(seg, " "):
			why = fmt.Sprintf("%q ends in a dot or space, which Windows drops (it is %q there)", seg, strings.TrimRight(seg, ". "))
		case strings.ContainsAny(seg, `<>:"|?*`):
			c := seg[strings.IndexAny(seg, `<>:"|?*`)]
			why = fmt.Sprintf("%q holds %q, which Windows does not allow in a name", seg, c)
			if c == ':' {
				why += " (there it names a stream of the file before it)"
			}
		case reservedDevice(seg):
			why = fmt.Sprintf("%q is a device on Windows, whatever its extension", seg)
		case shortNameAlias(seg):
			why = fmt.Sprintf("%q has the form of a Windows 8.3 short name, the alias of another file there", seg)
		default:
			continue
		}
		return invalid(CodeWindowsName, "entry name %q: %s", name, why).
			WithHint("on Windows this name would replace another file or open a device: rename the file")
	}
	return nil
}

// reservedDevice tells whether a segment names a Windows device: the part
// before its first dot, trailing spaces dropped, case ignored.
func reservedDevice(seg string) bool {
	base, _, _ := strings.Cut(seg, ".")
	base = strings.TrimRight(base, " ")
	if asciiOnly(base) {
		// The common case, upper-cased on the stack: an ASCII name keeps
		// its length, and no device name is longer than 7 bytes.
		if len(base) > 7 {
			return false
		}
		var up [7]byte
		for i := range len(base) {
			c := base[i]
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			up[i] = c
		}
		return deviceName(string(up[:len(base)]))
	}
	return deviceName(strings.ToUpper(base))
}

func asciiOnly(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// deviceName tells whether base, upper-cased, is a Windows device's name.
func deviceName(base string) bool {
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) < 4 || (base[:3] != "COM" && base[:3] != "LPT") {
		return false
	}
	switch base[3:] {
	case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "\u00b9", "\u00b2", "\u00b3":
		return true
	}
	return false
}

// shortNameAlias tells whether a segment has the 8.3 form Windows gives a
// long name's alias: at most 8 characters ending in "~" and digits, then
// optionally a dot and at most 3 characters.
func shortNameAlias(seg string) bool {
	base, ext, dotted := strings.Cut(seg, ".")
	if len(base) > 8 || (dotted && (len(ext) > 3 || strings.Contains(ext, "."))) {
		return false
	}
	i := strings.LastIndexByte(base, '~')
	if i < 1 || i == len(base)-1 {
		return false
	}
	for _, c := range base[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// foldKey is the name a case-insensitive, normalising file system (APFS,
// HFS+, NTFS, exFAT) stores for name: Unicode case folding of the canonical
// decomposition, recomposed (NFC). Two names with one key are one file there.
func foldKey(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return norm.NFC.String(cases.Fold().String(norm.NFD.String(name)))
		}
	}
	// ASCII (every name of a published pack): decomposition and
	// recomposition change nothing, and case folding maps A-Z to a-z only.
	return strings.ToLower(name)
}

// collisions tracks names and their parent directories by foldKey.
type collisions map[string]string // key -> first spelling

// add records name and its parent directories and refuses one that is
// another spelling of a name already recorded.
func (c collisions) add(name string) error {
	for i := 0; ; {
		j := strings.IndexByte(name[i:], '/')
		p := name
		if j >= 0 {
			p = name[:i+j]
		}
		k := foldKey(p)
		if prev, ok := c[k]; !ok {
			c[k] = p
		} else if prev != p {
			return invalid(CodeNameCollision, "entry %s", collisionMsg(name, p, prev)).
				WithHint("on macOS and Windows one would overwrite the other: keep one spelling and rename the other file")
		}
		if j < 0 {
			return nil
		}
		i += j + 1
	}
}

func collisionMsg(name, p, prev string) string {
	if p == name {
		return fmt.Sprintf("%q and %q are the same name on a case-insensitive or Unicode-normalising file system", prev, name)
	}
	return fmt.Sprintf("%q lies under %q, the same name as %q on a case-insensitive or Unicode-normalising file system", name, p, prev)
}

// NameRefusal is a name CheckNames refuses, and why.
type NameRefusal struct {
	Name string
	Err  error
}

// CheckNames refuses, as the writer does (tarball_name_collision), every
// name of names that is another spelling, on a case-insensitive or
// Unicode-normalising file system, of a name (or a parent directory of one)
// before it in sorted order: the writer adds entries sorted, so the same
// pairs are found. It lists every refused name, for a dry run that reports
// them all (pack.Check).
func CheckNames(names []string) []NameRefusal {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	c := collisions{}
	var out []NameRefusal
	for _, n := range sorted {
		if err := c.add(n); err != nil {
			out = append(out, NameRefusal{Name: n, Err: err})
		}
	}
	return out
}
