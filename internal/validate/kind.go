package validate

import (
	"path"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// Kind is the kind of a document, as named in `validate --json`.
type Kind string

// The document kinds.
const (
	NodePack     Kind = "node-pack"
	Agent        Kind = "agent"
	AgentRef     Kind = "agent-ref"
	EvalSuite    Kind = "eval-suite"
	ToolManifest Kind = "tool-manifest"
	Tarball      Kind = "tarball"
	OtherPack    Kind = "other-pack" // a pack kind no seed schema covers
	Prompt       Kind = "prompt"     // a system prompt file referenced by an agent
	JSONSchema   Kind = "json-schema"
	Unknown      Kind = "unknown"
)

// schemaIDs maps the schema-checked kinds to their schema $id.
var schemaIDs = map[Kind]string{
	NodePack:     "https://openwop.dev/spec/v1/node-pack-manifest.schema.json",
	Agent:        "https://openwop.dev/spec/v1/agent-manifest.schema.json",
	AgentRef:     "https://openwop.dev/spec/v1/agent-ref.schema.json",
	EvalSuite:    "https://openwop.dev/spec/v1/agent-eval-suite.schema.json",
	ToolManifest: "https://toolspace.yepgent.com/schemas/install-manifest-v0.4.json",
}

// SchemaID returns the $id of the schema that checks kind, or "".
func SchemaID(k Kind) string { return schemaIDs[k] }

// ParseKind accepts a kind name as given to `--kind`.
func ParseKind(s string) (Kind, bool) {
	switch k := Kind(s); k {
	case NodePack, Agent, AgentRef, EvalSuite, ToolManifest:
		return k, true
	}
	return "", false
}

// Detect tells the kind of a decoded document from its content and file
// name (SPEC-NOTES §1). It returns Unknown when nothing matches.
func Detect(name string, root *jsondoc.Node) Kind {
	if root == nil || root.Kind != jsondoc.Object {
		if path.Base(name) == "pack.json" {
			return NodePack
		}
		return Unknown
	}
	if k := root.Get("kind"); k != nil && (path.Base(name) == "pack.json" || root.Get("engines") != nil || root.Get("name") != nil) {
		if k.Kind == jsondoc.String && k.Str != "node" {
			return OtherPack
		}
		return NodePack
	}
	switch {
	case path.Base(name) == "pack.json":
		return NodePack
	case root.Get("manifest_version") != nil:
		return ToolManifest
	case root.Get("engines") != nil && root.Get("runtime") != nil:
		return NodePack
	case root.Get("suiteId") != nil && root.Get("tasks") != nil:
		return EvalSuite
	case root.Get("agentId") != nil && root.Get("persona") != nil && root.Get("modelClass") != nil:
		return Agent
	case root.Get("suiteId") != nil && strings.Contains(root.Get("suiteId").Text(), ".evals."):
		return EvalSuite
	}
	return Unknown
}
