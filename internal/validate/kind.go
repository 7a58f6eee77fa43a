package validate

import (
	"path"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/lazyre"
)

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

// packKinds maps a pack.json "kind" value to the document kind.
var packKinds = map[string]Kind{
	"node":            NodePack,
	"workflow-chain":  WorkflowChainPack,
	"connection":      ConnectionPack,
	"prompt":          PromptPack,
	"card":            CardPack,
	"form-content":    FormContentPack,
	"artifact-type":   ArtifactTypePack,
	"frontend-plugin": FrontendPlugin,
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

// SchemaID returns the $id of the v1 schema that checks kind, or "".
func SchemaID(k Kind) string { return SchemaIDFor(V1, k) }

// Kinds returns every kind `--kind` accepts, in table order.
func Kinds() []Kind {
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

// ParseKind accepts a kind name as given to `--kind`.
func ParseKind(s string) (Kind, bool) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}

// IsPackKind reports whether k is a pack manifest kind (pack.json).
func IsPackKind(k Kind) bool {
	if k == OtherPack {
		return true
	}
	for _, pk := range packKinds {
		if pk == k {
			return true
		}
	}
	return false
}

// packKindOf returns the document kind of a pack.json "kind" value.
func packKindOf(kind string) Kind {
	if k, ok := packKinds[kind]; ok {
		return k
	}
	return OtherPack
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
	// A registry version manifest is a pack manifest plus the registry's
	// integrity (and lifecycle) fields.
	if root.Get("integrity") != nil && (root.Get("name") != nil || root.Get("engines") != nil) && path.Base(name) != "pack.json" {
		return VersionManifest
	}
	if k := root.Get("kind"); k != nil && (path.Base(name) == "pack.json" || root.Get("engines") != nil || root.Get("name") != nil) {
		if k.Kind == jsondoc.String {
			return packKindOf(k.Str)
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

// ceilingAdmits2 is the registry's test for an engines range that admits
// protocol major 2 (REG scripts/lib/registry-tree.mjs admitsV2).
var ceilingAdmits2 = lazyre.New(`<\s*v?([3-9]|\d{2,})\.0\.0`)

// DetectSpec tells which spec version a document follows, and why. In
// order: a `$schema` naming a /spec/v1/ or /spec/v2/ schema; the signing
// block's shape ({method, publicKeyRef, …} is v1, else {keyId, scheme} is v2); a
// version manifest's tarballUrl (/v2/… or /v1/…); an engines.openwop range
// with an explicit ceiling that admits major 2 (what the registry calls
// "admits v2"). Anything else is v1, the contract of documents that do not
// say: `kind` alone decides nothing, since v1 packs may carry it too and a
// v2 pack that forgot it must hear that v2 requires it.
func DetectSpec(root *jsondoc.Node) (Spec, string) {
	if root == nil || root.Kind != jsondoc.Object {
		return V1, "default"
	}
	if s := root.Get("$schema").Text(); s != "" {
		switch {
		case strings.Contains(s, "/spec/v2/"):
			return V2, "$schema"
		case strings.Contains(s, "/spec/v1/"):
			return V1, "$schema"
		}
	}
	if sg := root.Get("signing"); sg != nil && sg.Kind == jsondoc.Object {
		// v1 blocks may carry a keyId beside method (the legacy
		// method "ed25519"); method and the *Ref members exist only in v1.
		switch {
		case sg.Get("method") != nil || sg.Get("publicKeyRef") != nil || sg.Get("signatureRef") != nil:
			return V1, "signing"
		case sg.Get("keyId") != nil || sg.Get("scheme") != nil:
			return V2, "signing"
		}
	}
	if u := root.Get("tarballUrl").Text(); u != "" {
		switch {
		case strings.HasPrefix(u, "/v2/"):
			return V2, "tarballUrl"
		case strings.HasPrefix(u, "/v1/"):
			return V1, "tarballUrl"
		}
	}
	if r := root.Get("engines"); r != nil {
		if s := r.Get("openwop").Text(); s != "" && admitsMajor2(s) {
			return V2, "engines"
		}
	}
	return V1, "default"
}

// admitsMajor2 reports whether an engines.openwop range has an explicit
// ceiling that admits protocol major 2 (a range without a ceiling is read
// by hosts as "<2.0.0").
func admitsMajor2(r string) bool {
	if ceilingAdmits2.MatchString(r) {
		return true
	}
	c, err := semver.NewConstraint(r)
	if err != nil {
		return false
	}
	return c.Check(semver.MustParse("2.0.0")) && !c.Check(semver.MustParse("1000.0.0"))
}
