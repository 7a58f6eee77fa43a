package untrusted

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/werr"
)

// JSONLimits bound what DecodeJSON accepts, so a hostile document costs
// bounded memory and time whatever its shape.
type JSONLimits struct {
	MaxBytes  int // the document's size
	MaxDepth  int // nesting of objects and arrays
	MaxValues int // values of any kind, members' names not counted
}

// DefaultJSONLimits suit every registry document, the registry-wide index
// included: its size bound is MaxIndex; no real document nests deeper than
// 12 or holds more than a few hundred thousand values.
var DefaultJSONLimits = JSONLimits{MaxBytes: MaxIndex, MaxDepth: 128, MaxValues: 2_000_000}

// The stable codes of a document DecodeJSON refuses.
const (
	CodeJSONInvalid   = "json_invalid"          // not JSON as JSON.parse reads it
	CodeJSONDuplicate = "json_duplicate_member" // a member named twice, in any letter case
	CodeJSONTooLarge  = "json_too_large"        // over MaxBytes, MaxDepth or MaxValues
)

// JSONError is a refused document: where, and why.
type JSONError struct {
	Code   string
	Msg    string
	Offset int // byte offset of the problem
	Line   int // 1-based
	Column int // 1-based, in bytes
}

// Error is the reason alone: the *werr.Error that carries a JSONError
// says where ("line 3, column 5", or "file:3:5" once NameJSON named it).
func (e *JSONError) Error() string { return e.Msg }

// DecodeJSON decodes data into v (a pointer) as the registry's Node scripts
// read it: JSON.parse, then property access by exact name. Two things make
// encoding/json read differently, and both are closed here:
//   - encoding/json matches a member to a struct field ignoring letter case,
//     so a hidden "PublicKeyUrl" would fill PublicKeyURL although a script
//     reading .publicKeyUrl never sees it. Members whose name is not exactly
//     a field's json name are dropped before decoding.
//   - a member repeated keeps its last value in both, but a member repeated
//     in another letter case ("status", then "Status") is two properties to
//     JSON.parse and one field to encoding/json. Any member named twice in
//     one object, in any letter case, is refused as ambiguous.
//
// Depth, size and the number of values are bounded by DefaultJSONLimits.
// The error is a *werr.Error (class Invalid) wrapping a *JSONError.
func DecodeJSON(data []byte, v any) error {
	return DecodeJSONLimits(data, v, DefaultJSONLimits)
}

// DecodeJSONLimits is DecodeJSON with explicit limits.
func DecodeJSONLimits(data []byte, v any, lim JSONLimits) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return werr.New(werr.Invalid, CodeJSONInvalid, "DecodeJSON needs a non-nil pointer, got %T", v)
	}
	if jerr := checkSize(data, lim); jerr != nil {
		return wrapJSON(jerr)
	}
	s := getScanner(data, lim)
	defer putScanner(s)
	if cap(s.out) < len(data) {
		s.out = make([]byte, 0, len(data))
	}
	i := s.ws(0)
	end, err := s.value(i, rv.Type().Elem(), 1)
	if err == nil {
		if end = s.ws(end); end != len(data) {
			err = s.fail(end, CodeJSONInvalid, "unexpected %s after the document", s.what(end))
		}
	}
	if err != nil {
		return wrapJSON(err)
	}
	// json.Unmarshal keeps no part of s.out (a json.RawMessage or an
	// Unmarshaler copies what it keeps), so the buffer is reused.
	if err := json.Unmarshal(s.out, v); err != nil {
		// The grammar was checked; what is left is a value of the wrong
		// type for its field.
		return werr.Wrap(werr.Invalid, CodeJSONInvalid, err, "a member has the wrong type")
	}
	return nil
}

// CheckJSON checks data as DecodeJSON does (grammar, duplicates in any
// letter case, limits) without decoding it.
func CheckJSON(data []byte, lim JSONLimits) error {
	if jerr := checkSize(data, lim); jerr != nil {
		return wrapJSON(jerr)
	}
	s := getScanner(data, lim)
	defer putScanner(s)
	s.noOut = true
	end, err := s.value(s.ws(0), nil, 1)
	if err == nil {
		if end = s.ws(end); end != len(data) {
			err = s.fail(end, CodeJSONInvalid, "unexpected %s after the document", s.what(end))
		}
	}
	if err != nil {
		return wrapJSON(err)
	}
	return nil
}

