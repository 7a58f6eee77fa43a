package validate

import (
	"fmt"
	"path"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/lazyre"
)

// The rules of this file run only with Options.ForRegistry (`validate
// --for-registry`): each is one of the registry's own gates (openwop-registry
// scripts/), which refuse what a host or install would take.

// TypeCatalog says which node typeIds the registry's packs declare (the
// registry's check-agent-tool-allowlist resolves `openwop:<typeId>` tools
// against every pack of its tree).
type TypeCatalog interface {
	HasTypeID(typeID string) bool
}

// PackSchemaID returns the $id the registry expects of the pack schema at path
// file (below schemas/ for files there) of pack name at version: the URL it
// serves it from (check-pack-schema-ids). The scaffold writes it.
func PackSchemaID(name, version, file string) string {
	return schemaIDBase + name + "/" + version + "/" + strings.TrimPrefix(file, "schemas/")
}

// promptRefPattern is where the registry's tarball builder takes prompts
// from (check-pack-prompt-refs mirrors build-pack-tarball.mjs).
var promptRefPattern = lazyre.New(`^prompts/[^/]+\.(md|txt)$`)

// OW019: an agent's systemPromptRef is prompts/<name>.md or .txt.
func checkPromptRefsBundled(c *lintCtx) {
	if !c.opts.ForRegistry {
		return
	}
	for _, a := range c.agents() {
		ref := a.n.Get("systemPromptRef")
		if ref == nil || ref.Kind != jsondoc.String || ref.Str == "" || promptRefPattern.MatchString(ref.Str) {
			continue
		}
		c.report(jsondoc.Child(a.ptr(), "systemPromptRef"), false,
			fmt.Sprintf("systemPromptRef %q is outside prompts/*.md|txt, which the registry's tarball builder leaves out; %s", ref.Str, c.refusal("check-pack-prompt-refs")),
			fmt.Sprintf("move the prompt to %q and point systemPromptRef at it", "prompts/"+strings.TrimSuffix(path.Base(ref.Str), path.Ext(ref.Str))+".md"))
	}
}

// OW020: an `openwop:<typeId>` tool of an agent's toolAllowlist names a
// node: one of this pack, or (with Options.Catalog) one the registry knows.
// Without a catalog only typeIds in the pack's own namespace are checked.
func checkAllowlistResolves(c *lintCtx) {
	if !c.opts.ForRegistry {
		return
	}
	name := c.doc.Root.Get("name").Text()
	set, list := c.nodeTypeIDs()
	for _, a := range c.agents() {
		for _, t := range childItems(a, "toolAllowlist") {
			tail, ok := strings.CutPrefix(t.n.Text(), "openwop:")
			if !ok || tail == "" || set[tail] {
				continue
			}
			var why string
			switch {
			case strings.Contains(tail, "*"):
				why = "a wildcard names no node typeId"
			case c.opts.Catalog != nil && !c.opts.Catalog.HasTypeID(tail):
				why = "no node of this pack or of the registry has that typeId"
			case c.opts.Catalog == nil && name != "" && strings.HasPrefix(tail, name+"."):
				why = "it is in this pack's namespace, but no node of this pack has that typeId"
			default:
				continue
			}
			hint := "name a node typeId exactly (e.g. openwop:core.openwop.http.fetch), or remove the entry"
			if len(list) > 0 {
				hint = "name a node typeId exactly, such as " + quoteList(prefixAll("openwop:", list), 3) + ", or remove the entry"
			}
			c.report(t.ptr(), false, fmt.Sprintf("toolAllowlist entry %q is dangling: %s; %s", t.n.Str, why, c.refusal("check-agent-tool-allowlist")), hint)
		}
	}
}

func prefixAll(p string, xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = p + x
	}
	return out
}

// OW021: every *SchemaRef names a file publish copies into the served schema
// tree. The registry serves a version's schemas from one flat folder,
// registry/<name>/<version>/<file>, filled from the tarball's schemas/*.json;
// check-pack-schema-tree-complete looks each ref up there by its base name.
func checkSchemaTreeComplete(c *lintCtx) {
	if !c.opts.ForRegistry {
		return
	}
	var walk func(ptr string, n *jsondoc.Node)
	walk = func(ptr string, n *jsondoc.Node) {
		switch n.Kind {
		case jsondoc.Object:
			for _, m := range n.Members {
				p := jsondoc.Child(ptr, m.Key)
				if strings.HasSuffix(m.Key, "SchemaRef") && m.Value.Kind == jsondoc.String {
					c.checkServedSchema(p, m.Key, m.Value.Str)
					continue
				}
				walk(p, m.Value)
			}
		case jsondoc.Array:
			for i, it := range n.Items {
				walk(jsondoc.Index(ptr, i), it)
			}
		}
	}
	walk("", c.doc.Root)
}

func (c *lintCtx) checkServedSchema(ptr, key, ref string) {
	base := path.Base(strings.TrimRight(ref, "/"))
	served := "schemas/" + base
	if strings.HasSuffix(base, ".json") && base != ".json" && c.readPackFile(served).state == fileOK {
		return
	}
	c.report(ptr, false,
		fmt.Sprintf("%s %q is not served: the registry serves a version's schemas from one flat folder copied from schemas/*.json, and there is no %s, so the URL would 404; %s", key, ref, served, c.refusal("check-pack-schema-tree-complete")),
		fmt.Sprintf("move the schema to %s and point %s at it", served, key))
}
