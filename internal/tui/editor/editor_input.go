package editor

import (
	"encoding/json"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// startEdit opens the value under the cursor for typing; a boolean is
// toggled at once and a container is opened or closed.
func (e *editor) startEdit() tea.Cmd {
	r, ok := e.current()
	if !ok {
		return nil
	}
	switch r.node.Kind {
	case jsondoc.Object, jsondoc.Array:
		if e.expanded[r.ptr] {
			delete(e.expanded, r.ptr)
		} else {
			e.expanded[r.ptr] = true
		}
		e.rebuild()
		return nil
	case jsondoc.Bool:
		return e.set(r.ptr, !r.node.Bool)
	}
	text := r.node.Str
	if r.node.Kind == jsondoc.String && strings.ContainsAny(text, "\n\r") {
		return e.editExternal(r.ptr, text) // the one-line prompt would flatten it
	}
	if r.node.Kind == jsondoc.Null {
		text = "null"
	}
	e.startInput(focusEdit, r.label+": ", text, r.ptr)
	e.inputKind = r.node.Kind
	if fi, ok := e.info[r.ptr]; ok {
		e.input.SetSuggestions(fi.Enum)
	}
	return tea.Batch(e.input.Focus(), e.check())
}

func (e *editor) startInput(f focus, prompt, value, ptr string) {
	e.focus = f
	e.input.Prompt = prompt
	e.input.SetSuggestions(nil)
	e.input.SetValue(value)
	e.input.CursorEnd()
	e.input.SetWidth(max(e.ctx.Width-len(prompt)-2, 10))
	e.inputPtr = ptr
	e.inputErr = ""
	e.checks = nil
	e.input.Focus()
}

// startAdd asks for a new member's name (in an object) or appends an item
// (to an array). A scalar row adds beside itself, in its container.
func (e *editor) startAdd() tea.Cmd {
	r, ok := e.current()
	target, tk := "", jsondoc.Object
	if ok {
		if isContainer(r.node) {
			target, tk = r.ptr, r.node.Kind
		} else {
			target, _ = parent(r.ptr)
			tk = e.doc.Lookup(target).Kind
		}
	}
	if tk == jsondoc.Array {
		n := e.doc.Lookup(target)
		return e.appendItem(target, n)
	}
	e.startInput(focusAddKey, "new field in "+displayPtr(target)+": ", "", target)
	return nil
}

// appendItem adds an item to an array. An array of objects (nodes,
// agents, tasks, env vars, actions) gets a copy of its last item, in its
// key order, so the new entry has every field to change; other arrays get
// an empty value of the type the schema names.
func (e *editor) appendItem(arr string, n *jsondoc.Node) tea.Cmd {
	ptr := jsondoc.Index(arr, len(n.Items))
	var val any
	if last := len(n.Items) - 1; last >= 0 && n.Items[last].Kind == jsondoc.Object {
		it := n.Items[last]
		val = json.RawMessage(e.src[it.Start:it.End])
		e.status = "added a copy of " + jsondoc.Index(arr, last) + ": change its id"
	} else {
		typ := e.field(ptr).Type
		if typ == "" && len(n.Items) > 0 {
			typ = n.Items[len(n.Items)-1].Kind.String()
		}
		val = emptyValue(typ)
		e.status = "added " + ptr
	}
	out, err := patch.Append(e.src, arr, val)
	if err != nil {
		e.status = "cannot add to " + displayPtr(arr) + ": " + err.Error()
		return nil
	}
	e.expanded[arr] = true
	e.expanded[ptr] = true
	return e.thenEdit(e.apply(out, ptr))
}

// thenEdit follows an addition: a new scalar opens for typing at once.
func (e *editor) thenEdit(cmd tea.Cmd) tea.Cmd {
	if r, ok := e.current(); ok && (r.node.Kind == jsondoc.String || r.node.Kind == jsondoc.Number) {
		return tea.Batch(cmd, e.startEdit())
	}
	return cmd
}

// emptyValue is the starting value of a new field of a JSON Schema type.
func emptyValue(typ string) any {
	switch typ {
	case "object":
		return map[string]any{}
	case "array":
		return []any{}
	case "boolean":
		return false
	case "number", "integer":
		return 0
	case "null":
		return nil
	}
	return ""
}

func displayPtr(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// set writes one value and moves the cursor to it.
func (e *editor) set(ptr string, value any) tea.Cmd {
	out, err := patch.Set(e.src, ptr, value)
	if err != nil {
		e.status = "cannot change " + ptr + ": " + err.Error()
		return nil
	}
	return e.apply(out, ptr)
}

// updateInput drives the one-line prompt (a value, a new key or a search).
func (e *editor) updateInput(k tea.KeyPressMsg) tea.Cmd {
	keys := e.ctx.Keys
	switch {
	case key.Matches(k, keys.Cancel):
		e.focus = focusTree
		e.input.Blur()
		return nil
	case key.Matches(k, keys.Accept):
		return e.acceptInput()
	}
	var cmd tea.Cmd
	before := e.input.Value()
	e.input, cmd = e.input.Update(k)
	if e.focus == focusEdit && e.input.Value() != before {
		return tea.Batch(cmd, e.check())
	}
	return cmd
}

// typedValue converts the typed text to the JSON type of the field.
func (e *editor) typedValue() (any, string) {
	s := e.input.Value()
	switch e.inputKind {
	case jsondoc.Number:
		var n json.Number
		if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &n); err != nil {
			return nil, strconv.Quote(s) + " is not a number"
		}
		return n, ""
	case jsondoc.Null:
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return s, ""
		}
		return v, ""
	}
	if v, ok := schemaTyped(e.field(e.inputPtr).Type, s); ok {
		return v, "" // a "high" mended to 0.8 saves the number the schema wants
	}
	return s, ""
}

