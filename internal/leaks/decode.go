package leaks

import (
	"bytes"
	"unicode/utf8"
)

// Decoded returns the other readings of b a credential may hide behind:
// UTF-16 text as UTF-8 (a token saved by a Windows editor), and JSON
// string escapes resolved (\u0041 for A, \/ for /), each only when b looks
// like it. The scan runs on b and on each of them. buf is reused.
func Decoded(b []byte, buf *[2][]byte) [][]byte {
	var out [][]byte
	if u := utf16Text(b, buf[0][:0]); u != nil {
		buf[0] = u
		out = append(out, u)
	}
	for _, v := range append([][]byte{b}, out...) {
		if j := jsonUnescaped(v, buf[1][:0]); j != nil {
			buf[1] = j
			out = append(out, j)
			break
		}
	}
	return out
}

// utf16Text reads b as UTF-16 (little or big endian, from either byte
// parity) when most of its NUL bytes sit at one parity and they are at
// least a quarter of b: the characters below U+0100 kept as their byte,
// the others as U+FFFD. nil when b does not look like UTF-16.
func utf16Text(b, out []byte) []byte {
	if len(b) < 8 {
		return nil
	}
	var zeros [2]int
	for i, c := range b {
		if c == 0 {
			zeros[i&1]++
		}
	}
	half := len(b) / 2
	p := 0
	if zeros[0] > zeros[1] {
		p = 1 // NULs at even offsets: the characters' low bytes are at odd ones
	}
	if zeros[1-p] < half/4 || zeros[p] > zeros[1-p]/8 {
		return nil
	}
	z := 1 - p // the parity of the NUL (high) bytes
	for i := p; i < len(b); i += 2 {
		hi := byte(0)
		if j := i - p + z; j >= 0 && j < len(b) && j != i {
			hi = b[j]
		}
		switch c := b[i]; {
		case hi != 0:
			out = utf8.AppendRune(out, utf8.RuneError)
		case c < 0x80:
			out = append(out, c)
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return out
}

// jsonUnescaped resolves JSON's \uXXXX and \/ escapes in b (other escapes
// kept as written); nil when b has none.
func jsonUnescaped(b, out []byte) []byte {
	if !bytes.Contains(b, []byte(`\u`)) && !bytes.Contains(b, []byte(`\/`)) {
		return nil
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		switch b[i+1] {
		case '/':
			out = append(out, '/')
			i++
		case '\\':
			out = append(out, '\\', '\\')
			i++
		case 'u':
			if r, ok := hex4(b[i+2:]); ok {
				out = utf8.AppendRune(out, r)
				i += 5
				continue
			}
			out = append(out, b[i])
		default:
			out = append(out, b[i])
		}
	}
	return out
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
