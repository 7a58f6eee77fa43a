package tarball

import (
	"fmt"
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

// foldKey is the name a case-insensitive, normalising file system (APFS,
// HFS+, NTFS, exFAT) stores for name: Unicode case folding of the canonical
// decomposition, recomposed (NFC). Two names with one key are one file there.
func foldKey(name string) string {
	return norm.NFC.String(cases.Fold().String(norm.NFD.String(name)))
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
