package jcs

import (
	"unicode/utf16"
	"unicode/utf8"
)

// str scans a JSON string at p.pos and returns its decoded value.
func (p *parser) str() (string, error) {
	d := p.data
	p.pos++ // opening quote
	// Fast path: no escapes.
	start := p.pos
	var buf []byte
	for {
		if p.pos >= len(d) {
			return "", p.fail(CodeSyntax, p.pos, "unterminated string starting at byte %d", start-1)
		}
		c := d[p.pos]
		switch {
		case c == '"':
			s := string(d[start:p.pos])
			if buf != nil {
				s = string(buf)
			}
			p.pos++
			return s, nil
		case c == '\\':
			if buf == nil {
				buf = append([]byte{}, d[start:p.pos]...)
			}
			var err error
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.fail(CodeSyntax, p.pos, "control character 0x%02x must be escaped in a string", c)
		case c < utf8.RuneSelf:
			if buf != nil {
				buf = append(buf, c)
			}
			p.pos++
		default:
			r, size := utf8.DecodeRune(d[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.fail(CodeInvalidString, p.pos, "invalid UTF-8 byte 0x%02x in a string", c)
			}
			if buf != nil {
				buf = append(buf, d[p.pos:p.pos+size]...)
			}
			p.pos += size
		}
	}
}

// escape decodes one backslash escape at p.pos, appending it to buf.
func (p *parser) escape(buf []byte) ([]byte, error) {
	d := p.data
	at := p.pos
	if p.pos+1 >= len(d) {
		return nil, p.fail(CodeSyntax, at, "unterminated escape sequence")
	}
	c := d[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\\', '/':
		return append(buf, c), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
		r, ok := p.hex4()
		if !ok {
			return nil, p.fail(CodeSyntax, at, "invalid \\u escape, expected four hex digits")
		}
		if utf16.IsSurrogate(r) {
			if r >= 0xdc00 { // low surrogate first
				return nil, p.fail(CodeInvalidString, at, "lone low surrogate \\u%04x", r)
			}
			if p.pos+1 < len(d) && d[p.pos] == '\\' && d[p.pos+1] == 'u' {
				save := p.pos
				p.pos += 2
				r2, ok := p.hex4()
				if ok && r2 >= 0xdc00 && r2 <= 0xdfff {
					return utf8.AppendRune(buf, utf16.DecodeRune(r, r2)), nil
				}
				p.pos = save
			}
			return nil, p.fail(CodeInvalidString, at, "lone high surrogate \\u%04x", r)
		}
		return utf8.AppendRune(buf, r), nil
	default:
		return nil, p.fail(CodeSyntax, at, "invalid escape sequence \\%c", rune(c))
	}
}

// hex4 reads four hex digits at p.pos.
func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	p.pos += 4
	return r, true
}
