package packref

import "strings"

// A pack ships the tool install manifests its agents use as
// tools/<tool-id>.tool.json; an agent names such a tool in its
// toolAllowlist as <scope>:<tool-id> (mcp:<tool-id> for an MCP server). The
// spec has no pack.json member for it (v2's runtime.mcpServer describes a
// remote pack that is itself an MCP server, not a tool it ships), so the
// allowlist entry is the reference: validate checks the manifest an entry
// names when the pack has it, and pack packs it.

// ToolDir is the directory a pack ships tool install manifests in.
const ToolDir = "tools"

// ToolFile is the file a pack ships the manifest of tool id in.
func ToolFile(id string) string { return ToolDir + "/" + id + ".tool.json" }

// ToolID is the tool id of a toolAllowlist entry <scope>:<tool-id> ("" when
// the entry has no tool id a file could be named after).
func ToolID(entry string) string {
	i := strings.IndexByte(entry, ':')
	if i < 0 {
		return ""
	}
	id := entry[i+1:]
	if id == "" || id == "*" || strings.ContainsAny(id, `/\:`) || strings.HasPrefix(id, ".") {
		return ""
	}
	return id
}

// ToolFiles lists the files of the tools a decoded pack manifest's agents
// name in their toolAllowlist, whether or not the pack ships them (a host
// may provide the tool).
func ToolFiles(doc map[string]any) []string {
	var out []string
	agents, _ := doc["agents"].([]any)
	for _, a := range agents {
		m, _ := a.(map[string]any)
		list, _ := m["toolAllowlist"].([]any)
		for _, e := range list {
			s, _ := e.(string)
			if id := ToolID(s); id != "" {
				if p, err := Path(ToolFile(id)); err == nil && p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}
