package jcs

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/openwop/wopkit/internal/jsonlex"
	"github.com/openwop/wopkit/internal/werr"
)

// parser is a recursive-descent JSON reader that writes the canonical form
// of each value as it goes.
type parser struct {
	data []byte
	pos  int
	opts Options
}

// member is one parsed object member awaiting sorting.
type member struct {
	key   string // decoded key
	off   int    // offset of the key in the input, for errors
	value []byte // canonical value
}

func (p *parser) fail(code string, off int, format string, args ...any) *werr.Error {
	return newErr(code, p.data, off, format, args...)
}

// describe names the byte at off for an error message.
func (p *parser) describe(off int) string {
	if off >= len(p.data) {
		return "end of input"
	}
	c := p.data[off]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("character %q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (p *parser) skipWS() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses one JSON value at p.pos and appends its canonical form.
func (p *parser) value(out []byte, depth int) ([]byte, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail(CodeSyntax, p.pos, "unexpected end of input, expected a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(out, depth+1)
	case c == '[':
		return p.array(out, depth+1)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return appendString(out, s), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(out)
	case c == 't':
		return p.literal(out, "true")
	case c == 'f':
		return p.literal(out, "false")
	case c == 'n':
		return p.literal(out, "null")
	default:
		return nil, p.fail(CodeSyntax, p.pos, "unexpected %s, expected a value", p.describe(p.pos))
	}
}

func (p *parser) literal(out []byte, word string) ([]byte, error) {
	end := p.pos + len(word)
	if end > len(p.data) || string(p.data[p.pos:end]) != word {
		return nil, p.fail(CodeSyntax, p.pos, "invalid literal, expected %q", word)
	}
	p.pos = end
	return append(out, word...), nil
}

func (p *parser) object(out []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, p.fail(CodeSyntax, p.pos, "nesting deeper than %d levels", maxDepth)
	}
	p.pos++ // '{'
	var members []member
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return append(out, '{', '}'), nil
	}
	for {
		p.skipWS()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail(CodeSyntax, p.pos, "unexpected %s, expected an object key string", p.describe(p.pos))
		}
		koff := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipWS()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail(CodeSyntax, p.pos, "unexpected %s, expected ':' after object key", p.describe(p.pos))
		}
		p.pos++
		p.skipWS()
		v, err := p.value(nil, depth)
		if err != nil {
			return nil, err
		}
		members = append(members, member{key: key, off: koff, value: v})
		p.skipWS()
		if p.pos >= len(p.data) {
			return nil, p.fail(CodeSyntax, p.pos, "unexpected end of input, expected ',' or '}'")
		}
		if p.data[p.pos] == '}' {
			p.pos++
			break
		}
		if p.data[p.pos] != ',' {
			return nil, p.fail(CodeSyntax, p.pos, "unexpected %s, expected ',' or '}'", p.describe(p.pos))
		}
		p.pos++
	}
	slices.SortStableFunc(members, func(a, b member) int { return compareUTF16(a.key, b.key) })
	for i := 1; i < len(members); i++ {
		if members[i].key == members[i-1].key {
			later := max(members[i].off, members[i-1].off)
			return nil, p.fail(CodeDuplicateKey, later, "duplicate object key %q", members[i].key)
		}
	}
	out = append(out, '{')
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendString(out, m.key)
		out = append(out, ':')
		out = append(out, m.value...)
	}
	return append(out, '}'), nil
}

func (p *parser) array(out []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, p.fail(CodeSyntax, p.pos, "nesting deeper than %d levels", maxDepth)
	}
	p.pos++ // '['
	out = append(out, '[')
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return append(out, ']'), nil
	}
	for first := true; ; first = false {
		if !first {
			out = append(out, ',')
		}
		p.skipWS()
		var err error
		if out, err = p.value(out, depth); err != nil {
			return nil, err
		}
		p.skipWS()
		if p.pos >= len(p.data) {
			return nil, p.fail(CodeSyntax, p.pos, "unexpected end of input, expected ',' or ']'")
		}
		if p.data[p.pos] == ']' {
			p.pos++
			return append(out, ']'), nil
		}
		if p.data[p.pos] != ',' {
			return nil, p.fail(CodeSyntax, p.pos, "unexpected %s, expected ',' or ']'", p.describe(p.pos))
		}
		p.pos++
	}
}

// number scans a JSON number per RFC 8259 and appends its ES form.
func (p *parser) number(out []byte) ([]byte, error) {
	start := p.pos
	i, e := jsonlex.Number(p.data, p.pos)
	switch e.Problem {
	case jsonlex.NoDigit:
		return nil, p.fail(CodeSyntax, e.At, "invalid number, expected a digit")
	case jsonlex.NoFraction:
		return nil, p.fail(CodeSyntax, e.At, "invalid number, expected a digit after '.'")
	case jsonlex.NoExponent:
		return nil, p.fail(CodeSyntax, e.At, "invalid number, expected a digit in the exponent")
	}
	p.pos = i
	lit := string(p.data[start:i])
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil { // only ErrRange remains possible: the value overflows
		return nil, p.fail(CodeNumberRange, start, "number %s is outside the range of a 64-bit float", lit)
	}
	if p.opts.Strict && unsafeInteger(f) {
		return nil, p.fail(CodeNumberRange, start, "integer %s is beyond ±(2^53-1)", lit)
	}
	return appendNumber(out, f), nil
}
