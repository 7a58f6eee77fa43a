package lsp

import (
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// lines indexes a document's text by line, to turn LSP positions (line and
// UTF-16 code unit, the protocol's default encoding) into byte offsets and
// back. Problems from validate count columns in characters (code points),
// which differ from UTF-16 units beyond the Basic Multilingual Plane.
type lines struct {
	src    []byte
	starts []int
}

func newLines(src []byte) *lines {
	l := &lines{src: src, starts: make([]int, 1, 64)}
	for i, b := range src {
		if b == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// lineEnd is the byte offset of the end of line i (0-based), before "\r\n".
func (l *lines) lineEnd(i int) int {
	end := len(l.src)
	if i+1 < len(l.starts) {
		end = l.starts[i+1] - 1
	}
	if end > l.starts[i] && end <= len(l.src) && end > 0 && l.src[end-1] == '\r' {
		end--
	}
	return end
}

// offset converts an LSP position to a byte offset, clamped to the text.
func (l *lines) offset(p protocol.Position) int {
	li := int(p.Line)
	if li >= len(l.starts) {
		return len(l.src)
	}
	off, end := l.starts[li], l.lineEnd(li)
	for units := 0; off < end && units < int(p.Character); {
		r, n := utf8.DecodeRune(l.src[off:end])
		units += utf16Len(r)
		off += n
	}
	return off
}

// position converts a byte offset to an LSP position.
func (l *lines) position(off int) protocol.Position {
	off = max(0, min(off, len(l.src)))
	li := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	li = max(li, 0)
	units := 0
	for i := l.starts[li]; i < off; {
		r, n := utf8.DecodeRune(l.src[i:off])
		units += utf16Len(r)
		i += n
	}
	return protocol.Position{Line: uint32(li), Character: uint32(units)}
}

// lineCol converts validate's 1-based line and character column to a byte
// offset.
func (l *lines) lineCol(line, col int) int {
	li := line - 1
	if li < 0 {
		return 0
	}
	if li >= len(l.starts) {
		return len(l.src)
	}
	off, end := l.starts[li], l.lineEnd(li)
	for c := 1; c < col && off < end; c++ {
		_, n := utf8.DecodeRune(l.src[off:end])
		off += n
	}
	return off
}

func (l *lines) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: l.position(start), End: l.position(end)}
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// spanAt returns the byte range to underline for a problem located at off:
// the key when off is a member's key, the whole value when it is a scalar,
// the opening bracket of an object or array (as vscode-json-languageservice
// does for a missing property), else one character.
func spanAt(doc *jsondoc.Doc, off int) (int, int) {
	if doc != nil && doc.Root != nil {
		n := doc.Root
		for n != nil {
			if n.Start == off {
				if n.Kind == jsondoc.Object || n.Kind == jsondoc.Array {
					return off, off + 1
				}
				return n.Start, n.End
			}
			var next *jsondoc.Node
			switch n.Kind {
			case jsondoc.Object:
				for i := range n.Members {
					m := &n.Members[i]
					if m.KeyStart == off {
						return m.KeyStart, m.KeyEnd
					}
					if off >= m.Value.Start && off < m.Value.End {
						next = m.Value
						break
					}
				}
			case jsondoc.Array:
				for _, it := range n.Items {
					if off >= it.Start && off < it.End {
						next = it
						break
					}
				}
			}
			n = next
		}
	}
	if doc == nil {
		return off, off + 1
	}
	return off, min(off+1, len(doc.Src))
}

// target is what sits at a byte offset of a parsed document.
type target struct {
	pointer string          // the value's pointer (the member's, on a key)
	node    *jsondoc.Node   // the value
	member  *jsondoc.Member // the member, when the offset is on its key or value
	onKey   bool
	parent  string // the pointer of the enclosing container
}

// targetAt finds the deepest value (or member key) containing off.
func targetAt(doc *jsondoc.Doc, off int) target {
	t := target{node: doc.Root}
	n := doc.Root
	for n != nil {
		var next *jsondoc.Node
		switch n.Kind {
		case jsondoc.Object:
			for i := range n.Members {
				m := &n.Members[i]
				if off >= m.KeyStart && off <= m.KeyEnd {
					return target{pointer: jsondoc.Child(t.pointer, m.Key), node: m.Value, member: m, onKey: true, parent: t.pointer}
				}
				if off >= m.Value.Start && off < m.Value.End || off == m.Value.End && m.Value.Kind != jsondoc.Object && m.Value.Kind != jsondoc.Array {
					t = target{pointer: jsondoc.Child(t.pointer, m.Key), node: m.Value, member: m, parent: t.pointer}
					next = m.Value
					break
				}
			}
		case jsondoc.Array:
			for i, it := range n.Items {
				if off >= it.Start && off < it.End {
					t = target{pointer: jsondoc.Index(t.pointer, i), node: it, parent: t.pointer}
					next = it
					break
				}
			}
		}
		n = next
	}
	return t
}
