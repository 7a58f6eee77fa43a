package scaffold

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/lazyre"
)

// PointerMap maps a kind's answers to the JSON pointers of the document
// they are written to, both ways, from one table derived from the answers'
// structure: each answer field is at its JSON name below its parent's
// place, unless its `doc` tag says where it goes ("endpoints/authorize",
// relative to the parent; "-" for an answer that is no value of the
// document). Further places after a space ("artifactTypeId schemaRef")
// are written from the same answer too; ",derived" marks an answer the
// document holds changed (an id the pack name is put in front of, a
// default read as its type, a list written as an object keyed by a value):
// problems there are still its, but the text typed is not checked there,
// and its parts have no places of their own. Lists take their items' index on both sides
// ("N").
type PointerMap struct {
	// answers is the struct type the table is derived from, on first use
	// (reflection over every field: no work while the program starts).
	answers reflect.Type
	once    sync.Once
	entries []pointerEntry
	// none are the answers the map knows without a place of their own:
	// no value of the document (doc:"-"), or the parts of a derived one
	// (the kind places them from the answers: parameters keyed by name).
	none [][]string
}

type pointerEntry struct {
	field   []string // answer path tokens, "N" for a list index
	pointer []string // pointer tokens, "N" for the same index
	// derived: the document holds the answer changed (no Pointer to check
	// the typed text at); also: a further place of the same answer.
	derived bool
}

// pointerMap derives the map of the answers answers (a struct or a
// pointer to one).
func pointerMap(answers any) *PointerMap {
	t := reflect.TypeOf(answers)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return &PointerMap{answers: t}
}

// table derives the map on its first use and returns m.
func (m *PointerMap) table() *PointerMap {
	m.once.Do(func() { m.walk(m.answers, nil, nil) })
	return m
}

func (m *PointerMap) walk(t reflect.Type, field, pointer []string) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			m.walk(f.Type, field, pointer)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		doc, opt, _ := strings.Cut(f.Tag.Get("doc"), ",")
		if doc == "-" {
			m.none = append(m.none, append(append([]string(nil), field...), name))
			continue
		}
		places := strings.Fields(doc)
		if len(places) == 0 {
			places = []string{name}
		}
		fd := append(append([]string(nil), field...), name)
		var at []string
		for n, place := range places {
			p := append(append([]string(nil), pointer...), strings.Split(place, "/")...)
			if n == 0 {
				at = p
			}
			m.entries = append(m.entries, pointerEntry{field: fd, pointer: p, derived: opt == "derived" || n > 0})
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case opt == "derived": // written changed: its parts are not at places of their own
			m.parts(ft, fd)
		case ft.Kind() == reflect.Struct:
			m.walk(ft, fd, at)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			n, p := append(fd, "N"), append(at, "N")
			m.entries = append(m.entries, pointerEntry{field: n, pointer: p})
			m.walk(ft.Elem(), n, p)
		}
	}
}

// parts records the fields below a derived answer as known without a place.
func (m *PointerMap) parts(t reflect.Type, field []string) {
	if t.Kind() == reflect.Slice {
		t, field = t.Elem(), append(append([]string(nil), field...), "N")
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		fd := append(append([]string(nil), field...), name)
		m.none = append(m.none, fd)
		m.parts(f.Type, fd)
	}
}

// match matches toks against a pattern ("N" takes a number), returning
// the numbers; prefix allows toks to go on after the pattern.
func match(pattern, toks []string, prefix bool) ([]string, bool) {
	if len(toks) < len(pattern) || !prefix && len(toks) != len(pattern) {
		return nil, false
	}
	var idx []string
	for i, p := range pattern {
		if p == "N" {
			if _, err := strconv.Atoi(toks[i]); err != nil {
				return nil, false
			}
			idx = append(idx, toks[i])
			continue
		}
		if p != toks[i] {
			return nil, false
		}
	}
	return idx, true
}

// fill puts the numbers into a pattern's "N"s.
func fill(pattern, idx []string) []string {
	out := append([]string(nil), pattern...)
	for i, p := range out {
		if p == "N" && len(idx) > 0 {
			out[i], idx = idx[0], idx[1:]
		}
	}
	return out
}

// Pointer returns the pointer of an answer field ("provider.auth.read.0.key"
// is "/provider/auth/scopes/read/0/key"), "" for an answer that is not one
// value of the document.
func (m *PointerMap) Pointer(field string) string {
	if m == nil || field == "" {
		return ""
	}
	toks := strings.Split(field, ".")
	for _, e := range m.table().entries {
		if idx, ok := match(e.field, toks, false); ok && !e.derived {
			return "/" + strings.Join(fill(e.pointer, idx), "/")
		}
	}
	return ""
}

// Field returns the answer a pointer of the document comes from: the
// answer whose place is the longest prefix of the pointer ("" when none is).
func (m *PointerMap) Field(pointer string) string {
	if m == nil {
		return ""
	}
	toks := jsondoc.SplitPointer(pointer)
	best, bestLen := "", -1
	for _, e := range m.table().entries {
		if idx, ok := match(e.pointer, toks, true); ok && len(e.pointer) > bestLen {
			best, bestLen = strings.Join(fill(e.field, idx), "."), len(e.pointer)
		}
	}
	return best
}

// Covers reports whether the map knows the answer field: it has a place in
// the document (checked there as typed or not), or is declared none.
func (m *PointerMap) Covers(field string) bool {
	if m == nil {
		return false
	}
	toks := strings.Split(field, ".")
	for _, e := range m.table().entries {
		if _, ok := match(e.field, toks, false); ok {
			return true
		}
	}
	for _, f := range m.table().none {
		if _, ok := match(f, toks, false); ok {
			return true
		}
	}
	return false
}

// Fields lists the answer fields the map checks where they are typed
// ("N" for list indices): those the document holds as typed.
func (m *PointerMap) Fields() []string {
	var out []string
	for _, e := range m.table().entries {
		if !e.derived {
			out = append(out, strings.Join(e.field, "."))
		}
	}
	return out
}

// AnswerOf is the answer field the value at pointer in the pack.json of a
// pack of kind kind comes from ("" when none does), so that a message
// naming another place of the document ("already used at
// /nodes/0/typeId") can name the answer instead.
func AnswerOf(kind, pointer string) string {
	if k, ok := PackKind(kind); ok && k.Pointers != nil {
		return k.Pointers.Field(pointer)
	}
	return fieldOf(pointer)
}

// placeInMessage is a pointer a validator's message names, with the line
// it adds: "at /nodes/0/typeId (line 16)".
// It starts a word and has two tokens at least, so that a file's path
// ("evals/assistant.json") is not taken for one.
var placeInMessage = lazyre.New(`(^|[\s(])(/[A-Za-z_][A-Za-z0-9_~-]*(?:/[A-Za-z0-9_~-]+)+)( \(line \d+\))?`)

// PlacesInMessage replaces each place of the document msg names (a JSON
// pointer, with its line) by name(pointer); a place name gives "" for is
// left as it is.
func PlacesInMessage(msg string, name func(pointer string) string) string {
	return placeInMessage.ReplaceAllStringFunc(msg, func(m string) string {
		sub := placeInMessage.FindStringSubmatch(m)
		if n := name(sub[2]); n != "" {
			return sub[1] + n
		}
		return m
	})
}
