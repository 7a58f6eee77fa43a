package publish

// localeCompare orders strings as build-index.mjs's a.localeCompare(b) does
// under Node's ICU (full-icu, the en/root locale): the CLDR root collation,
// whose defaults are tertiary strength and non-ignorable punctuation. For
// printable ASCII, the alphabet of pack names (name pattern
// [a-z][a-zA-Z0-9_-]* segments joined by dots) and of connection vendor
// names, that is:
//
//   - primary level: the characters in the order of rootPrimary, a letter
//     and its capital sharing one weight: " _-,;:!?.'"()[]{}@*/\&#%`^+<=>|~$",
//     then the digits, then the letters; a string that is a prefix of
//     another sorts first;
//   - tertiary level (same letters, different case): at the first position
//     where the case differs, the lower-case letter sorts first.
//
// So it is not byte order: '_' sorts before '-' and '.', and "a.b" before
// "a.Bc". (For the lower-case ASCII names with dots and dashes the registry
// holds today, '-' < '.' < digits < letters is also byte order.) A
// character outside printable ASCII, which no pack name may contain, sorts
// after all of them by code point: an approximation of ICU that the tests
// do not cover.
func localeCompare(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if x, y := primaryWeight(ra[i]), primaryWeight(rb[i]); x != y {
			return cmpSign(x - y)
		}
	}
	if len(ra) != len(rb) {
		return cmpSign(len(ra) - len(rb))
	}
	for i := range ra {
		if x, y := isUpper(ra[i]), isUpper(rb[i]); x != y {
			if x {
				return 1
			}
			return -1
		}
	}
	return 0
}

// rootPrimary is the printable ASCII without the capitals, in CLDR root
// collation order (as Node 20's ICU sorts them with localeCompare).
const rootPrimary = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"

var primaryTable = func() (w [128]int) {
	for i := 0; i < len(rootPrimary); i++ {
		w[rootPrimary[i]] = i + 1
	}
	for c := 'A'; c <= 'Z'; c++ {
		w[c] = w[c-'A'+'a']
	}
	return w
}()

func primaryWeight(r rune) int {
	if r >= 0 && r < 128 && primaryTable[r] != 0 {
		return primaryTable[r]
	}
	return 1000 + int(r)
}

func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }

func cmpSign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
