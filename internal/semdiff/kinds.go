package semdiff

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

// Contents are the entries of every pack kind (node packs' nodes and
// agents, then the declarative kinds' arrays, then a connection's
// provider).
var Contents = []Content{
	{Member: "nodes", IDKey: "typeId", Noun: "node"},
	{Member: "agents", IDKey: "agentId", Noun: "agent"},
	{Member: "chains", IDKey: "chainId", Noun: "chain"},
	{Member: "prompts", IDKey: "templateId", Noun: "prompt"},
	{Member: "cards", IDKey: "cardTypeId", Noun: "card"},
	{Member: "templates", IDKey: "templateId", Noun: "form template"},
	{Member: "artifactTypes", IDKey: "artifactTypeId", Noun: "artifact type"},
	{Member: "provider", IDKey: "id", Noun: "connection provider", Single: true},
}

// toolActions are the entries of a tool install manifest.
var toolActions = Content{Member: "actions", IDKey: "name", Noun: "tool action"}

func contentOf(member string) (Content, bool) {
	for _, c := range Contents {
		if c.Member == member {
			return c, true
		}
	}
	return Content{}, false
}
