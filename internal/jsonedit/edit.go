package jsonedit

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/werr"
)

// Edit is one splice: the bytes [Start, End) of the source are replaced by Text.
type Edit struct {
	Start, End int
	Text       []byte
}

// Apply returns src with the edit made.
func (e Edit) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)-(e.End-e.Start)+len(e.Text))
	out = append(out, src[:e.Start]...)
	out = append(out, e.Text...)
	return append(out, src[e.End:]...)
}

// Set replaces the value at pointer, or, when the pointer names a missing
// member of an existing object, adds that member at the end of the object.
// A pointer ending in "-" or in the length of an existing array appends to it.
func Set(src []byte, pointer string, value any) ([]byte, error) {
	e, err := SetEdit(src, pointer, value)
	if err != nil {
		return nil, err
	}
	return checked(e.Apply(src), pointer)
}

// SetAfter is Set, except that a member it adds goes right after the
// sibling member named after (at the end of the object when there is no
// such member), where a reader expects it: "kind" after "version".
func SetAfter(src []byte, pointer, after string, value any) ([]byte, error) {
	doc, err := parse(src)
	if err != nil {
		return nil, err
	}
	toks := jsondoc.SplitPointer(pointer)
	if doc.Lookup(pointer) != nil || len(toks) == 0 {
		return Set(src, pointer, value)
	}
	parent := doc.Lookup(jsondoc.Pointer(toks[:len(toks)-1]...))
	if parent == nil || parent.Kind != jsondoc.Object {
		return Set(src, pointer, value)
	}
	idx := -1
	for i, m := range parent.Members {
		if m.Key == after {
			idx = i
		}
	}
	e, err := insertEdit(doc, parent, toks[len(toks)-1], value, idx)
	if err != nil {
		return nil, err
	}
	return checked(e.Apply(src), pointer)
}

// Rename gives the member at pointer the name key, in place: its value, its
// position and every other byte stay as they are. It refuses when the
// object already has a member named key.
func Rename(src []byte, pointer, key string) ([]byte, error) {
	doc, err := parse(src)
	if err != nil {
		return nil, err
	}
	toks := jsondoc.SplitPointer(pointer)
	var parent *jsondoc.Node
	if len(toks) > 0 {
		parent = doc.Lookup(jsondoc.Pointer(toks[:len(toks)-1]...))
	}
	if parent == nil || parent.Kind != jsondoc.Object || parent.Member(toks[len(toks)-1]) == nil {
		return nil, werr.New(werr.Invalid, "json_edit_missing", "cannot rename %s: it is not a member of an object", show(pointer)).
			WithHint("check the pointer")
	}
	if parent.Member(key) != nil && key != toks[len(toks)-1] {
		return nil, werr.New(werr.Invalid, "json_edit_exists", "cannot rename %s to %q: the object already has that member", show(pointer), key).
			WithHint("remove or merge the other member first")
	}
	m := parent.Member(toks[len(toks)-1])
	text, err := marshal(key)
	if err != nil {
		return nil, err
	}
	return checked(Edit{Start: m.KeyStart, End: m.KeyEnd, Text: text}.Apply(src), pointer)
}

// Append adds value as the last item of the array at arrayPointer. When the
// array is missing but its parent object exists, the member is created
// holding a one-item array.
func Append(src []byte, arrayPointer string, value any) ([]byte, error) {
	doc, err := parse(src)
	if err != nil {
		return nil, err
	}
	n := doc.Lookup(arrayPointer)
	if n == nil {
		return Set(src, arrayPointer, []any{rawOf(value)})
	}
	if n.Kind != jsondoc.Array {
		return nil, werr.New(werr.Invalid, "json_edit_not_array", "cannot append at %s: it is %s, not an array", show(arrayPointer), n.Kind).
			WithHint("append to an array member")
	}
	e, err := insertEdit(doc, n, "", value, -1)
	if err != nil {
		return nil, err
	}
	return checked(e.Apply(src), arrayPointer)
}

// Remove deletes the member or array item at pointer, with the separator
// that joined it to its neighbours.
func Remove(src []byte, pointer string) ([]byte, error) {
	e, err := RemoveEdit(src, pointer)
	if err != nil {
		return nil, err
	}
	return checked(e.Apply(src), pointer)
}

// SetEdit computes the splice Set makes, without making it.
func SetEdit(src []byte, pointer string, value any) (Edit, error) {
	doc, err := parse(src)
	if err != nil {
		return Edit{}, err
	}
	st := detect(src, doc)
	if n := doc.Lookup(pointer); n != nil {
		text, err := Render(value, st, lineIndent(src, n.Start))
		if err != nil {
			return Edit{}, renderErr(pointer, err)
		}
		return Edit{Start: n.Start, End: n.End, Text: text}, nil
	}
	toks := jsondoc.SplitPointer(pointer)
	parentPtr := jsondoc.Pointer(toks[:len(toks)-1]...)
	last := toks[len(toks)-1]
	parent := doc.Lookup(parentPtr)
	switch {
	case parent == nil:
		return Edit{}, werr.New(werr.Invalid, "json_edit_no_parent", "cannot set %s: %s does not exist", show(pointer), show(parentPtr)).
			WithHint("create the enclosing object first")
	case parent.Kind == jsondoc.Object:
		return insertEdit(doc, parent, last, value, -1)
	case parent.Kind == jsondoc.Array && (last == "-" || last == strconv.Itoa(len(parent.Items))):
		return insertEdit(doc, parent, "", value, -1)
	}
	return Edit{}, werr.New(werr.Invalid, "json_edit_no_target", "cannot set %s: %s has no such item", show(pointer), show(parentPtr)).
		WithHint("use an existing index, or append with \"-\"")
}

