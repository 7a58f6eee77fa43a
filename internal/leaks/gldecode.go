package leaks

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// gitleaks' decoding (its detect/codec package, v8.30.1): before each of up
// to MaxDecodeDepth further passes, the text's encoded parts are decoded in
// place, and the rules run again; a match counts in a later pass only when
// it touches a part decoded in that pass. The encodings, in this order of
// precedence, are those of gitleaks' one expression
//
//	(?P<percent>%[0-9A-Fa-f]{2}(?:.*%[0-9A-Fa-f]{2})?)
//	|(?P<unicode>(?:(?:U\+[a-fA-F0-9]{4}(?:\s|$))+|(?i)(?:\\{1,2}u[a-fA-F0-9]{4})+))
//	|(?P<hex>[0-9A-Fa-f]{32,})
//	|(?P<base64>[\w\/+-]{16,}={0,2})
//
// matched here by hand in one pass (encodingMatches; a test holds it to the
// expression), each part decoded as gitleaks decodes it: to printable ASCII
// only, else left as it is.

// MaxDecodeDepth is gitleaks' command line's default --max-decode-depth.
const MaxDecodeDepth = 5

type encodingKind int

const (
	percentKind encodingKind = 4 - iota // the precedence
	unicodeKind
	hexKind
	base64Kind
)

// encodingMatch is a part of a text in one encoding.
type encodingMatch struct {
	kind       encodingKind
	start, end int
}

// hexDigit and base64Byte are the classes of the hex and base64 parts,
// encodingByte the bytes a part can start with; filled by compile (nothing
// runs at start-up).
var hexDigit, base64Byte, encodingByte [256]bool

