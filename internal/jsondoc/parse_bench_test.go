package jsondoc_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/untrusted"
)

// BenchmarkJSON measures what one shared lexer would cost (issue 40 item
// 2): a positioned pull lexer (token kind and byte range, strings checked
// for escapes and UTF-8, numbers for their grammar, nesting) alone, beside
// each package's whole reading of the same text: untrusted's check
// (duplicates in any letter case, limits), jsondoc's tree, jcs's canonical
// form. The package docs give the figures and the decision.
//
//	go test ./internal/jsondoc -run '^$' -bench JSON -count 5
func BenchmarkJSON(b *testing.B) {
	for _, name := range []string{"pack", "index"} {
		d := docs(b)[name]
		b.Run(name+"/sharedlexer", func(b *testing.B) {
			b.SetBytes(int64(len(d)))
			for b.Loop() {
				if _, err := walk(d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/jcs", func(b *testing.B) {
			b.SetBytes(int64(len(d)))
			for b.Loop() {
				if _, err := jcs.Canonicalize(d, jcs.Options{Strict: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/jsondoc", func(b *testing.B) {
			b.SetBytes(int64(len(d)))
			for b.Loop() {
				if _, err := jsondoc.Parse(d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/untrusted", func(b *testing.B) {
			b.SetBytes(int64(len(d)))
			for b.Loop() {
				if err := untrusted.CheckJSON(d, untrusted.JSONLimits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// docs are the largest registry pack.json (13.9 KB) and a registry index
// of 1,000 packs (277 KB, about the real v2/index.json).
func docs(b *testing.B) map[string][]byte {
	src, err := os.ReadFile(fixtures.Path(b, "source-packs", "core.openwop.a2a", "pack.json"))
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString(`{"generatedAt":"2026-11-01T00:00:00.000Z","packs":[`)
	for i := range 1000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"vendor.acme.pack%d","latest":"1.%d.0","kind":"node","description":"A pack that does thing %d","license":"Apache-2.0","keywords":["a","b","c"],"nodes":%d,"agents":0,"signingKeyId":"openwop-team-1","signingScheme":"ed25519-canonical-json","deprecated":false,"versions":["1.0.0","1.%d.0"]}`, i, i, i, i%7, i)
	}
	sb.WriteString(`]}`)
	return map[string][]byte{"pack": src, "index": []byte(sb.String())}
}

// The lexer measured: what jsondoc, untrusted and jcs would share.

type Kind byte

const (
	EOF Kind = iota
	BeginObject
	EndObject
	BeginArray
	EndArray
	Colon
	Comma
	String
	Number
	True
	False
	Null
)

type Tok struct {
	Kind       Kind
	Start, End int
	Escaped    bool
}

type Lexer struct {
	src []byte
	i   int
}

var errSyntax = errors.New("syntax")

func (l *Lexer) Next() (Tok, error) {
	s := l.src
	i := l.i
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	if i >= len(s) {
		l.i = i
		return Tok{Kind: EOF, Start: i, End: i}, nil
	}
	start := i
	var k Kind
	switch c := s[i]; c {
	case '{':
		k, i = BeginObject, i+1
	case '}':
		k, i = EndObject, i+1
	case '[':
		k, i = BeginArray, i+1
	case ']':
		k, i = EndArray, i+1
	case ':':
		k, i = Colon, i+1
	case ',':
		k, i = Comma, i+1
	case '"':
		esc := false
		i++
		for {
			if i >= len(s) {
				return Tok{}, errSyntax
			}
			c := s[i]
			if c == '"' {
				i++
				break
			}
			if c == '\\' {
				esc = true
				if i+1 >= len(s) {
					return Tok{}, errSyntax
				}
				switch s[i+1] {
				case 'u':
					if i+5 >= len(s) {
						return Tok{}, errSyntax
					}
					i += 6
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					i += 2
				default:
					return Tok{}, errSyntax
				}
				continue
			}
			if c < 0x20 {
				return Tok{}, errSyntax
			}
			if c >= 0x80 {
				r, n := utf8.DecodeRune(s[i:])
				if r == utf8.RuneError && n == 1 {
					return Tok{}, errSyntax
				}
				i += n
				continue
			}
			i++
		}
		l.i = i
		return Tok{Kind: String, Start: start, End: i, Escaped: esc}, nil
	case 't':
		if len(s)-i < 4 || string(s[i:i+4]) != "true" {
			return Tok{}, errSyntax
		}
		k, i = True, i+4
	case 'f':
		if len(s)-i < 5 || string(s[i:i+5]) != "false" {
			return Tok{}, errSyntax
		}
		k, i = False, i+5
	case 'n':
		if len(s)-i < 4 || string(s[i:i+4]) != "null" {
			return Tok{}, errSyntax
		}
		k, i = Null, i+4
	default:
		if c != '-' && (c < '0' || c > '9') {
			return Tok{}, errSyntax
		}
		if c == '-' {
			i++
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i < len(s) && s[i] == '.' {
			i++
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		}
		if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
			i++
			if i < len(s) && (s[i] == '+' || s[i] == '-') {
				i++
			}
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		}
		k = Number
	}
	l.i = i
	return Tok{Kind: k, Start: start, End: i}, nil
}

// walk lexes all tokens, checking nesting (the grammar a parser on top checks).
func walk(src []byte) (int, error) {
	l := &Lexer{src: src}
	var stack []Kind
	n := 0
	for {
		t, err := l.Next()
		if err != nil {
			return n, err
		}
		n++
		switch t.Kind {
		case EOF:
			return n, nil
		case BeginObject, BeginArray:
			stack = append(stack, t.Kind)
		case EndObject, EndArray:
			stack = stack[:len(stack)-1]
		}
	}
}
