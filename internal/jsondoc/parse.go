// Package jsondoc decodes JSON documents as the user wrote them: every value
// and every object key keeps its byte range, so that problems can be reported
// by line and column and edits can be spliced into the original text without
// disturbing anything else. It refuses what OpenWOP signing cannot accept:
// duplicate keys, invalid UTF-8, lone surrogates.
//
// Its strings and numbers are read by internal/jsonlex, which jcs shares
// (issue 40 item 2); internal/untrusted keeps a reader of its own, fused
// with its checks: BenchmarkJSON measures why (jsonlex's package doc gives
// the figures).
package jsondoc

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/jsonlex"
)

// Kind is the JSON type of a Node.
type Kind uint8

// The JSON value kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Node is one JSON value with its position in the source.
type Node struct {
	Kind       Kind
	Start, End int            // byte range of the value in the source
	Str        string         // decoded string (String), or number text (Number)
	Bool       bool           // Bool
	Members    []Member       // Object members, in source order
	Items      []*Node        // Array items
	index      map[string]int // member index by key, for objects with many members
}

// Member is one object member.
type Member struct {
	Key              string
	KeyStart, KeyEnd int // byte range of the quoted key
	Value            *Node
}

// Get returns the value of the member named key, or nil.
func (n *Node) Get(key string) *Node {
	if m := n.Member(key); m != nil {
		return m.Value
	}
	return nil
}

// Member returns the member named key, or nil.
func (n *Node) Member(key string) *Member {
	if n == nil || n.Kind != Object {
		return nil
	}
	if n.index != nil && len(n.index) == len(n.Members) {
		if i, ok := n.index[key]; ok && n.Members[i].Key == key {
			return &n.Members[i]
		}
		return nil
	}
	for i := range n.Members {
		if n.Members[i].Key == key {
			return &n.Members[i]
		}
	}
	return nil
}

// Text returns the node's string value, or "" when it is not a string.
func (n *Node) Text() string {
	if n == nil || n.Kind != String {
		return ""
	}
	return n.Str
}

// Limits bound what Parse accepts, so hostile input costs bounded memory.
type Limits struct {
	MaxBytes int // largest document accepted
	MaxDepth int // deepest nesting accepted
	// MaxNodes bounds the number of values (each costs a Node, about 130
	// bytes: a 5 MB array of small numbers is 2.6 million of them); 0 means
	// no bound.
	MaxNodes int
}

// DefaultLimits suit manifests: the registry caps pack.json at 256 KB; local
// documents get more room.
//
// MaxNodes: the largest published pack.json has a few thousand values;
// 250,000 keeps a hostile document near 32 MiB parsed.
var DefaultLimits = Limits{MaxBytes: 16 << 20, MaxDepth: 256, MaxNodes: 250_000}

// SyntaxError is a decoding failure at a position in the source.
type SyntaxError struct {
	Code   string // stable code: json_syntax, json_duplicate_key, json_encoding, json_empty, json_too_large, json_too_deep, json_too_many_nodes
	Msg    string
	Offset int
	Line   int
	Column int
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
}

// Parse decodes src into a Doc with the default limits.
func Parse(src []byte) (*Doc, error) { return ParseLimits(src, DefaultLimits) }

// ParseLimits decodes src into a Doc, refusing input beyond lim.
func ParseLimits(src []byte, lim Limits) (*Doc, error) {
	d := &Doc{Src: src}
	if len(src) > lim.MaxBytes {
		return nil, d.errAt("json_too_large", 0, fmt.Sprintf("document is %d bytes, more than the %d bytes allowed", len(src), lim.MaxBytes))
	}
	p := parser{src: src, doc: d, maxDepth: lim.MaxDepth, maxNodes: lim.MaxNodes}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		return nil, d.errAt("json_encoding", 0, "document starts with a UTF-8 byte-order mark; save it without a BOM")
	}
	if !utf8.Valid(src) {
		off := firstInvalidUTF8(src)
		return nil, d.errAt("json_encoding", off, "document is not valid UTF-8; save it as UTF-8")
	}
	p.skipSpace()
	if p.pos >= len(src) {
		return nil, d.errAt("json_empty", p.pos, "document is empty; a manifest is one JSON object")
	}
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(src) {
		return nil, d.errAt("json_syntax", p.pos, "unexpected "+p.describe()+" after the end of the document")
	}
	d.Root = root
	return d, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

