package lsp

import (
	"encoding/json"
	"strconv"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/untrusted"
)

// cursor is where completion was asked, read from the text before it by a
// scanner that tolerates the half-typed document an author has mid-edit.
type cursor struct {
	container string // pointer of the enclosing object or array
	inObject  bool
	key       string // the member whose value is being written (in an object, after ':')
	atKey     bool   // writing a member name
	inString  bool   // inside a string: partial is its text so far
	partial   string
	strStart  int // byte offset of the opening quote, when inString
	index     int // the item's index, in an array
}

// valuePointer is the pointer of the value at the cursor.
func (c cursor) valuePointer() string {
	if c.inObject {
		return jsondoc.Child(c.container, c.key)
	}
	return jsondoc.Index(c.container, c.index)
}

type frame struct {
	obj    bool
	key    string
	colon  bool
	index  int
	hasKey bool
}

// scanTo reads src[:off].
func scanTo(src []byte, off int) cursor {
	off = max(0, min(off, len(src)))
	var stack []frame
	inStr, esc := false, false
	strStart := 0
	for i := 0; i < off; i++ {
		b := src[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case b == '\\':
				esc = true
			case b == '"':
				inStr = false
				if n := len(stack); n > 0 && stack[n-1].obj && !stack[n-1].colon {
					stack[n-1].key = unquote(src[strStart : i+1])
					stack[n-1].hasKey = true
				}
			}
			continue
		}
		switch b {
		case '"':
			inStr, strStart = true, i
		case '{':
			stack = append(stack, frame{obj: true})
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].obj {
					stack[n-1].key, stack[n-1].colon, stack[n-1].hasKey = "", false, false
				} else {
					stack[n-1].index++
				}
			}
		case ':':
			if n := len(stack); n > 0 {
				stack[n-1].colon = true
			}
		}
	}
	var c cursor
	var toks []string
	for i := 0; i+1 < len(stack); i++ {
		if stack[i].obj {
			toks = append(toks, stack[i].key)
		} else {
			toks = append(toks, strconv.Itoa(stack[i].index))
		}
	}
	c.container = jsondoc.Pointer(toks...)
	if len(stack) == 0 {
		return c
	}
	top := stack[len(stack)-1]
	c.inObject, c.key, c.index = top.obj, top.key, top.index
	c.atKey = top.obj && !top.colon
	if inStr {
		c.inString, c.strStart = true, strStart
		c.partial = string(src[strStart+1 : off])
	}
	return c
}

func unquote(q []byte) string {
	var s string
	if err := untrusted.DecodeJSON(q, &s); err != nil {
		return string(q[1 : len(q)-1])
	}
	return s
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// itemsOf is an array's items (none for nil or another kind).
func itemsOf(n *jsondoc.Node) []*jsondoc.Node {
	if n == nil || n.Kind != jsondoc.Array {
		return nil
	}
	return n.Items
}
