// Package words writes counts and lists the way a sentence does, for every
// message wopkit prints: "1 file", "2 files", "a, b and c".
package words

import (
	"regexp"
	"strconv"
	"strings"
)

// Count is n with its noun: one when n is 1, many otherwise ("1 error",
// "3 errors"; "1 entry", "2 entries").
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Plural is Count for a noun whose plural takes an s.
func Plural(n int, noun string) string { return Count(n, noun, noun+"s") }

// And joins words as a sentence does: "a", "a and b", "a, b and c".
func And(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// member is a JSON member's name or a list's index in backticks, as the
// validator names the member a problem is about (`agentId`, `0`).
var member = regexp.MustCompile("`([A-Za-z_$][A-Za-z0-9_$]*|[0-9]+)`")

// Titled is msg, a problem about one field, naming that field by title
// where it names it by a JSON member in backticks, and a list's item by
// its place ("item 1 of Keywords") where it gives a bare index.
func Titled(msg, title string) string {
	return member.ReplaceAllStringFunc(msg, func(m string) string {
		if n, err := strconv.Atoi(m[1 : len(m)-1]); err == nil {
			return "item " + strconv.Itoa(n+1) + " of " + title
		}
		return title
	})
}
