package semdiff

// The rule ids of changes (docs/RULES.md, "What `wopkit diff` counts",
// lists each with its level and an example; a test holds the two
// together).
const (
	RuleEntryRemoved     = "diff/entry-removed"     // a node, agent, chain, prompt, card, form, artifact type, provider or tool action removed or renamed
	RulePackRenamed      = "diff/pack-renamed"      // the pack's name changed
	RuleInputNarrowed    = "diff/input-narrowed"    // a config, input, task or parameters schema accepts less
	RuleOutputWidened    = "diff/output-widened"    // an output or return schema may return more or different values
	RuleSchemaUndecided  = "diff/schema-undecided"  // a schema change that could not be proved compatible
	RuleVariableRequired = "diff/variable-required" // a prompt variable added (or made) required without a default
	RuleRangeNarrowed    = "diff/range-narrowed"    // engines or a peerDependency range admits less, or a peer added
	RuleConsentWidened   = "diff/consent-widened"   // scopes, tools, hosts or the data boundary a consumer consented to widened
	RuleRequirementAdded = "diff/requirement-added" // a secret, credential, capability, or node type a chain's DAG needs, the host must now provide
	RuleOfferRemoved     = "diff/offer-removed"     // a capability, output port, export format or output schema member consumers relied on removed
	RuleValueChanged     = "diff/value-changed"     // a member with no rule changed: could not prove compatible

	RuleEntryAdded       = "diff/entry-added"         // a node, agent, chain, ... added
	RuleInputWidened     = "diff/input-widened"       // an input schema accepts more
	RuleOutputNarrowed   = "diff/output-narrowed"     // an output schema returns less (consumers may rely on more)
	RuleMemberAdded      = "diff/member-added"        // an optional member described where the old schema left the name open
	RuleRangeWidened     = "diff/range-widened"       // engines or a peer range admits more, or a peer dropped
	RuleRequirementDrop  = "diff/requirement-dropped" // a secret, credential or capability no longer needed
	RuleOfferAdded       = "diff/offer-added"         // a capability, output port or export format added
	RuleVariableOptional = "diff/variable-optional"   // a prompt variable added with a default, or no longer required

	RuleTextChanged     = "diff/text-changed"     // descriptions, labels, prompts' wording, schema annotations
	RuleFileChanged     = "diff/file-changed"     // a file no manifest references (README, LICENSE, code) added, removed or changed
	RuleConsentNarrowed = "diff/consent-narrowed" // fewer scopes, tools, hosts or data: consumers consented to more

	// RuleVersionTooLow is the verdict, not a change: the new version's
	// bump is smaller than the changes require (publish's
	// version_bump_too_small).
	RuleVersionTooLow = "diff/version-too-low"
)

// RuleInfo describes one rule for docs and SARIF.
type RuleInfo struct {
	ID      string
	Level   Level
	Meaning string
}

// Rules lists every rule, most serious first.
func Rules() []RuleInfo {
	return []RuleInfo{
		{RuleEntryRemoved, Breaking, "a node, agent, chain, prompt, card, form template, artifact type, connection provider or tool action was removed or renamed (its id changed)"},
		{RulePackRenamed, Breaking, "the pack's name changed: consumers install it by name"},
		{RuleInputNarrowed, Breaking, "a config, input, task or chain parameters schema accepts less (required member added, type narrowed, enum value removed, additionalProperties closed, bounds tightened, pattern or condition added)"},
		{RuleOutputWidened, Breaking, "an output or return schema may return more or different values (required member removed, type widened, enum value added: consumers switch on it)"},
		{RuleSchemaUndecided, Breaking, "a schema change that could not be proved compatible (two different patterns, a changed condition, a reference leaving the pack)"},
		{RuleVariableRequired, Breaking, "a prompt variable added, or made required, without a default"},
		{RuleRangeNarrowed, Breaking, "engines or a peerDependencies range admits fewer versions, or a peer dependency was added"},
		{RuleConsentWidened, Breaking, "a tool's scopes or data boundary, an agent's tool allowlist, or a provider's scopes or API hosts widened: consumers consented to the old ones"},
		{RuleRequirementAdded, Breaking, "a secret, credential, model or host capability the host must now provide, or a node type or sub-chain a chain's DAG now needs that the pack does not provide"},
		{RuleOfferRemoved, Breaking, "a capability, output port, produced variable, export format or member of an output schema (where no other member is allowed) consumers relied on was removed"},
		{RuleValueChanged, Breaking, "a member wopkit has no rule for changed (a node's role, an agent's model class, the runtime): could not prove compatible"},
		{RuleEntryAdded, Feature, "a node, agent, chain, prompt, card, form template, artifact type or tool action was added"},
		{RuleInputWidened, Feature, "an input schema accepts more (optional member, type widened, enum value added, bounds loosened)"},
		{RuleOutputNarrowed, Feature, "an output schema returns less (a member now always present, fewer values)"},
		{RuleMemberAdded, Feature, "an optional member is described where the old schema left the name open"},
		{RuleRangeWidened, Feature, "engines or a peerDependencies range admits more versions, or a peer dependency was dropped"},
		{RuleRequirementDrop, Feature, "a secret, credential or capability is no longer needed"},
		{RuleOfferAdded, Feature, "a capability, output port, produced variable or export format was added"},
		{RuleVariableOptional, Feature, "a prompt variable was added with a default, or is no longer required"},
		{RuleTextChanged, Fix, "descriptions, labels, categories, prompts' wording, a version field of an entry, schema annotations"},
		{RuleFileChanged, Fix, "a file no manifest references (README, LICENSE, the runtime code) was added, removed or changed"},
		{RuleConsentNarrowed, Fix, "fewer scopes, tools, hosts or data: consumers consented to more than is now used"},
	}
}
