package semdiff

import "github.com/openwop/wopkit/internal/kinds"

// Content describes one kind of entry a pack holds: the pack.json member
// (an array, or one object), the key that names each entry, and the noun
// a consumer knows it by. diff compares entries by id through this table
// alone, so a new pack kind is one row.
type Content struct {
	Member string
	IDKey  string
	Noun   string
	Single bool // one object, not an array (a connection pack's provider)
}

// Contents are the entries of every pack kind, as the kind table
// (internal/kinds) lists them.
func Contents() []Content {
	var out []Content
	for _, c := range kinds.Contents() {
		out = append(out, Content{Member: c.Member, IDKey: c.IDKey, Noun: c.Noun, Single: c.Object})
	}
	return out
}

// toolActions are the entries of a tool install manifest.
var toolActions = Content{Member: "actions", IDKey: "name", Noun: "tool action"}

func contentOf(member string) (Content, bool) {
	for _, c := range Contents() {
		if c.Member == member {
			return c, true
		}
	}
	return Content{}, false
}
