package kinds

// Pack is one pack kind (a pack.json "kind" value): everything the
// packages that read or write packs know about it. A kind new to wopkit is
// its two constants and a row here, its schemas (schemas/), its scaffold
// file, its README template and its wizard page file
// (docs/CONTRIBUTING.md, "Adding a kind").
type Pack struct {
	// Name is the pack.json "kind" value.
	Name string
	// Doc is the validator's kind of such a pack.json.
	Doc Kind
	// V1Schema and V2Schema are the file names (under the spec's schema
	// base, https://openwop.dev/spec/vN/) of the schemas that check such a
	// pack.json under each spec; "" when the spec has none (recognised, not
	// schema-checked).
	V1Schema, V2Schema string
	// Contents are the members holding the pack's entries, in the order
	// `inspect` lists them.
	Contents []Content
	// Expands: the pack's entries are chains a host expands into a
	// workflow (`wopkit chain expand`; the editor's expansion key).
	Expands bool
	// Published: the registry publishes packs of this kind (its reserved
	// name scopes, the v2 rules of every published kind apply).
	Published bool
	// RulePrefix is the prefix of the lint rules that check only this kind
	// ("WC001"), and Docs the section of docs/RULES.md that lists them.
	RulePrefix, Docs string
	// Tab is the count column's header of the kind's tab on the registry's
	// v1 landing page, and LandingCount the index member that column shows
	// (build-index.mjs's rowFor: kinds without a count cell of their own
	// show providerCount).
	Tab, LandingCount string
}

// Content is a member of pack.json holding a pack's entries.
type Content struct {
	// Member is the pack.json member ("chains").
	Member string
	// IDKey names an entry ("chainId").
	IDKey string
	// Noun is one entry in words ("chain"; the plural adds "s").
	Noun string
	// CountKey is the per-pack registry index member counting the entries
	// ("chainCount"); IndexOrder is its place among the count members
	// build-index.mjs writes, and Always says it is written even when 0.
	CountKey   string
	IndexOrder int
	Always     bool
	// Object: the member is one object (a connection's provider, named by
	// its IDKey), not an array of entries.
	Object bool
	// Symbol is the LSP SymbolKind (LSP 3.17 numbering) of an entry in an
	// editor's outline.
	Symbol int
}

// LSP SymbolKind numbers (LSP 3.17 §SymbolKind) the table uses.
const (
	symbolModule   = 2
	symbolClass    = 5
	symbolFunction = 12
	symbolString   = 15
	symbolStruct   = 23
)

// The pack.json "kind" values, for the code that writes them (scaffold,
// migrate) or must name one kind (a node pack's default).
const (
	NodeName          = "node"
	WorkflowChainName = "workflow-chain"
	ConnectionName    = "connection"
	PromptName        = "prompt"
	CardName          = "card"
	FormContentName   = "form-content"
	ArtifactTypeName  = "artifact-type"
	FrontendName      = "frontend-plugin"
)

// The validator's kinds of the packs (`validate --json`), one per row.
const (
	NodePack          Kind = "node-pack"
	WorkflowChainPack Kind = "workflow-chain-pack"
	ConnectionPack    Kind = "connection-pack"
	PromptPack        Kind = "prompt-pack"
	CardPack          Kind = "card-pack"
	FormContentPack   Kind = "form-content-pack"
	ArtifactTypePack  Kind = "artifact-type-pack"
	FrontendPlugin    Kind = "frontend-plugin"
)

