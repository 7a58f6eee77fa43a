package leaks

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"testing"
)

// gitleaksEncodings is gitleaks' own expression for the encoded parts of a
// text (detect/codec/encodings.go, v8.30.1, its groups in order of
// precedence), the reference encodingMatches is held to.
var gitleaksEncodings = regexp.MustCompile(`(?P<percent>%[0-9A-Fa-f]{2}(?:.*%[0-9A-Fa-f]{2})?)|(?P<unicode>(?:(?:U\+[a-fA-F0-9]{4}(?:\s|$))+|(?i)(?:\\{1,2}u[a-fA-F0-9]{4})+))|(?P<hex>[0-9A-Fa-f]{32,})|(?P<base64>[\w\/+-]{16,}={0,2})`)

// referenceMatches is gitleaks' findEncodingMatches over that expression.
func referenceMatches(b []byte) []encodingMatch {
	var all []encodingMatch
	for _, m := range gitleaksEncodings.FindAllSubmatchIndex(b, -1) {
		for g := 1; g <= 4; g++ {
			if m[2*g] >= 0 {
				all = append(all, encodingMatch{encodingKind(5 - g), m[2*g], m[2*g+1]})
			}
		}
	}
	if len(all) < 2 {
		return all
	}
	var kept []encodingMatch
	for i, m := range all {
		touch := func(o encodingMatch) bool { return o.start <= m.end && o.end >= m.start }
		if i > 0 && touch(all[i-1]) && all[i-1].kind > m.kind || i+1 < len(all) && touch(all[i+1]) && all[i+1].kind > m.kind {
			continue
		}
		kept = append(kept, m)
	}
	return kept
}

var encodingSeeds = []string{
	"%41%42 and %zz then %4",
	"a%41b\n%42%4",
	"U+0041 U+0042\nU+0043",
	"U+0041U+0042 U+004",
	`\u0041\\u0042\U0043\\\u0044`,
	"0123456789abcdef0123456789abcdefXYZ0123456789abcdef",
	"Z2hwX2FiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEyMzQ1Njc4OQ==",
	"aGVsbG8gd29ybGQ=%41", "abc_def-ghi/jkl+mnop==", "0123456789abcdef0123456789abcdeg",
	"", "%", "U+", `\u`,
}

// TestEncodingMatchesAsGitleaks: the hand-written matcher finds the parts
// gitleaks' expression finds.
func TestEncodingMatchesAsGitleaks(t *testing.T) {
	t.Parallel()
	Default()
	for _, s := range encodingSeeds {
		if got, want := encodingMatches([]byte(s), nil), referenceMatches([]byte(s)); !slices.Equal(got, want) {
			t.Errorf("%q: %v, gitleaks' expression %v", s, got, want)
		}
	}
}

// token36 is the body of a made-up GitHub token.
const token36 = "Xk9mQ2vL7pR4tW8zN3bC6fH1jD5gS0aY2eUq"

// TestFindDecodingDepth: gitleaks' decoding to depth 5 finds a token
// wrapped five times in base64, not six.
func TestFindDecodingDepth(t *testing.T) {
	t.Parallel()
	s, _ := Default()
	tok := "gh" + "p_" + token36
	wrap := "token=" + tok
	for depth := 1; depth <= 6; depth++ {
		wrap = base64.StdEncoding.EncodeToString([]byte(wrap))
		r, d, err := s.FindDecoding([]byte("x = \""+wrap+"\"\n"), 0, "a.txt", &Scratch{})
		switch {
		case err != nil:
			t.Fatal(err)
		case depth <= MaxDecodeDepth && (r == nil || r.ID != "github-pat" || d != depth):
			t.Errorf("depth %d: %v at %d", depth, r, d)
		case depth > MaxDecodeDepth && r != nil:
			t.Errorf("depth %d: found %s", depth, r.ID)
		}
	}
}

func ExampleSet_FindDecoding() {
	s, _ := Default()
	text := "cfg: " + base64.StdEncoding.EncodeToString([]byte("GITHUB_TOKEN=gh"+"p_"+token36))
	r, depth, _ := s.FindDecoding([]byte(text), 0, "cfg.yml", &Scratch{})
	fmt.Println(r.ID, depth)
	// Output: github-pat 1
}