func fillDecodeTables() {
	for c := range 256 {
		hexDigit[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
		base64Byte[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '/' || c == '+' || c == '-'
		encodingByte[c] = base64Byte[c] || c == '%' || c == '\\'
	}
	codePointRe = regexp.MustCompile(`U\+([a-fA-F0-9]{4}).?`)
	multiCodePointRe = regexp.MustCompile(`(?:U\+[a-fA-F0-9]{4}(?:\s|$))+`)
	escapeRe = regexp.MustCompile(`(?i)\\{1,2}u([a-fA-F0-9]{4})`)
	multiEscapeRe = regexp.MustCompile(`(?i)(?:\\{1,2}u[a-fA-F0-9]{4})+`)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func hex2(b []byte, i int) bool { return i+1 < len(b) && hexDigit[b[i]] && hexDigit[b[i+1]] }

func hexN(b []byte, i, n int) bool {
	if i+n > len(b) {
		return false
	}
	for _, c := range b[i : i+n] {
		if !hexDigit[c] {
			return false
		}
	}
	return true
}

// encodingMatches is gitleaks' findEncodingMatches: the leftmost-first,
// non-overlapping matches of its expression, less a match that touches a
// neighbour of higher precedence.
func encodingMatches(b []byte, out []encodingMatch) []encodingMatch {
	out = out[:0]
	hexEnd, b64End := -1, -1 // the ends of the runs of hex digits and base64 bytes that hold the current position
	for p := 0; p < len(b); {
		for p < len(b) && !encodingByte[b[p]] {
			p++ // no part starts here
		}
		if p == len(b) {
			break
		}
		c := b[p]
		if p >= hexEnd {
			hexEnd = p
			for hexEnd < len(b) && hexDigit[b[hexEnd]] {
				hexEnd++
			}
		}
		if p >= b64End {
			b64End = p
			for b64End < len(b) && base64Byte[b[b64End]] {
				b64End++
			}
		}
		var m encodingMatch
		switch {
		case c == '%' && hex2(b, p+1):
			end := p + 3
			lineEnd := len(b)
			if nl := bytes.IndexByte(b[end:], '\n'); nl >= 0 {
				lineEnd = end + nl
			}
			for q := lineEnd - 3; q >= p+3; q-- {
				if b[q] == '%' && hex2(b, q+1) {
					end = q + 3
					break
				}
			}
			m = encodingMatch{percentKind, p, end}
		case c == 'U' && p+1 < len(b) && b[p+1] == '+' && hexN(b, p+2, 4) && (p+6 == len(b) || isSpace(b[p+6])):
			e := p
			for e+1 < len(b) && b[e] == 'U' && b[e+1] == '+' && hexN(b, e+2, 4) && (e+6 == len(b) || isSpace(b[e+6])) {
				e = min(e+7, len(b))
			}
			m = encodingMatch{unicodeKind, p, e}
		case c == '\\' && escapeAt(b, p) > 0:
			e := p
			for n := escapeAt(b, e); n > 0; n = escapeAt(b, e) {
				e += n
			}
			m = encodingMatch{unicodeKind, p, e}
		case hexEnd-p >= 32:
			m = encodingMatch{hexKind, p, hexEnd}
		case b64End-p >= 16:
			e := b64End
			for k := 0; k < 2 && e < len(b) && b[e] == '='; k++ {
				e++
			}
			m = encodingMatch{base64Kind, p, e}
		case base64Byte[c]:
			// b64End-p < 16: no part starts before b64End but a code point's "U+"
			if u := bytes.IndexByte(b[p+1:b64End], 'U'); u >= 0 {
				p += 1 + u
			} else {
				p = b64End
			}
			continue
		default:
			p++
			continue
		}
		out = append(out, m)
		p = m.end
	}
	if len(out) < 2 {
		return out
	}
	kept := out[:0:0]
	for i, m := range out {
		touches := func(o encodingMatch) bool { return o.start <= m.end && o.end >= m.start }
		if i > 0 && touches(out[i-1]) && out[i-1].kind > m.kind || i+1 < len(out) && touches(out[i+1]) && out[i+1].kind > m.kind {
			continue
		}
		kept = append(kept, m)
	}
	return kept
}

// escapeAt is the length of a \uXXXX or \\uXXXX escape (u in either case)
// at b[p], or 0.
func escapeAt(b []byte, p int) int {
	if p >= len(b) || b[p] != '\\' {
		return 0
	}
	if p+2 < len(b) && b[p+1] == '\\' && (b[p+2] == 'u' || b[p+2] == 'U') && hexN(b, p+3, 4) {
		return 7
	}
	if p+1 < len(b) && (b[p+1] == 'u' || b[p+1] == 'U') && hexN(b, p+2, 4) {
		return 6
	}
	return 0
}

// printable is gitleaks' printableASCII: tab to tilde, and the bytes 0x09-0x0d.
func printable(c byte) bool { return c > 0x08 && c < 0x7f }

func allPrintable(b []byte) bool {
	for _, c := range b {
		if !printable(c) {
			return false
		}
	}
	return true
}

func decodeEncoded(kind encodingKind, s string) string {
	switch kind {
	case percentKind:
		return decodePercent(s)
	case unicodeKind:
		return decodeUnicode(s)
	case hexKind:
		return decodeHex(s)
	}
	return decodeBase64(s)
}

func decodeBase64(s string) string {
	if !strings.ContainsAny(s, "0123456789+/-_") {
		return ""
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && allPrintable(b) {
		return string(b)
	}
	if b, err := base64.RawURLEncoding.DecodeString(s); err == nil && allPrintable(b) {
		return string(b)
	}
	return ""
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0xff
}

func decodeHex(s string) string {
	if len(s)%2 != 0 || !strings.ContainsAny(s, "0123456789") {
		return ""
	}
	out := make([]byte, len(s)/2)
	for i := 0; i < len(s); i += 2 {
		n1, n2 := unhex(s[i]), unhex(s[i+1])
		if n1|n2 == 0xff {
			return ""
		}
		if out[i/2] = n1<<4 | n2; !printable(out[i/2]) {
			return ""
		}
	}
	return string(out)
}

func decodePercent(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] == '%' && i+2 < len(s) {
			if n1, n2 := unhex(s[i+1]), unhex(s[i+2]); n1|n2 != 0xff {
				c := n1<<4 | n2
				if !printable(c) {
					return ""
				}
				out = append(out, c)
				i += 3
				continue
			}
		}
		out = append(out, s[i])
		i++
	}
	return string(out)
}

// The expressions of gitleaks' decodeUnicode, which runs on one match
// (compiled by fillDecodeTables).
var codePointRe, multiCodePointRe, escapeRe, multiEscapeRe *regexp.Regexp

// decodeUnicode is gitleaks' decodeUnicode.
func decodeUnicode(s string) string {
	if ms := multiCodePointRe.FindAllString(s, -1); len(ms) > 0 {
		for _, m := range ms {
			var runes []rune
			for _, cp := range strings.Fields(m) {
				if !strings.HasPrefix(cp, "U+") || len(cp) < 6 {
					continue
				}
				if n, err := strconv.ParseInt(cp[2:], 16, 32); err == nil {
					runes = append(runes, rune(n))
				}
			}
			if d := string(runes); len(runes) > 0 && d != m {
				s = strings.Replace(s, m, d, 1)
			}
		}
		return s
	}
	if ms := multiEscapeRe.FindAllString(s, -1); len(ms) > 0 {
		for _, m := range ms {
			var runes []rune
			for _, e := range escapeRe.FindAllStringSubmatch(m, -1) {
				if n, err := strconv.ParseInt(e[1], 16, 32); err == nil {
					runes = append(runes, rune(n))
				}
			}
			if d := string(runes); len(runes) > 0 && d != m {
				s = strings.Replace(s, m, d, 1)
			}
		}
		return s
	}
	data := []byte(s)
	var result []byte
	if codePointRe.Match(data) {
		result = replaceEscapes(bytes.Clone(data), codePointRe, true)
	}
	if len(result) == 0 || escapeRe.Match(data) {
		if len(result) > 0 {
			result = replaceEscapes(result, escapeRe, false)
		} else {
			result = replaceEscapes(bytes.Clone(data), escapeRe, false)
		}
	}
	if len(result) == 0 || bytes.Equal(result, data) {
		return s
	}
	return string(result)
}

// replaceEscapes is gitleaks' decodeIndividualCodePoints (codePoints) and
// decodeIndividualEscapes.
func replaceEscapes(in []byte, re *regexp.Regexp, codePoints bool) []byte {
	idx := re.FindAllSubmatchIndex(in, -1)
	for i := len(idx) - 1; i >= 0; i-- {
		m := idx[i]
		start, end := m[0], m[1]
		if codePoints {
			if end != m[3] && end < len(in) && in[end-1] == ' ' {
				end--
			}
		} else {
			end = m[3]
		}
		n, err := strconv.ParseInt(string(in[m[2]:m[3]]), 16, 32)
		if err != nil {
			continue
		}
		r := utf8.AppendRune(nil, rune(n))
		in = append(in[:start], append(r, in[end:]...)...)
	}
	return in
}

// unicodeCost is what a byte of a unicode part costs to decode (its four
// expressions run over it), against 1 for the other encodings.
const unicodeCost = 32

// decodePass is gitleaks' Decoder.Decode: b with its encoded parts decoded
// in place, and where the decoded parts are in it (none: nothing decoded).
// The work is charged to sc.
func decodePass(b []byte, sc *Scratch) ([]byte, []region, error) {
	if sc.charge(int64(len(b))) {
		return nil, nil, ErrBudget
	}
	sc.matches = encodingMatches(b, sc.matches)
	var out []byte
	var segs []region
	at := 0
	for _, m := range sc.matches {
		cost := int64(m.end - m.start)
		if m.kind == unicodeKind {
			cost *= unicodeCost
		}
		if sc.charge(cost) {
			return nil, nil, ErrBudget
		}
		d := decodeEncoded(m.kind, string(b[m.start:m.end]))
		if d == "" {
			continue
		}
		out = append(out, b[at:m.start]...)
		segs = append(segs, region{len(out), len(out) + len(d)})
		out = append(out, d...)
		at = m.end
	}
	if len(segs) == 0 {
		return b, nil, nil
	}
	return append(out, b[at:]...), segs, nil
}

// FindDecoding is Find on text, then, as gitleaks does, on up to
// MaxDecodeDepth decodings of it (see decodePass), each only where it
// changed. depth is the pass that found the rule (0: text as it is).
func (s *Set) FindDecoding(text []byte, seen int, path string, sc *Scratch) (r *Rule, depth int, err error) {
	if r, err := s.Find(text, seen, path, sc); r != nil || err != nil {
		return r, 0, err
	}
	if s.PathAllowed(path) {
		return nil, 0, nil
	}
	cur := text
	for depth := 1; depth <= MaxDecodeDepth; depth++ {
		next, segs, err := decodePass(cur, sc)
		if err != nil || segs == nil {
			return nil, 0, err
		}
		if r, err := s.find(next, 0, segs, path, sc); r != nil || err != nil {
			return r, depth, err
		}
		cur = next
	}
	return nil, 0, nil
}
