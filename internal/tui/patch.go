package tui

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// patcher is what the editor needs to change a document's bytes at a JSON
// pointer while keeping everything else (key order, indentation, unknown
// fields) as written. internal/jsonedit provides it.
type patcher struct {
	Set    func(src []byte, ptr string, value any) ([]byte, error)
	Append func(src []byte, ptr string, value any) ([]byte, error)
	Remove func(src []byte, ptr string) ([]byte, error)
}

var errNoPatch = errors.New("this change is not supported yet")

// patch is the editor's patcher.
var patch = patcher{Set: spliceSet, Append: unsupported, Remove: func([]byte, string) ([]byte, error) { return nil, errNoPatch }}

func unsupported([]byte, string, any) ([]byte, error) { return nil, errNoPatch }

// spliceSet replaces an existing value's bytes with the encoding of value.
func spliceSet(src []byte, ptr string, value any) ([]byte, error) {
	doc, err := jsondoc.Parse(src)
	if err != nil {
		return nil, err
	}
	n := doc.Lookup(ptr)
	if n == nil {
		return nil, errNoPatch
	}
	enc, err := encodeValue(value)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(src)+len(enc))
	out = append(out, src[:n.Start]...)
	out = append(out, enc...)
	return append(out, src[n.End:]...), nil
}

// encodeValue writes a value as compact JSON without HTML escaping.
func encodeValue(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