type parser struct {
	src      []byte
	pos      int
	doc      *Doc
	maxDepth int
	maxNodes int // 0: no bound
	nodes    int
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) describe() string {
	if p.pos >= len(p.src) {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *parser) fail(msg string) error {
	return p.doc.errAt("json_syntax", p.pos, msg)
}

func (p *parser) value(depth int) (*Node, error) {
	if depth > p.maxDepth {
		return nil, p.doc.errAt("json_too_deep", p.pos, fmt.Sprintf("nesting deeper than %d levels", p.maxDepth))
	}
	if p.nodes++; p.maxNodes > 0 && p.nodes > p.maxNodes {
		return nil, p.doc.errAt("json_too_many_nodes", p.pos, fmt.Sprintf("the document holds more than %d values, more than wopkit reads in one document", p.maxNodes))
	}
	p.skipSpace()
	if p.pos >= len(p.src) {
		return nil, p.fail("unexpected end of file: a value is missing")
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Node{Kind: String, Start: start, End: p.pos, Str: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		for _, lit := range [...]struct {
			word string
			kind Kind
			val  bool
		}{{"true", Bool, true}, {"false", Bool, false}, {"null", Null, false}} {
			if len(p.src)-p.pos >= len(lit.word) && string(p.src[p.pos:p.pos+len(lit.word)]) == lit.word {
				p.pos += len(lit.word)
				return &Node{Kind: lit.kind, Start: start, End: p.pos, Bool: lit.val}, nil
			}
		}
		return nil, p.fail("unexpected " + p.describe() + ": expected a value (object, array, string, number, true, false or null)")
	}
}

func (p *parser) object(depth int) (*Node, error) {
	n := &Node{Kind: Object, Start: p.pos}
	p.pos++ // {
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		n.End = p.pos
		return n, nil
	}
	var seen map[string]int // member index by key, built only for objects with many members
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return nil, p.fail("unexpected " + p.describe() + ": expected a quoted property name")
		}
		ks := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		ke := p.pos
		prev := -1
		if seen != nil {
			if at, dup := seen[key]; dup {
				prev = n.Members[at].KeyStart
			}
			seen[key] = len(n.Members)
		} else {
			for i := range n.Members {
				if n.Members[i].Key == key {
					prev = n.Members[i].KeyStart
					break
				}
			}
			if len(n.Members) == 16 {
				seen = make(map[string]int, 32)
				for i, m := range n.Members {
					seen[m.Key] = i
				}
				seen[key] = len(n.Members)
			}
		}
		if prev >= 0 {
			pl, pc := p.doc.Position(prev)
			return nil, p.doc.errAt("json_duplicate_key", ks, fmt.Sprintf("duplicate key %q (first at %d:%d); remove one: signatures need each key once", key, pl, pc))
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.fail("unexpected " + p.describe() + ": expected ':' after the property name")
		}
		p.pos++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Members = append(n.Members, Member{Key: key, KeyStart: ks, KeyEnd: ke, Value: v})
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, p.fail("unexpected end of file: an object is not closed with '}'")
		}
		switch p.src[p.pos] {
		case ',':
			comma := p.pos
			p.pos++
			p.skipSpace()
			if p.pos < len(p.src) && p.src[p.pos] == '}' {
				return nil, p.doc.errAt("json_syntax", comma, "trailing comma before '}': remove the comma")
			}
		case '}':
			p.pos++
			n.End = p.pos
			n.index = seen
			return n, nil
		default:
			return nil, p.fail("unexpected " + p.describe() + ": expected ',' or '}' (a comma may be missing)")
		}
	}
}

func (p *parser) array(depth int) (*Node, error) {
	n := &Node{Kind: Array, Start: p.pos}
	p.pos++ // [
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		n.End = p.pos
		return n, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Items = append(n.Items, v)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, p.fail("unexpected end of file: an array is not closed with ']'")
		}
		switch p.src[p.pos] {
		case ',':
			comma := p.pos
			p.pos++
			p.skipSpace()
			if p.pos < len(p.src) && p.src[p.pos] == ']' {
				return nil, p.doc.errAt("json_syntax", comma, "trailing comma before ']': remove the comma")
			}
		case ']':
			p.pos++
			n.End = p.pos
			return n, nil
		default:
			return nil, p.fail("unexpected " + p.describe() + ": expected ',' or ']' (a comma may be missing)")
		}
	}
}

func (p *parser) number() (*Node, error) {
	start := p.pos
	end, e := jsonlex.Number(p.src, p.pos)
	p.pos = end
	switch e.Problem {
	case jsonlex.NoDigit:
		return nil, p.fail("invalid number: a digit is expected")
	case jsonlex.NoFraction:
		return nil, p.fail("invalid number: digits are expected after '.'")
	case jsonlex.NoExponent:
		return nil, p.fail("invalid number: digits are expected in the exponent")
	}
	return &Node{Kind: Number, Start: start, End: end, Str: string(p.src[start:end])}, nil
}

// str decodes a string token at p.pos (which is '"'); the text is UTF-8
// already (ParseLimits checked it).
func (p *parser) str() (string, error) {
	v, end, e := jsonlex.String(p.src, p.pos, false)
	p.pos = end
	if e.Problem == jsonlex.OK {
		return v, nil
	}
	p.pos = e.At
	switch e.Problem {
	case jsonlex.Unterminated:
		return "", p.fail("unexpected end of file inside a string: a closing '\"' is missing")
	case jsonlex.Control:
		return "", p.fail("control character in a string: write it as an escape such as \\n or \\t")
	case jsonlex.EscapeEnd:
		return "", p.fail("unexpected end of file in an escape sequence")
	case jsonlex.BadHex:
		return "", p.fail("invalid \\u escape: four hex digits are expected")
	case jsonlex.LoneLow, jsonlex.LoneHigh:
		return "", p.doc.errAt("json_encoding", e.At, "lone UTF-16 surrogate in a \\u escape; write the character itself or a valid surrogate pair")
	default: // BadEscape
		return "", p.fail(fmt.Sprintf("invalid escape \\%c in a string", e.Char))
	}
}

// Value converts n to the plain Go form encoding/json produces with
// UseNumber: map[string]any, []any, string, json.Number, bool, nil.
func (n *Node) Value() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Object:
		m := make(map[string]any, len(n.Members))
		for _, mb := range n.Members {
			m[mb.Key] = mb.Value.Value()
		}
		return m
	case Array:
		a := make([]any, len(n.Items))
		for i, it := range n.Items {
			a[i] = it.Value()
		}
		return a
	case String:
		return n.Str
	case Number:
		return json.Number(n.Str)
	case Bool:
		return n.Bool
	}
	return nil
}