// packs is the table, in the order wopkit lists the kinds.
var packs = []Pack{
	{Name: NodeName, Doc: NodePack, V1Schema: "node-pack-manifest.schema.json", V2Schema: "node-pack-manifest.schema.json", Published: true, RulePrefix: "OW", Docs: "Node packs (`pack.json`)",
		Tab: "Nodes", LandingCount: "nodeCount",
		Contents: []Content{
			{Member: "nodes", IDKey: "typeId", Noun: "node", CountKey: "nodeCount", IndexOrder: 1, Always: true, Symbol: symbolFunction},
			{Member: "agents", IDKey: "agentId", Noun: "agent", CountKey: "agentCount", IndexOrder: 2, Always: true, Symbol: symbolClass},
		}},
	{Name: WorkflowChainName, Doc: WorkflowChainPack, Expands: true, V1Schema: "workflow-chain-pack-manifest.schema.json", V2Schema: "workflow-chain-pack-manifest.schema.json", Published: true, RulePrefix: "WC", Docs: "Workflow-chain packs",
		Tab: "Chains", LandingCount: "chainCount",
		Contents: []Content{{Member: "chains", IDKey: "chainId", Noun: "chain", CountKey: "chainCount", IndexOrder: 5, Symbol: symbolModule}}},
	{Name: ConnectionName, Doc: ConnectionPack, V2Schema: "connection-pack-manifest.schema.json", Published: true, RulePrefix: "CN", Docs: "Card, form-content, prompt and artifact-type packs",
		Tab: "Provider", LandingCount: "providerCount",
		Contents: []Content{{Member: "provider", IDKey: "id", Noun: "provider", CountKey: "providerCount", IndexOrder: 4, Object: true}}},
	{Name: PromptName, Doc: PromptPack, V1Schema: "prompt-pack-manifest.schema.json", V2Schema: "prompt-pack-manifest.schema.json", Published: true, RulePrefix: "PR", Docs: "Card, form-content, prompt and artifact-type packs",
		Tab: "Templates", LandingCount: "promptCount",
		Contents: []Content{{Member: "prompts", IDKey: "templateId", Noun: "prompt template", CountKey: "promptCount", IndexOrder: 6, Symbol: symbolString}}},
	{Name: CardName, Doc: CardPack, V1Schema: "chat-card-pack-manifest.schema.json", V2Schema: "chat-card-pack-manifest.schema.json", Published: true, RulePrefix: "CD", Docs: "Card, form-content, prompt and artifact-type packs",
		Tab: "Cards", LandingCount: "cardCount",
		Contents: []Content{{Member: "cards", IDKey: "cardTypeId", Noun: "card", CountKey: "cardCount", IndexOrder: 8, Symbol: symbolStruct}}},
	{Name: FormContentName, Doc: FormContentPack, V1Schema: "form-content-pack-manifest.schema.json", V2Schema: "form-content-pack-manifest.schema.json", Published: true, RulePrefix: "FC", Docs: "Card, form-content, prompt and artifact-type packs",
		Tab: "Templates", LandingCount: "providerCount",
		Contents: []Content{{Member: "templates", IDKey: "templateId", Noun: "form template", CountKey: "templateCount", IndexOrder: 7, Symbol: symbolStruct}}},
	{Name: ArtifactTypeName, Doc: ArtifactTypePack, V1Schema: "artifact-type-pack-manifest.schema.json", V2Schema: "artifact-type-pack-manifest.schema.json", Published: true, RulePrefix: "AT", Docs: "Card, form-content, prompt and artifact-type packs",
		Tab: "Types", LandingCount: "artifactTypeCount",
		Contents: []Content{{Member: "artifactTypes", IDKey: "artifactTypeId", Noun: "artifact type", CountKey: "artifactTypeCount", IndexOrder: 3, Symbol: symbolStruct}}},
	{Name: FrontendName, Doc: FrontendPlugin, V2Schema: "frontend-plugin-manifest.schema.json"},
}

// Packs returns the pack kinds, in table order (a copy).
func Packs() []Pack {
	out := make([]Pack, len(packs))
	copy(out, packs)
	return out
}

// HoldsProvider reports whether the pack's entry is one provider object
// (a connection pack's provider) rather than a list: `inspect` shows the
// provider, the registry's landing page groups such packs by vendor.
func (p Pack) HoldsProvider() bool {
	for _, c := range p.Contents {
		if c.Object {
			return true
		}
	}
	return false
}

// Expands reports whether documents of kind k are packs whose chains a
// host expands (the row's Expands).
func Expands(k Kind) bool {
	p, ok := PackOf(k)
	return ok && p.Expands
}

// PackNamed returns the row of a pack.json "kind" value.
func PackNamed(name string) (Pack, bool) {
	for _, p := range packs {
		if p.Name == name {
			return p, true
		}
	}
	return Pack{}, false
}

// PackOf returns the row of a validator kind.
func PackOf(k Kind) (Pack, bool) {
	for _, p := range packs {
		if p.Doc == k {
			return p, true
		}
	}
	return Pack{}, false
}

// IsPack reports whether k is a pack manifest kind (pack.json).
func IsPack(k Kind) bool {
	_, ok := PackOf(k)
	return ok || k == OtherPack
}

// DocOf returns the document kind of a pack.json "kind" value.
func DocOf(name string) Kind {
	if p, ok := PackNamed(name); ok {
		return p.Doc
	}
	return OtherPack
}

// PackNames returns the pack.json "kind" values wopkit knows, in table order.
func PackNames() []string {
	out := make([]string, len(packs))
	for i, p := range packs {
		out[i] = p.Name
	}
	return out
}

// PackDocs returns the validator kinds of every pack kind, in table order.
func PackDocs() []Kind {
	out := make([]Kind, len(packs))
	for i, p := range packs {
		out[i] = p.Doc
	}
	return out
}

// PublishedDocs returns the validator kinds of the pack kinds the registry
// publishes, in table order.
func PublishedDocs() []Kind {
	var out []Kind
	for _, p := range packs {
		if p.Published {
			out = append(out, p.Doc)
		}
	}
	return out
}

// Contents returns every pack kind's contents, in table order.
func Contents() []Content {
	var out []Content
	for _, p := range packs {
		out = append(out, p.Contents...)
	}
	return out
}

// ContentOf returns the content whose member is member.
func ContentOf(member string) (Content, bool) {
	for _, c := range Contents() {
		if c.Member == member {
			return c, true
		}
	}
	return Content{}, false
}
