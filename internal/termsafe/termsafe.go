// Package termsafe makes text from untrusted sources (a pack's manifest, a
// tarball's entry names, a registry's files) inert on a terminal: control
// characters that could move the cursor, erase lines, set the window title or
// reorder text are replaced by visible escapes.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Unsafe reports whether r must not reach a terminal raw: C0 controls
// (newline and tab included: a value must not start a fake line), DEL, C1
// controls, and the Unicode bidirectional formatting characters (embeddings,
// overrides, isolates and marks) that reorder what is shown.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	}
	return false
}

// Lines is String for text that is several lines by design (an error that
// lists problems): newlines are kept, every other unsafe character escaped.
func Lines(s string) string {
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = String(p)
	}
	return strings.Join(parts, "\n")
}

// String returns s with every unsafe character written as a Go-style escape
// (\x1b, \u202e), every byte that is not UTF-8 as \xNN, and backslashes left
// as they are. A string with nothing unsafe is returned unchanged.
func String(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || Unsafe(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
