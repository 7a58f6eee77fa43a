package publish

import (
	"sync"

	"github.com/openwop/wopkit/internal/publish/jsjson"
)

// treeCatalog is the node typeIds the packs of a registry tree declare
// (their latest version manifests' nodes[].typeId): what the registry's
// check-agent-tool-allowlist resolves an agent's `openwop:<typeId>` tool
// against. It is read on first use only: a pack whose allowlist names no
// other pack's node never pays for it.
type treeCatalog struct {
	t    *Tree
	once sync.Once
	ids  map[string]bool
}

func (c *treeCatalog) HasTypeID(id string) bool {
	c.once.Do(c.load)
	return c.ids[id]
}

func (c *treeCatalog) load() {
	c.ids = map[string]bool{}
	names, err := c.t.list(c.t.packsDir(), true)
	if err != nil {
		return
	}
	for _, name := range names {
		if !safeName(name) {
			continue
		}
		vs, err := c.t.versionsOf(name)
		if err != nil || len(vs) == 0 {
			continue
		}
		m, err := c.t.manifest(name, highest(vs))
		if err != nil {
			continue
		}
		for _, n := range jsjson.Array(jsjson.Field(m, "nodes")) {
			if id, ok := jsjson.Str(jsjson.Field(n, "typeId")); ok && id != "" {
				c.ids[id] = true
			}
		}
	}
}
