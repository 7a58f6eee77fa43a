package editor

import (
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/words"
)

// row is one visible line of the editor's tree.
type row struct {
	ptr     string
	depth   int
	label   string // member key, or [i] for an array item
	node    *jsondoc.Node
	preview string // the value as one short line
}

// buildRows flattens the visible part of the document: the root's members
// always, deeper ones when their container is expanded.
func buildRows(doc *jsondoc.Doc, expanded map[string]bool) []row {
	if doc == nil || doc.Root == nil {
		return nil
	}
	rows := make([]row, 0, 64)
	var walk func(n *jsondoc.Node, ptr string, depth int)
	walk = func(n *jsondoc.Node, ptr string, depth int) {
		switch n.Kind {
		case jsondoc.Object:
			for _, m := range n.Members {
				p := jsondoc.Child(ptr, m.Key)
				rows = append(rows, row{ptr: p, depth: depth, label: termsafe.String(m.Key), node: m.Value, preview: preview(m.Value)})
				if expanded[p] {
					walk(m.Value, p, depth+1)
				}
			}
		case jsondoc.Array:
			for i, it := range n.Items {
				p := jsondoc.Index(ptr, i)
				rows = append(rows, row{ptr: p, depth: depth, label: "[" + strconv.Itoa(i) + "]", node: it, preview: preview(it)})
				if expanded[p] {
					walk(it, p, depth+1)
				}
			}
		}
	}
	walk(doc.Root, "", 0)
	return rows
}

// preview is a value on one line: strings quoted, containers by size and,
// for objects, their most telling member (an id or a name).
func preview(n *jsondoc.Node) string {
	switch n.Kind {
	case jsondoc.String:
		return strconv.Quote(firstLine(n.Str, 100))
	case jsondoc.Number:
		return n.Str
	case jsondoc.Bool:
		return strconv.FormatBool(n.Bool)
	case jsondoc.Null:
		return "null"
	case jsondoc.Array:
		return "[" + words.Plural(len(n.Items), "item") + "]"
	}
	for _, k := range []string{"typeId", "agentId", "taskId", "name", "id", "label"} {
		if v := n.Get(k); v != nil && v.Kind == jsondoc.String {
			return "{" + strconv.Itoa(len(n.Members)) + "} " + termsafe.String(firstLine(v.Str, 60))
		}
	}
	return "{" + words.Plural(len(n.Members), "field") + "}"
}

func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + "…"
	}
	if len(s) > n {
		r := []rune(s)
		if len(r) > n {
			s = string(r[:n]) + "…"
		}
	}
	return s
}

// ancestors returns the pointers of every container above ptr, outermost
// first (not ptr itself, not the root).
func ancestors(ptr string) []string {
	toks := jsondoc.SplitPointer(ptr)
	out := make([]string, 0, len(toks))
	for i := 1; i < len(toks); i++ {
		out = append(out, jsondoc.Pointer(toks[:i]...))
	}
	return out
}

// parent returns the pointer of the container holding ptr, and ptr's last token.
func parent(ptr string) (string, string) {
	toks := jsondoc.SplitPointer(ptr)
	if len(toks) == 0 {
		return "", ""
	}
	return jsondoc.Pointer(toks[:len(toks)-1]...), toks[len(toks)-1]
}

// deepestExisting returns ptr, or its closest ancestor present in doc.
func deepestExisting(doc *jsondoc.Doc, ptr string) string {
	for ptr != "" && doc.Lookup(ptr) == nil {
		ptr, _ = parent(ptr)
	}
	return ptr
}

// findNode returns the first pointer after from (in document order, wrapping)
// whose key or pointer, or whose string or number value, contains q,
// case-insensitively.
func findNode(doc *jsondoc.Doc, from, q string) (string, bool) {
	q = strings.ToLower(q)
	var all []string
	vals := map[string]string{}
	var walk func(n *jsondoc.Node, ptr string)
	walk = func(n *jsondoc.Node, ptr string) {
		switch n.Kind {
		case jsondoc.Object:
			for _, m := range n.Members {
				p := jsondoc.Child(ptr, m.Key)
				all = append(all, p)
				walk(m.Value, p)
			}
		case jsondoc.Array:
			for i, it := range n.Items {
				p := jsondoc.Index(ptr, i)
				all = append(all, p)
				walk(it, p)
			}
		case jsondoc.String, jsondoc.Number:
			vals[ptr] = strings.ToLower(n.Str)
		}
	}
	if doc == nil || doc.Root == nil {
		return "", false
	}
	walk(doc.Root, "")
	start := 0
	for i, p := range all {
		if p == from {
			start = i + 1
			break
		}
	}
	for i := range all {
		p := all[(start+i)%len(all)]
		if strings.Contains(strings.ToLower(p), q) || strings.Contains(vals[p], q) {
			return p, true
		}
	}
	return "", false
}
