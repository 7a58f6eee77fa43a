package validate

import (
	"regexp"
	"strings"

	"github.com/openwop/wopkit/third_party/jsonschema"
)

// JSON Schema patterns are ECMA-262 regular expressions; Go's regexp (RE2)
// has no lookaround. The v2 connection schema anchors a negative lookahead
// at the start ("^(?!-)[a-z0-9-]{1,63}…": a host name that does not start
// with "-"). ecmaRegexp compiles that one form as two RE2 expressions (the
// lookahead must not match at the start, the rest must match) and
// everything else with Go's regexp, so no regexp engine is added as a
// dependency. Another lookaround is refused when the schema compiles.

type lookaheadRegexp struct {
	src  string
	not  *regexp.Regexp // must not match at the start
	rest *regexp.Regexp
}

func (r lookaheadRegexp) String() string { return r.src }

func (r lookaheadRegexp) MatchString(s string) bool {
	return !r.not.MatchString(s) && r.rest.MatchString(s)
}

func ecmaRegexp(src string) (jsonschema.Regexp, error) {
	if strings.HasPrefix(src, "^(?!") {
		if end := closingParen(src, 1); end > 0 {
			not, err := regexp.Compile("^(?:" + src[4:end] + ")")
			if err != nil {
				return nil, err
			}
			rest, err := regexp.Compile("^" + src[end+1:])
			if err != nil {
				return nil, err
			}
			return lookaheadRegexp{src, not, rest}, nil
		}
	}
	return regexp.Compile(src)
}

// closingParen returns the index of the ")" closing the "(" at open, or -1.
func closingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