// insertEdit adds a member named key (objects) or an item (arrays) to
// container n, joined the way the existing entries are joined: right after
// the member of index after, or at the end when after is -1 (arrays always
// get it at the end).
func insertEdit(doc *jsondoc.Doc, n *jsondoc.Node, key string, value any, after int) (Edit, error) {
	src := doc.Src
	st := detect(src, doc)
	var prefix []byte
	if n.Kind == jsondoc.Object {
		k, err := marshal(key)
		if err != nil {
			return Edit{}, err
		}
		prefix = k
	}
	var starts, ends []int // where each entry starts and ends
	for _, m := range n.Members {
		starts, ends = append(starts, m.KeyStart), append(ends, m.Value.End)
	}
	for _, it := range n.Items {
		starts, ends = append(starts, it.Start), append(ends, it.End)
	}
	count := len(starts)
	if count > 0 {
		if after < 0 || after >= count || n.Kind == jsondoc.Array {
			after = count - 1
		}
		lastStart, lastEnd := starts[after], ends[after]
		if n.Kind == jsondoc.Object {
			m := n.Members[after]
			prefix = append(prefix, src[m.KeyEnd:m.Value.Start]...)
		}
		// The joint before the entry followed says how entries are joined;
		// after the first entry, the joint before the second does.
		at := lastStart
		if after == 0 && count > 1 {
			at = starts[1]
		}
		sep := src[bytes.LastIndexAny(src[:at], ",[{")+1 : at]
		base := lineIndent(src, lastStart)
		est := st
		if !bytes.ContainsRune(src[n.Start:n.End], '\n') {
			// A container on one line gets its new entry on that line.
			est.Indent = ""
			if count == 1 && len(sep) == 0 && strings.HasSuffix(st.Colon, " ") {
				sep = []byte(" ")
			}
		}
		text, err := Render(value, est, base)
		if err != nil {
			return Edit{}, err
		}
		out := append([]byte{','}, sep...)
		out = append(append(out, prefix...), text...)
		return Edit{Start: lastEnd, End: lastEnd, Text: out}, nil
	}
	if n.Kind == jsondoc.Object {
		prefix = append(prefix, st.Colon...)
	}
	// Empty container: lay the one entry out on its own line.
	base := lineIndent(src, n.Start)
	text, err := Render(value, st, base+st.Indent)
	if err != nil {
		return Edit{}, err
	}
	var out []byte
	if st.Indent != "" {
		out = append(out, st.Newline+base+st.Indent...)
	}
	out = append(append(out, prefix...), text...)
	if st.Indent != "" {
		out = append(out, st.Newline+base...)
	}
	return Edit{Start: n.Start + 1, End: n.End - 1, Text: out}, nil
}

// RemoveEdit computes the splice Remove makes, without making it.
func RemoveEdit(src []byte, pointer string) (Edit, error) {
	doc, err := parse(src)
	if err != nil {
		return Edit{}, err
	}
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) == 0 {
		return Edit{}, werr.New(werr.Usage, "json_edit_root", "cannot remove the whole document").WithHint("name a member or item")
	}
	if doc.Lookup(pointer) == nil {
		return Edit{}, werr.New(werr.Invalid, "json_edit_missing", "cannot remove %s: it does not exist", show(pointer)).
			WithHint("check the pointer")
	}
	parent := doc.Lookup(jsondoc.Pointer(toks[:len(toks)-1]...))
	type span struct{ start, end int }
	var spans []span
	idx := -1
	if parent.Kind == jsondoc.Object {
		for i, m := range parent.Members {
			spans = append(spans, span{m.KeyStart, m.Value.End})
			if m.Key == toks[len(toks)-1] {
				idx = i
			}
		}
	} else {
		idx, _ = strconv.Atoi(toks[len(toks)-1])
		for _, it := range parent.Items {
			spans = append(spans, span{it.Start, it.End})
		}
	}
	switch {
	case len(spans) == 1:
		return Edit{Start: parent.Start + 1, End: parent.End - 1}, nil
	case idx > 0:
		return Edit{Start: spans[idx-1].end, End: spans[idx].end}, nil
	default:
		return Edit{Start: spans[0].start, End: spans[1].start}, nil
	}
}

func parse(src []byte) (*jsondoc.Doc, error) {
	doc, err := jsondoc.Parse(src)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "json_edit_unparsable", err, "cannot edit a document that does not parse").
			WithHint("fix the JSON syntax first (`wopkit validate` shows where)")
	}
	return doc, nil
}

// checked re-parses an edit's result, so a bug can never save broken JSON.
func checked(out []byte, pointer string) ([]byte, error) {
	if _, err := jsondoc.Parse(out); err != nil {
		return nil, werr.Wrap(werr.Invalid, "json_edit_broken", err, "editing %s would produce invalid JSON", show(pointer)).
			WithHint("this is a wopkit bug: please report it with the file")
	}
	return out, nil
}

func renderErr(pointer string, err error) error {
	return werr.Wrap(werr.Invalid, "json_edit_value", err, "cannot write the new value at %s", show(pointer)).
		WithHint("values must be representable as JSON")
}

func show(p string) string {
	if p == "" {
		return "the document root"
	}
	return p
}

// rawOf renders value to JSON text that keeps its key order when re-marshalled.
func rawOf(value any) any {
	b, err := marshal(value)
	if err != nil {
		return value
	}
	return rawMessage(b)
}