// schemaTyped is text typed into a field whose schema type is number,
// integer or boolean as a value of that type, when it parses as one (ok
// false otherwise: the text is written as a string, and the check says
// what is wrong with it).
func schemaTyped(typ, s string) (any, bool) {
	t := strings.TrimSpace(s)
	switch typ {
	case "number":
		var n json.Number
		if t != "" && t[0] != '"' && json.Unmarshal([]byte(t), &n) == nil {
			return n, true
		}
	case "integer":
		if _, err := strconv.ParseInt(t, 10, 64); err == nil {
			return json.Number(t), true
		}
	case "boolean":
		if b, err := strconv.ParseBool(t); err == nil && (t == "true" || t == "false") {
			return b, true
		}
	}
	return nil, false
}

// check runs the field's own schema check on the value being typed.
func (e *editor) check() tea.Cmd {
	e.checkSeq++
	v, bad := e.typedValue()
	e.inputErr = bad
	if bad != "" {
		e.checks = nil
		return nil
	}
	return fieldCheckCmd(e.v, e.spec(), e.kind, e.checkSeq, e.inputPtr, v)
}

func (e *editor) acceptInput() tea.Cmd {
	text := e.input.Value()
	f := e.focus
	e.focus = focusTree
	e.input.Blur()
	switch f {
	case focusSearch:
		return e.search(text)
	case focusAddKey:
		if text == "" {
			return nil
		}
		ptr := jsondoc.Child(e.inputPtr, text)
		if e.doc.Lookup(ptr) != nil {
			e.status = displayPtr(e.inputPtr) + " already has " + strconv.Quote(text)
			e.moveTo(ptr)
			return nil
		}
		fi := e.field(ptr)
		val := fi.Default
		if val == nil {
			val = emptyValue(fi.Type)
		}
		e.expanded[e.inputPtr] = true
		return e.thenEdit(e.set(ptr, val))
	}
	v, bad := e.typedValue()
	if bad != "" {
		e.focus = focusEdit
		e.input.Focus()
		e.inputErr = bad
		return nil
	}
	return e.set(e.inputPtr, v)
}

// search moves to the next field whose pointer contains the text; a text
// that is an exact pointer goes straight there.
func (e *editor) search(q string) tea.Cmd {
	if q == "" {
		return nil
	}
	if strings.HasPrefix(q, "/") && e.doc.Lookup(q) != nil {
		e.moveTo(q)
		return e.wantInfo()
	}
	cur, _ := e.current()
	p, ok := findNode(e.doc, cur.ptr, q)
	if !ok {
		e.status = "no field matches " + strconv.Quote(q)
		return nil
	}
	e.moveTo(p)
	return e.wantInfo()
}
