// Package jsonedit edits JSON text in place: it replaces, adds or removes one
// value while keeping every other byte of the document (key order, unknown
// members, indentation, escape style) as the author wrote it. New values are
// rendered in the document's own layout: its indentation unit (spaces or
// tabs, and their width), its line ending, its key separator, and the
// nesting depth of the place they go. The wizard, `wopkit new --pack` and
// the editor all save through this package.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// Style is the layout of a JSON document.
type Style struct {
	Indent  string // one indentation level ("  ", "    ", "\t"); "" for single-line documents
	Newline string // "\n" or "\r\n"
	Colon   string // the key separator, ": " or ":"
}

// DefaultStyle is the layout of new documents: two spaces, LF, ": ".
var DefaultStyle = Style{Indent: "  ", Newline: "\n", Colon: ": "}

// Detect returns the layout src is written in. The indentation unit is the
// smallest indentation of any line; a document on one line is compact.
func Detect(src []byte) Style {
	doc, _ := jsondoc.Parse(src)
	return detect(src, doc)
}

// detect is Detect on an already parsed document (doc may be nil).
func detect(src []byte, doc *jsondoc.Doc) Style {
	st := Style{Newline: "\n", Colon: ": "}
	if bytes.Contains(src, []byte("\r\n")) {
		st.Newline = "\r\n"
	}
	if doc != nil {
		st.Colon = firstColon(doc)
	}
	if !bytes.ContainsRune(src, '\n') {
		return Style{Newline: st.Newline, Colon: st.Colon}
	}
	if unit := firstLevelIndent(src, doc); unit != "" {
		st.Indent = unit
		return st
	}
	best := ""
	for rest := src; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		n := 0
		for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
			n++
		}
		if n == 0 || n == len(line) || len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ws := string(line[:n])
		if best == "" || len(ws) < len(best) {
			best = ws
		}
	}
	if best == "" {
		best = DefaultStyle.Indent
	}
	if best[0] == '\t' {
		best = "\t"
	}
	st.Indent = best
	return st
}

// firstLevelIndent returns the indentation of the root's first entry when
// it starts a line: the unit the author chose for one level.
func firstLevelIndent(src []byte, doc *jsondoc.Doc) string {
	if doc == nil || doc.Root == nil {
		return ""
	}
	first := -1
	switch r := doc.Root; {
	case r.Kind == jsondoc.Object && len(r.Members) > 0:
		first = r.Members[0].KeyStart
	case r.Kind == jsondoc.Array && len(r.Items) > 0:
		first = r.Items[0].Start
	}
	if first < 0 || !bytes.ContainsRune(src[doc.Root.Start:first], '\n') {
		return ""
	}
	unit := lineIndent(src, first)
	if unit != "" && unit[0] == '\t' {
		return "\t"
	}
	return unit
}

// firstColon returns the separator between the first key and its value.
func firstColon(doc *jsondoc.Doc) string {
	var find func(n *jsondoc.Node) string
	find = func(n *jsondoc.Node) string {
		switch n.Kind {
		case jsondoc.Object:
			if len(n.Members) > 0 {
				m := n.Members[0]
				return string(doc.Src[m.KeyEnd:m.Value.Start])
			}
		case jsondoc.Array:
			for _, it := range n.Items {
				if s := find(it); s != "" {
					return s
				}
			}
		}
		return ""
	}
	s := find(doc.Root)
	if s == "" || strings.ContainsAny(s, "\r\n") {
		return ": "
	}
	return s
}

func leadingSpace(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[:i]
}

// lineIndent returns the indentation of the line holding offset off.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return leadingSpace(string(src[start:off]))
}

// Render returns value as JSON text in style st, as it would appear on a
// line indented by base. Values are marshalled with encoding/json without
// HTML escaping; a json.RawMessage keeps its key order.
func Render(value any, st Style, base string) ([]byte, error) {
	raw, err := marshal(value)
	if err != nil {
		return nil, err
	}
	doc, err := jsondoc.Parse(raw)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	write(&b, doc, doc.Root, st, base)
	return b.Bytes(), nil
}

func marshal(value any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func write(b *bytes.Buffer, doc *jsondoc.Doc, n *jsondoc.Node, st Style, indent string) {
	compact := st.Indent == ""
	// On one line, entries are joined as keys and values are: with a space
	// when the colon has one.
	sep := ","
	if compact && strings.HasSuffix(st.Colon, " ") {
		sep = ", "
	}
	nl := func(ind string) {
		if !compact {
			b.WriteString(st.Newline)
			b.WriteString(ind)
		}
	}
	switch n.Kind {
	case jsondoc.Object:
		if len(n.Members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				b.WriteString(sep)
			}
			nl(indent + st.Indent)
			b.Write(doc.Src[m.KeyStart:m.KeyEnd])
			b.WriteString(st.Colon)
			write(b, doc, m.Value, st, indent+st.Indent)
		}
		nl(indent)
		b.WriteByte('}')
	case jsondoc.Array:
		if len(n.Items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(sep)
			}
			nl(indent + st.Indent)
			write(b, doc, it, st, indent+st.Indent)
		}
		nl(indent)
		b.WriteByte(']')
	default:
		b.Write(doc.Src[n.Start:n.End])
	}
}

type rawMessage = json.RawMessage
