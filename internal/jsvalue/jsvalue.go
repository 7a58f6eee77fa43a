// Package jsvalue holds JSON values as a JavaScript program sees them after
// JSON.parse: nil, bool, float64, string, []any and *Object, an object
// keeping its members in the order JavaScript enumerates them (array-index
// keys first, ascending, then the others as written). It prints them as
// JSON.stringify does and turns them into strings as String(v) does, so
// that wopkit computes what the spec's JavaScript reference code computes,
// byte for byte: the chain expansion (internal/chainexp) and the eval
// scoring (internal/eval).
package jsvalue

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/jsondoc"
)

// Object is a JSON object whose members keep their order.
type Object struct {
	Members []Member
}

// Member is one member of an Object.
type Member struct {
	Key   string
	Value any
}

// Get returns the value of the member key and whether there is one.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	for i := range o.Members {
		if o.Members[i].Key == key {
			return o.Members[i].Value, true
		}
	}
	return nil, false
}

// Set replaces the value of the member key where it is, or appends it (as
// an assignment to a JavaScript object does).
func (o *Object) Set(key string, v any) {
	for i := range o.Members {
		if o.Members[i].Key == key {
			o.Members[i].Value = v
			return
		}
	}
	if arrayIndex(key) {
		// A JavaScript object enumerates index keys first: keep that order.
		at := len(o.Members)
		n, _ := strconv.ParseUint(key, 10, 32)
		for i, m := range o.Members {
			if !arrayIndex(m.Key) {
				at = i
				break
			}
			if k, _ := strconv.ParseUint(m.Key, 10, 32); k > n {
				at = i
				break
			}
		}
		o.Members = append(o.Members, Member{})
		copy(o.Members[at+1:], o.Members[at:])
		o.Members[at] = Member{key, v}
		return
	}
	o.Members = append(o.Members, Member{key, v})
}

// arrayIndex reports whether key is a canonical array index (a JavaScript
// object lists these keys first, in numeric order).
func arrayIndex(key string) bool {
	if key == "" || len(key) > 10 || (key[0] == '0' && len(key) > 1) {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return false
		}
	}
	n, err := strconv.ParseUint(key, 10, 64)
	return err == nil && n < math.MaxUint32
}

// FromNode converts a parsed document's value to the library's view of it:
// numbers become float64 (as JSON.parse makes them; one too large for a
// float64 becomes ±Inf, which JSON.stringify prints as null), objects
// enumerate their keys in JavaScript's order.
func FromNode(n *jsondoc.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case jsondoc.Object:
		o := &Object{Members: make([]Member, 0, len(n.Members))}
		for _, m := range n.Members {
			o.Set(m.Key, FromNode(m.Value))
		}
		return o
	case jsondoc.Array:
		a := make([]any, len(n.Items))
		for i, it := range n.Items {
			a[i] = FromNode(it)
		}
		return a
	case jsondoc.String:
		return n.Str
	case jsondoc.Number:
		f, _ := strconv.ParseFloat(n.Str, 64) // the parser checked the grammar; a range error is ±Inf, as in JavaScript
		return f
	case jsondoc.Bool:
		return n.Bool
	}
	return nil
}

// MarshalJSON is Encode: an Object is printed with its members in order.
func (o *Object) MarshalJSON() ([]byte, error) { return Encode(o), nil }

// Encode writes v as compact JSON, as JSON.stringify does: numbers in
// JavaScript's form, object members in order, non-finite numbers as null.
func Encode(v any) []byte {
	return appendJSON(nil, v)
}

func appendJSON(b []byte, v any) []byte {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return append(b, "null"...)
		}
		return append(b, NumberString(t)...)
	case string:
		return appendString(b, t)
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case *Object:
		b = append(b, '{')
		for i, m := range t.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.Key)
			b = append(b, ':')
			b = appendJSON(b, m.Value)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// appendString quotes s as JSON.stringify does: only '"', '\\' and the
// control characters are escaped.
func appendString(b []byte, s string) []byte { return jcs.AppendString(b, s) }

// NumberString is JavaScript's Number::toString(f) (ECMA-262 §6.1.6.1.20):
// the shortest digits that read back as f, in positional notation for
// exponents from -7 to 20 and in exponent notation ("1e+21", "1e-7")
// otherwise; -0 is "0".
func NumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	return string(jcs.AppendNumber(nil, f))
}

// JSString is JavaScript's String(v) for a JSON value: a string as it is,
// a number as NumberString, null as "null", an array as its elements'
// strings joined with "," (a null element as ""), an object as
// "[object Object]".
func JSString(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return NumberString(t)
	case string:
		return t
	case []any:
		var sb strings.Builder
		for i, e := range t {
			if i > 0 {
				sb.WriteByte(',')
			}
			if e != nil {
				sb.WriteString(JSString(e))
			}
		}
		return sb.String()
	case *Object:
		return "[object Object]"
	}
	return ""
}

// UTF16Len is the number of UTF-16 code units of r (JavaScript's regular
// expressions without the u flag see a character outside the Basic
// Multilingual Plane as two).
func UTF16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// Plain converts a value to the form the JSON Schema validator reads
// (map[string]any, []any, float64, string, bool, nil).
func Plain(v any) any {
	switch t := v.(type) {
	case *Object:
		m := make(map[string]any, len(t.Members))
		for _, mb := range t.Members {
			m[mb.Key] = Plain(mb.Value)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = Plain(e)
		}
		return a
	}
	return v
}

// Equal reports whether a and b are the same JSON value: objects compared
// member by member whatever their order, numbers by value.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case *Object:
		y, ok := b.(*Object)
		if !ok || len(x.Members) != len(y.Members) {
			return false
		}
		for _, m := range x.Members {
			v, ok := y.Get(m.Key)
			if !ok || !Equal(m.Value, v) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// Parse reads JSON text into a value (jsondoc's limits; duplicate keys and
// invalid UTF-8 refused).
func Parse(data []byte) (any, error) {
	d, err := jsondoc.Parse(data)
	if err != nil {
		return nil, err
	}
	return FromNode(d.Root), nil
}
