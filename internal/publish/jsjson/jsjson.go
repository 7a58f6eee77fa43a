// Package jsjson holds JSON values in the ECMAScript model that the
// registry's Node scripts read and write: JSON.parse (objects keep insertion
// order, array-index keys first; numbers are doubles) and
// JSON.stringify(value, null, 2). Files wopkit stages into a registry tree
// must equal the scripts' byte for byte.
package jsjson

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// A value is nil (null), bool, float64, string, []any or *Obj.

// Obj is a JSON object with its members in insertion order.
type Obj struct {
	keys []string
	vals map[string]any
}

// NewObj returns an empty object.
func NewObj() *Obj { return &Obj{vals: map[string]any{}} }

// Set sets key to v, keeping the key's position when it exists.
func (o *Obj) Set(key string, v any) *Obj {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
	return o
}

// Get returns the value of key and whether it is present.
func (o *Obj) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// Delete removes key.
func (o *Obj) Delete(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// Keys returns the keys in ECMAScript property order.
func (o *Obj) Keys() []string {
	if o == nil {
		return nil
	}
	var idx, rest []string
	for _, k := range o.keys {
		if arrayIndex(k) {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return rest
	}
	sort.Slice(idx, func(i, j int) bool {
		a, _ := strconv.ParseUint(idx[i], 10, 64)
		b, _ := strconv.ParseUint(idx[j], 10, 64)
		return a < b
	})
	return append(idx, rest...)
}

// Len returns the number of members.
func (o *Obj) Len() int { return len(o.keys) }

// arrayIndex reports whether ECMAScript treats k as an array index (a
// canonical decimal below 2^32-1), which it orders before other keys.
func arrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < 1<<32-1
}

// Clone returns a deep copy of v.
func Clone(v any) any {
	switch t := v.(type) {
	case *Obj:
		c := NewObj()
		for _, k := range t.keys {
			c.Set(k, Clone(t.vals[k]))
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i := range t {
			c[i] = Clone(t[i])
		}
		return c
	}
	return v
}

// Limits bound what Parse reads: the registry index's size bound, and a
// number of values (each costs a parsed node and a Go value) over a hundred
// times that of the real registry's largest document, so that a hostile
// document of that size costs bounded memory.
var Limits = untrusted.JSONLimits{MaxBytes: untrusted.MaxIndex, MaxDepth: 128, MaxValues: 500_000}

// Parse parses a JSON text as JSON.parse does. The text is first checked
// by the untrusted layer (untrusted.CheckJSON within Limits): a member named
// twice in one object, in any letter case, is refused
// (json_duplicate_member), since the registry's scripts and wopkit would
// read different values. where names the text in errors.
func Parse(src []byte, where string) (any, error) {
	if err := untrusted.CheckJSON(src, Limits); err != nil {
		return nil, untrusted.NameJSON(where, err)
	}
	doc, err := jsondoc.ParseLimits(src, jsondoc.Limits{MaxBytes: Limits.MaxBytes, MaxDepth: Limits.MaxDepth, MaxNodes: Limits.MaxValues})
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "%s is not valid JSON", where)
	}
	return fromNode(doc.Root), nil
}

func fromNode(n *jsondoc.Node) any {
	switch n.Kind {
	case jsondoc.Bool:
		return n.Bool
	case jsondoc.Number:
		f, _ := strconv.ParseFloat(n.Str, 64) // out of range gives ±Inf, as JSON.parse does
		return f
	case jsondoc.String:
		return n.Str
	case jsondoc.Array:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = fromNode(it)
		}
		return out
	case jsondoc.Object:
		o := NewObj()
		for _, m := range n.Members {
			o.Set(m.Key, fromNode(m.Value))
		}
		return o
	}
	return nil
}

// Stringify is JSON.stringify(v, null, 2) + "\n".
func Stringify(v any) []byte {
	out := appendJS(nil, v, "")
	return append(out, '\n')
}

func appendJS(out []byte, v any, indent string) []byte {
	switch t := v.(type) {
	case nil:
		return append(out, "null"...)
	case bool:
		return strconv.AppendBool(out, t)
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return append(out, "null"...)
		}
		return jcs.AppendECMANumber(out, t)
	case int:
		return jcs.AppendECMANumber(out, float64(t))
	case string:
		return jcs.AppendECMAString(out, strings.ToValidUTF8(t, "\uFFFD"))
	case []any:
		if len(t) == 0 {
			return append(out, "[]"...)
		}
		inner := indent + "  "
		out = append(out, '[')
		for i, it := range t {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, '\n')
			out = append(out, inner...)
			out = appendJS(out, it, inner)
		}
		out = append(out, '\n')
		out = append(out, indent...)
		return append(out, ']')
	case []string:
		a := make([]any, len(t))
		for i := range t {
			a[i] = t[i]
		}
		return appendJS(out, a, indent)
	case *Obj:
		if t == nil {
			return append(out, "null"...)
		}
		if t.Len() == 0 {
			return append(out, "{}"...)
		}
		inner := indent + "  "
		out = append(out, '{')
		for i, k := range t.Keys() {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, '\n')
			out = append(out, inner...)
			out = jcs.AppendECMAString(out, k)
			out = append(out, ':', ' ')
			out = appendJS(out, t.vals[k], inner)
		}
		out = append(out, '\n')
		out = append(out, indent...)
		return append(out, '}')
	}
	panic("jsjson: unsupported value type in Stringify") // a programming error: values come from ParseJS or this package
}

// Helpers reading values the way the scripts' expressions do.

// Field returns v[key] when v is an object, else nil.
func Field(v any, key string) any {
	if o, ok := v.(*Obj); ok {
		x, _ := o.Get(key)
		return x
	}
	return nil
}

// Truthy is ECMAScript's Boolean(v).
func Truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case float64:
		return t != 0 && !math.IsNaN(t)
	case string:
		return t != ""
	}
	return true
}

// Str returns v when it is a string.
func Str(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

// Or is `v ?? def`.
func Or(v, def any) any {
	if v == nil {
		return def
	}
	return v
}

// Array returns v when it is an array, else nil.
func Array(v any) []any {
	a, _ := v.([]any)
	return a
}
