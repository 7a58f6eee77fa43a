// Package kinds is the one home of what wopkit knows about each kind of
// document it reads and writes: the kind names `validate --json` reports,
// the spec versions, the schema each (spec, kind) is checked against, and
// one row per pack kind (Packs) with everything the readers of packs need
// (its pack.json "kind" value, content member and id key, nouns, the
// registry index's count member, its rules' prefix and docs section).
// Detection (Detect, DetectSpec) lives here too, so that signing,
// verifying and inspecting need no validator.
//
// It sits at the bottom: it imports jsondoc and semver only. A package
// other than this one that spells a pack kind's name as a string is a
// second home for a fact (TestKindNamesLiveInTheTable fails).
package kinds

// Kind is the kind of a document, as named in `validate --json`. The names
// are stable: new kinds get new names, existing ones never change.
type Kind string

// The document kinds.
const (
	NodePack     Kind = "node-pack"
	Agent        Kind = "agent"
	AgentRef     Kind = "agent-ref"
	EvalSuite    Kind = "eval-suite"
	ToolManifest Kind = "tool-manifest"
	Tarball      Kind = "tarball"
	OtherPack    Kind = "other-pack" // a pack kind no schema covers
	Prompt       Kind = "prompt"     // a system prompt file referenced by an agent
	JSONSchema   Kind = "json-schema"
	Unknown      Kind = "unknown"

	// Pack kinds other than node (pack.json "kind"), and the registry's
	// version manifest (the x.json served beside x.tgz).
	WorkflowChainPack Kind = "workflow-chain-pack"
	ConnectionPack    Kind = "connection-pack"
	PromptPack        Kind = "prompt-pack"
	CardPack          Kind = "card-pack"
	FormContentPack   Kind = "form-content-pack"
	ArtifactTypePack  Kind = "artifact-type-pack"
	FrontendPlugin    Kind = "frontend-plugin"
	VersionManifest   Kind = "version-manifest"
	PromptRef         Kind = "prompt-ref"
)

// Spec is the OpenWOP spec version a document is checked against.
type Spec string

// The spec versions. SpecAuto detects it from the document (DetectSpec).
const (
	SpecAuto Spec = ""
	V1       Spec = "v1"
	V2       Spec = "v2"
)

// ParseSpec accepts a spec version as given to `--spec` ("" is auto).
func ParseSpec(s string) (Spec, bool) {
	switch sp := Spec(s); sp {
	case SpecAuto, V1, V2:
		return sp, true
	}
	return "", false
}

// schemaRow is one row of the schema table: documents of Kind under Spec
// are checked against the schema with $id ID. Detection, validation, field
// help and `--schemas DIR` overrides (which replace a schema by $id) all go
// through this table. A (spec, kind) without a row is recognised but not
// schema-checked. Spec "" matches any spec (tool manifests are not OpenWOP
// documents).
type schemaRow struct {
	Spec Spec
	Kind Kind
	ID   string
}

const (
	v1Seed = "https://openwop.dev/spec/v1/" // the seed contract (and the registry's v1 kind schemas)
	v2Spec = "https://openwop.dev/spec/v2/"
)

var schemaTable = []schemaRow{
	{V1, NodePack, v1Seed + "node-pack-manifest.schema.json"},
	{V1, Agent, v1Seed + "agent-manifest.schema.json"},
	{V1, AgentRef, v1Seed + "agent-ref.schema.json"},
	{V1, EvalSuite, v1Seed + "agent-eval-suite.schema.json"},
	{V1, PromptRef, v1Seed + "prompt-ref.schema.json"},
	{V1, WorkflowChainPack, v1Seed + "workflow-chain-pack-manifest.schema.json"},
	{V1, PromptPack, v1Seed + "prompt-pack-manifest.schema.json"},
	{V1, CardPack, v1Seed + "chat-card-pack-manifest.schema.json"},
	{V1, FormContentPack, v1Seed + "form-content-pack-manifest.schema.json"},
	{V1, ArtifactTypePack, v1Seed + "artifact-type-pack-manifest.schema.json"},
	{V1, VersionManifest, v1Seed + "registry-version-manifest.schema.json"},
	// v1 connection packs: the registry has no v1 connection schema (no row).

	{V2, NodePack, v2Spec + "node-pack-manifest.schema.json"},
	{V2, Agent, v2Spec + "agent-manifest.schema.json"},
	{V2, AgentRef, v2Spec + "agent-ref.schema.json"},
	{V2, EvalSuite, v2Spec + "agent-eval-suite.schema.json"},
	{V2, PromptRef, v2Spec + "prompt-ref.schema.json"},
	{V2, WorkflowChainPack, v2Spec + "workflow-chain-pack-manifest.schema.json"},
	{V2, ConnectionPack, v2Spec + "connection-pack-manifest.schema.json"},
	{V2, PromptPack, v2Spec + "prompt-pack-manifest.schema.json"},
	{V2, CardPack, v2Spec + "chat-card-pack-manifest.schema.json"},
	{V2, FormContentPack, v2Spec + "form-content-pack-manifest.schema.json"},
	{V2, ArtifactTypePack, v2Spec + "artifact-type-pack-manifest.schema.json"},
	{V2, FrontendPlugin, v2Spec + "frontend-plugin-manifest.schema.json"},
	{V2, VersionManifest, v2Spec + "registry-version-manifest.schema.json"},

	{SpecAuto, ToolManifest, "https://toolspace.yepgent.com/schemas/install-manifest-v0.4.json"},
}

// SchemaIDFor returns the $id of the schema that checks kind k under spec
// (SpecAuto means v1, the contract of documents that do not say), or "".
func SchemaIDFor(spec Spec, k Kind) string {
	if spec == SpecAuto {
		spec = V1
	}
	for _, r := range schemaTable {
		if r.Kind == k && (r.Spec == spec || r.Spec == SpecAuto) {
			return r.ID
		}
	}
	return ""
}

// All returns every kind `--kind` accepts, in table order.
func All() []Kind {
	var out []Kind
	seen := map[Kind]bool{}
	for _, r := range schemaTable {
		if !seen[r.Kind] {
			seen[r.Kind] = true
			out = append(out, r.Kind)
		}
	}
	return out
}

// Parse accepts a kind name as given to `--kind`.
func Parse(s string) (Kind, bool) {
	for _, k := range All() {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}