// ParseError is why JSON.parse refuses data (nil when it does not), as the
// registry reads every .json file of a pack, referenced or not: a syntax
// error or a byte-order mark. A member named twice, which JSON.parse
// accepts (and DecodeJSON refuses), is no error here, nor is size.
func ParseError(data []byte) error {
	err := CheckJSON(data, JSONLimits{MaxBytes: len(data) + 1, MaxDepth: 1 << 16, MaxValues: len(data) + 1})
	if werr.CodeOf(err) == CodeJSONInvalid {
		return err
	}
	return nil
}

func checkSize(data []byte, lim JSONLimits) *JSONError {
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return &JSONError{Code: CodeJSONTooLarge, Msg: fmt.Sprintf("the document is %d bytes, over the limit of %d", len(data), lim.MaxBytes), Line: 1, Column: 1}
	}
	return nil
}

func wrapJSON(err error) error {
	je, ok := err.(*JSONError)
	if !ok {
		return werr.Wrap(werr.Invalid, CodeJSONInvalid, err, "not valid JSON")
	}
	e := werr.Wrap(werr.Invalid, je.Code, je, "line %d, column %d", je.Line, je.Column)
	switch je.Code {
	case CodeJSONDuplicate:
		e = e.WithHint("name each member once: JSON.parse and wopkit would read different values")
	case CodeJSONTooLarge:
		e = e.WithHint("no registry document is this large or deep; it was not read further")
	}
	return e
}

type scanner struct {
	d      []byte
	lim    JSONLimits
	values int
	out    []byte
	names  []member // the open objects' members, in arena
	arena  []byte   // the spellings and folded spellings of their names
	seed   maphash.Seed
	noOut  bool
}

// scanners keeps scanners with their buffers between documents: a
// registry-wide verify decodes two documents per version.
var scanners = sync.Pool{New: func() any { return &scanner{seed: maphash.MakeSeed()} }}

// maxPooled bounds the buffers a pooled scanner keeps: a large document's
// are left to the garbage collector.
const maxPooled = 64 << 10

func getScanner(data []byte, lim JSONLimits) *scanner {
	s := scanners.Get().(*scanner)
	*s = scanner{d: data, lim: lim, out: s.out[:0], names: s.names[:0], arena: s.arena[:0], seed: s.seed}
	return s
}

func putScanner(s *scanner) {
	if cap(s.out) > maxPooled || cap(s.arena) > maxPooled || cap(s.names) > maxPooled/32 {
		return
	}
	s.d = nil
	scanners.Put(s)
}

func (s *scanner) emit(b []byte) {
	if !s.noOut {
		s.out = append(s.out, b...)
	}
}

func (s *scanner) emitByte(c byte) {
	if !s.noOut {
		s.out = append(s.out, c)
	}
}

