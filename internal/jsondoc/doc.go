package jsondoc

import (
	"cmp"
	"sort"
	"strconv"
	"strings"
)

// Doc is a parsed document: its source and the tree of positioned nodes.
type Doc struct {
	Src    []byte
	Root   *Node
	lines  []int // byte offset of each line start, built on first use
	runeAt []int // characters before each runeBlock-th byte, built with lines
}

func (d *Doc) errAt(code string, off int, msg string) *SyntaxError {
	l, c := d.Position(off)
	return &SyntaxError{Code: code, Msg: msg, Offset: off, Line: l, Column: c}
}

// Position returns the 1-based line and column of a byte offset. Columns
// count characters (Unicode code points), as editors show them. The first
// call builds an index of line starts and of character counts every
// runeBlock bytes, so each call costs O(log n) plus at most runeBlock bytes
// of counting, even on a one-line (canonical) document.
func (d *Doc) Position(off int) (line, col int) {
	if d.lines == nil {
		d.buildIndex()
	}
	if off > len(d.Src) {
		off = len(d.Src)
	}
	if off < 0 {
		off = 0
	}
	i := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, d.runesBefore(off) - d.runesBefore(d.lines[i]) + 1
}

// runeBlock is the spacing in bytes of the character-count checkpoints.
const runeBlock = 256

func (d *Doc) buildIndex() {
	d.lines = append(make([]int, 0, 64), 0)
	d.runeAt = make([]int, 0, len(d.Src)/runeBlock+1)
	n := 0
	for i, b := range d.Src {
		if i%runeBlock == 0 {
			d.runeAt = append(d.runeAt, n)
		}
		if b&0xC0 != 0x80 { // not a UTF-8 continuation byte: a character starts
			n++
		}
		if b == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
}

// runesBefore counts the characters in Src[:off].
func (d *Doc) runesBefore(off int) int {
	blk := off / runeBlock
	if blk >= len(d.runeAt) {
		blk = len(d.runeAt) - 1
	}
	if blk < 0 {
		return 0
	}
	n := d.runeAt[blk]
	for _, b := range d.Src[blk*runeBlock : off] {
		if b&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// Lookup returns the node at a JSON pointer (RFC 6901), or nil.
func (d *Doc) Lookup(pointer string) *Node {
	if d == nil {
		return nil
	}
	n := d.Root
	for _, tok := range SplitPointer(pointer) {
		if n == nil {
			return nil
		}
		switch n.Kind {
		case Object:
			n = n.Get(tok)
		case Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Items) {
				return nil
			}
			n = n.Items[i]
		default:
			return nil
		}
	}
	return n
}

// Locate returns the byte offset a problem at pointer should be shown at.
// With key set, and when the pointer names an object member, it is the
// member's key (where an unknown property is); otherwise the value's start.
// For a pointer that does not resolve, the deepest existing ancestor is used.
func (d *Doc) Locate(pointer string, key bool) int {
	if d == nil || d.Root == nil {
		return 0
	}
	toks := SplitPointer(pointer)
	n := d.Root
	for i, tok := range toks {
		var next *Node
		switch n.Kind {
		case Object:
			if m := n.Member(tok); m != nil {
				if key && i == len(toks)-1 {
					return m.KeyStart
				}
				next = m.Value
			}
		case Array:
			if j, err := strconv.Atoi(tok); err == nil && j >= 0 && j < len(n.Items) {
				next = n.Items[j]
			}
		}
		if next == nil {
			return n.Start
		}
		n = next
	}
	return n.Start
}

// SplitPointer splits a JSON pointer into unescaped reference tokens.
func SplitPointer(p string) []string {
	if p == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range toks {
		if strings.Contains(t, "~") {
			toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		}
	}
	return toks
}

// Pointer joins reference tokens into a JSON pointer, escaping each.
func Pointer(toks ...string) string {
	if len(toks) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
		}
		b.WriteString(t)
	}
	return b.String()
}

// Child returns the pointer of a member or item below pointer.
func Child(pointer string, tok string) string { return pointer + Pointer(tok) }

// Index returns the pointer of item i below pointer.
func Index(pointer string, i int) string { return pointer + "/" + strconv.Itoa(i) }

// ComparePointers orders JSON pointers token by token, array indexes by
// number (/nodes/2 before /nodes/10).
func ComparePointers(a, b string) int {
	at, bt := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < min(len(at), len(bt)); i++ {
		x, errx := strconv.Atoi(at[i])
		y, erry := strconv.Atoi(bt[i])
		if errx == nil && erry == nil {
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(at[i], bt[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(at), len(bt))
}
