package jcs

import "github.com/openwop/wopkit/internal/jsonlex"

// str scans a JSON string at p.pos and returns its decoded value.
func (p *parser) str() (string, error) {
	start := p.pos
	v, end, e := jsonlex.String(p.data, p.pos, true)
	p.pos = end
	switch e.Problem {
	case jsonlex.OK:
		return v, nil
	case jsonlex.Unterminated:
		return "", p.fail(CodeSyntax, e.At, "unterminated string starting at byte %d", start)
	case jsonlex.Control:
		return "", p.fail(CodeSyntax, e.At, "control character 0x%02x must be escaped in a string", p.data[e.At])
	case jsonlex.InvalidUTF8:
		return "", p.fail(CodeInvalidString, e.At, "invalid UTF-8 byte 0x%02x in a string", p.data[e.At])
	case jsonlex.EscapeEnd:
		return "", p.fail(CodeSyntax, e.At, "unterminated escape sequence")
	case jsonlex.BadHex:
		return "", p.fail(CodeSyntax, e.At, "invalid \\u escape, expected four hex digits")
	case jsonlex.LoneLow:
		return "", p.fail(CodeInvalidString, e.At, "lone low surrogate \\u%04x", e.Rune)
	case jsonlex.LoneHigh:
		return "", p.fail(CodeInvalidString, e.At, "lone high surrogate \\u%04x", e.Rune)
	default: // BadEscape
		return "", p.fail(CodeSyntax, e.At, "invalid escape sequence \\%c", rune(e.Char))
	}
}