func (s *scanner) fail(off int, code, format string, args ...any) *JSONError {
	line, col := 1, 1
	for _, c := range s.d[:min(off, len(s.d))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &JSONError{Code: code, Msg: fmt.Sprintf(format, args...), Offset: off, Line: line, Column: col}
}

func (s *scanner) what(i int) string {
	if i >= len(s.d) {
		return "end of input"
	}
	c := s.d[i]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", string(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (s *scanner) ws(i int) int {
	for i < len(s.d) {
		switch s.d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value checks the value at d[i] and copies it to out, filtered for the
// Go type t (nil: copied whole).
func (s *scanner) value(i int, t reflect.Type, depth int) (int, error) {
	if i >= len(s.d) {
		return 0, s.fail(i, CodeJSONInvalid, "unexpected end of input, a value was expected")
	}
	s.values++
	if s.lim.MaxValues > 0 && s.values > s.lim.MaxValues {
		return 0, s.fail(i, CodeJSONTooLarge, "more than %d values", s.lim.MaxValues)
	}
	switch c := s.d[i]; {
	case c == '{':
		return s.object(i, t, depth)
	case c == '[':
		return s.array(i, t, depth)
	case c == '"':
		end, _, err := s.str(i)
		if err != nil {
			return 0, err
		}
		s.emit(s.d[i:end])
		return end, nil
	case c == 't':
		return s.literal(i, "true")
	case c == 'f':
		return s.literal(i, "false")
	case c == 'n':
		return s.literal(i, "null")
	case c == '-' || c >= '0' && c <= '9':
		end, err := s.number(i)
		if err != nil {
			return 0, err
		}
		s.emit(s.d[i:end])
		return end, nil
	}
	return 0, s.fail(i, CodeJSONInvalid, "unexpected %s, a value was expected", s.what(i))
}

func (s *scanner) literal(i int, lit string) (int, error) {
	if !bytes.HasPrefix(s.d[i:], []byte(lit)) {
		return 0, s.fail(i, CodeJSONInvalid, "unexpected %s, a value was expected", s.what(i))
	}
	s.emit(s.d[i : i+len(lit)])
	return i + len(lit), nil
}

func (s *scanner) number(i int) (int, error) {
	start := i
	digits := func(j int) int {
		for j < len(s.d) && s.d[j] >= '0' && s.d[j] <= '9' {
			j++
		}
		return j
	}
	if s.d[i] == '-' {
		i++
	}
	switch {
	case i < len(s.d) && s.d[i] == '0':
		i++
	case i < len(s.d) && s.d[i] >= '1' && s.d[i] <= '9':
		i = digits(i)
	default:
		return 0, s.fail(start, CodeJSONInvalid, "malformed number")
	}
	if i < len(s.d) && s.d[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return 0, s.fail(start, CodeJSONInvalid, "malformed number")
		}
		i = j
	}
	if i < len(s.d) && (s.d[i] == 'e' || s.d[i] == 'E') {
		i++
		if i < len(s.d) && (s.d[i] == '+' || s.d[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return 0, s.fail(start, CodeJSONInvalid, "malformed number")
		}
		i = j
	}
	return i, nil
}

// str checks the string at d[i] == '"' and returns the index after it and,
// when it holds escapes, whether it did (the caller unquotes it then).
func (s *scanner) str(i int) (int, bool, error) {
	esc := false
	for j := i + 1; j < len(s.d); {
		switch c := s.d[j]; {
		case c == '"':
			return j + 1, esc, nil
		case c < 0x20:
			return 0, false, s.fail(j, CodeJSONInvalid, "control character 0x%02x in a string: write it as an escape", c)
		case c == '\\':
			esc = true
			if j+1 >= len(s.d) {
				return 0, false, s.fail(j, CodeJSONInvalid, "unterminated string")
			}
			switch s.d[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(s.d) {
					return 0, false, s.fail(j, CodeJSONInvalid, "malformed \\u escape")
				}
				for _, h := range s.d[j+2 : j+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return 0, false, s.fail(j, CodeJSONInvalid, "malformed \\u escape")
					}
				}
				j += 6
			default:
				return 0, false, s.fail(j, CodeJSONInvalid, "unknown escape \\%c", s.d[j+1])
			}
		default:
			j++
		}
	}
	return 0, false, s.fail(i, CodeJSONInvalid, "unterminated string")
}

func (s *scanner) array(i int, t reflect.Type, depth int) (int, error) {
	if s.lim.MaxDepth > 0 && depth > s.lim.MaxDepth {
		return 0, s.fail(i, CodeJSONTooLarge, "nested deeper than %d", s.lim.MaxDepth)
	}
	elem := elemType(t)
	s.emitByte('[')
	i = s.ws(i + 1)
	if i < len(s.d) && s.d[i] == ']' {
		s.emitByte(']')
		return i + 1, nil
	}
	for {
		end, err := s.value(i, elem, depth+1)
		if err != nil {
			return 0, err
		}
		i = s.ws(end)
		switch {
		case i < len(s.d) && s.d[i] == ',':
			s.emitByte(',')
			i = s.ws(i + 1)
		case i < len(s.d) && s.d[i] == ']':
			s.emitByte(']')
			return i + 1, nil
		default:
			return 0, s.fail(i, CodeJSONInvalid, "unexpected %s in an array, ',' or ']' was expected", s.what(i))
		}
	}
}

func (s *scanner) object(i int, t reflect.Type, depth int) (int, error) {
	if s.lim.MaxDepth > 0 && depth > s.lim.MaxDepth {
		return 0, s.fail(i, CodeJSONTooLarge, "nested deeper than %d", s.lim.MaxDepth)
	}
	var fields map[string]reflect.Type
	var elem reflect.Type
	if t != nil {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case keepsRaw(t):
			t = nil
		case t.Kind() == reflect.Struct:
			fields = structFields(t)
		case t.Kind() == reflect.Map:
			elem = t.Elem()
		default:
			t = nil
		}
	}
	s.emitByte('{')
	i = s.ws(i + 1)
	if i < len(s.d) && s.d[i] == '}' {
		s.emitByte('}')
		return i + 1, nil
	}
	// The members of this object: s.names[base:], each naming its
	// spelling and its folded spelling in s.arena (no string is made for
	// a name); looked up linearly while the object is small, through a
	// map of the folded names beyond that.
	base, abase := len(s.names), len(s.arena)
	defer func() { s.names, s.arena = s.names[:base], s.arena[:abase] }()
	var seen *nameTable
	first := true
	for {
		if i >= len(s.d) || s.d[i] != '"' {
			return 0, s.fail(i, CodeJSONInvalid, "unexpected %s in an object, a member name was expected", s.what(i))
		}
		kend, esc, err := s.str(i)
		if err != nil {
			return 0, err
		}
		raw := s.d[i:kend]
		m := member{n0: len(s.arena)}
		if esc {
			var name string
			if err := json.Unmarshal(raw, &name); err != nil {
				return 0, s.fail(i, CodeJSONInvalid, "malformed member name")
			}
			s.arena = append(s.arena, name...)
		} else {
			s.arena = append(s.arena, raw[1:len(raw)-1]...)
		}
		m.n1 = len(s.arena)
		m.f0, m.f1 = m.n0, m.n1
		if !plainName(s.arena[m.n0:m.n1]) {
			m.f0 = len(s.arena)
			s.arena = appendFold(s.arena, s.arena[m.n0:m.n1])
			m.f1 = len(s.arena)
		}
		name, f := s.arena[m.n0:m.n1], s.arena[m.f0:m.f1]
		at := -1
		var h uint64
		if seen != nil {
			h = maphash.Bytes(s.seed, f)
			at = seen.find(s, f, h)
		} else {
			for j := base; j < len(s.names); j++ {
				if p := s.names[j]; bytes.Equal(s.arena[p.f0:p.f1], f) {
					at = j
					break
				}
			}
		}
		if at >= 0 {
			p := s.names[at]
			if prev := s.arena[p.n0:p.n1]; !bytes.Equal(prev, name) {
				return 0, s.fail(i, CodeJSONDuplicate, "members %q and %q differ only in letter case", prev, name)
			}
			return 0, s.fail(i, CodeJSONDuplicate, "member %q is named twice in one object", name)
		}
		s.names = append(s.names, m)
		switch n := len(s.names) - base; {
		case seen != nil:
			seen.add(s, len(s.names)-1, h)
		case n > 16:
			seen = &nameTable{slots: make([]int, 64)}
			for j := base; j < len(s.names); j++ {
				p := s.names[j]
				seen.add(s, j, maphash.Bytes(s.seed, s.arena[p.f0:p.f1]))
			}
		}
		c := s.ws(kend)
		if c >= len(s.d) || s.d[c] != ':' {
			return 0, s.fail(c, CodeJSONInvalid, "unexpected %s after a member name, ':' was expected", s.what(c))
		}
		vs := s.ws(c + 1)
		var ft reflect.Type
		keep := true
		switch {
		case fields != nil:
			ft, keep = fields[string(name)]
		case elem != nil:
			ft = elem
		}
		saved := s.noOut
		if keep {
			if !first {
				s.emitByte(',')
			}
			first = false
			s.emit(raw)
			s.emitByte(':')
		} else {
			s.noOut = true
		}
		end, err := s.value(vs, ft, depth+1)
		s.noOut = saved
		if err != nil {
			return 0, err
		}
		i = s.ws(end)
		switch {
		case i < len(s.d) && s.d[i] == ',':
			i = s.ws(i + 1)
		case i < len(s.d) && s.d[i] == '}':
			s.emitByte('}')
			return i + 1, nil
		default:
			return 0, s.fail(i, CodeJSONInvalid, "unexpected %s in an object, ',' or '}' was expected", s.what(i))
		}
	}
}

// nameTable finds the members of a large object by folded name: open
// addressing over positions in s.names, hashed with the scanner's random
// seed (a document cannot choose names that collide).
type nameTable struct {
	slots []int // a position in s.names plus one; 0 is free
	used  int
}

// find returns the position in s.names of the member whose folded
// spelling is f (hash h), or -1.
func (t *nameTable) find(s *scanner, f []byte, h uint64) int {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		j := t.slots[i]
		if j == 0 {
			return -1
		}
		if p := s.names[j-1]; bytes.Equal(s.arena[p.f0:p.f1], f) {
			return j - 1
		}
	}
}

