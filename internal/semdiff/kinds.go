package semdiff

import "github.com/openwop/wopkit/internal/kinds"

// Entries are compared by id through the kind table (internal/kinds): each
// pack kind's content members with the key that names an entry, so a new
// pack kind needs no change here. A tool install manifest's actions are
// the one other list of entries.
var toolActions = kinds.Content{Member: "actions", IDKey: "name", Noun: "tool action"}
