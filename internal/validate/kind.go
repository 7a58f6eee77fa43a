package validate

import (
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// The validator names kinds and spec versions as the kind table does
// (internal/kinds, their one home); these are its names for them, so that
// the rules read short.
type (
	// Kind is the kind of a document (kinds.Kind).
	Kind = kinds.Kind
	// Spec is a spec version (kinds.Spec).
	Spec = kinds.Spec
)

// The document kinds and spec versions (see internal/kinds).
const (
	NodePack          = kinds.NodePack
	Agent             = kinds.Agent
	AgentRef          = kinds.AgentRef
	EvalSuite         = kinds.EvalSuite
	ToolManifest      = kinds.ToolManifest
	Tarball           = kinds.Tarball
	OtherPack         = kinds.OtherPack
	Prompt            = kinds.Prompt
	JSONSchema        = kinds.JSONSchema
	Unknown           = kinds.Unknown
	WorkflowChainPack = kinds.WorkflowChainPack
	ConnectionPack    = kinds.ConnectionPack
	PromptPack        = kinds.PromptPack
	CardPack          = kinds.CardPack
	FormContentPack   = kinds.FormContentPack
	ArtifactTypePack  = kinds.ArtifactTypePack
	FrontendPlugin    = kinds.FrontendPlugin
	VersionManifest   = kinds.VersionManifest
	PromptRef         = kinds.PromptRef

	SpecAuto = kinds.SpecAuto
	V1       = kinds.V1
	V2       = kinds.V2
)

// ParseSpec accepts a spec version as given to `--spec` ("" is auto).
func ParseSpec(s string) (Spec, bool) { return kinds.ParseSpec(s) }

// SchemaIDFor returns the $id of the schema that checks kind k under spec
// (SpecAuto means v1), or "".
func SchemaIDFor(spec Spec, k Kind) string { return kinds.SchemaIDFor(spec, k) }

// SchemaID returns the $id of the v1 schema that checks kind, or "".
func SchemaID(k Kind) string { return kinds.SchemaIDFor(V1, k) }

// Kinds returns every kind `--kind` accepts, in table order.
func Kinds() []Kind { return kinds.All() }

// ParseKind accepts a kind name as given to `--kind`.
func ParseKind(s string) (Kind, bool) { return kinds.Parse(s) }

// IsPackKind reports whether k is a pack manifest kind (pack.json).
func IsPackKind(k Kind) bool { return kinds.IsPack(k) }

// Detect tells the kind of a decoded document (kinds.Detect).
func Detect(name string, root *jsondoc.Node) Kind { return kinds.Detect(name, root) }

// DetectSpec tells which spec version a document follows, and why
// (kinds.DetectSpec).
func DetectSpec(root *jsondoc.Node) (Spec, string) { return kinds.DetectSpec(root) }

// packKindOf returns the document kind of a pack.json "kind" value.
func packKindOf(name string) Kind { return kinds.DocOf(name) }