// add records the member at position pos of s.names, whose folded
// spelling hashes to h; the table stays at most half full.
func (t *nameTable) add(s *scanner, pos int, h uint64) {
	if 2*(t.used+1) > len(t.slots) {
		old := t.slots
		t.slots, t.used = make([]int, 2*len(old)), 0
		for _, j := range old {
			if j != 0 {
				p := s.names[j-1]
				t.add(s, j-1, maphash.Bytes(s.seed, s.arena[p.f0:p.f1]))
			}
		}
	}
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = pos + 1
	t.used++
}

// member is a member name of an open object: its spelling is
// arena[n0:n1], its folded spelling arena[f0:f1] (see appendFold).
type member struct{ n0, n1, f0, f1 int }

// plainName reports whether name is ASCII without upper case: its own
// folded spelling.
func plainName(name []byte) bool {
	for _, c := range name {
		if c >= utf8.RuneSelf || c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return true
}

// appendFold appends name in simple case folding to dst, so that "Status",
// "STATUS" and "ſtatus" fold alike: each rune becomes the ASCII lower-case
// letter of its case orbit when it has one (K, k and the Kelvin sign fold
// to k), else the least rune of the orbit; a byte that is not UTF-8 becomes
// U+FFFD, as strings.Map(foldRune, name) makes it.
func appendFold(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		if c := name[i]; c < utf8.RuneSelf {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, w := utf8.DecodeRune(name[i:])
		dst = utf8.AppendRune(dst, foldRune(r))
		i += w
	}
	return dst
}

func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= 'a' && f <= 'z' {
			return f
		}
		if f < least {
			least = f
		}
	}
	if least >= 'A' && least <= 'Z' {
		return least + 'a' - 'A'
	}
	return least
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// keepsRaw reports whether values of t are copied whole: raw messages,
// interfaces and types that decode themselves.
func keepsRaw(t reflect.Type) bool {
	if t == rawMessageType || t.Kind() == reflect.Interface {
		return true
	}
	p := reflect.PointerTo(t)
	return p.Implements(unmarshalerType) || p.Implements(textUnmarshaler)
}

// elemType is the element type of the slice or array t, or nil (copied
// whole).
func elemType(t reflect.Type) reflect.Type {
	if t == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if keepsRaw(t) {
		return nil
	}
	if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		return t.Elem()
	}
	return nil
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// structFields maps the exact json names of t's fields (promoted through
// untagged embedded structs, as encoding/json does) to their types.
func structFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	// Shallower fields win over promoted ones, as in encoding/json.
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		var embedded []reflect.Type
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				et := f.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					embedded = append(embedded, et)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, ok := m[name]; !ok {
				m[name] = f.Type
			}
		}
		for _, et := range embedded {
			walk(et)
		}
	}
	walk(t)
	fieldCache.Store(t, m)
	return m
}
