package validate

import "github.com/openwop/wopkit/internal/kinds"

// rules is the table of lint rules. Each rule's check lives in lint_*.go;
// docs/RULES.md explains every id, its severity and how to fix it. Ids are
// stable: a rule that is dropped leaves its id unused. The table is filled
// in init because OW011 validates eval suites, which runs the rules again.
var rules []Rule

func init() { rules = ruleTable() }

func ruleTable() []Rule {
	return []Rule{
		// Node packs (docs/FORMATS.md §2, in its order), then extras.
		{ID: "OW001", Severity: Error, Kinds: packOnly, check: checkTypeIDsUnique,
			Summary: "nodes[].typeId is unique within the pack"},
		{ID: "OW002", Severity: Error, Kinds: packOnly, check: checkConnectorResolves,
			Summary: "connector.actions[].typeId and connector.triggers[] name a nodes[].typeId (connector_action_unresolved)"},
		{ID: "OW003", Severity: Error, Kinds: packOnly, check: checkAgentPrefix,
			Summary: "agents[].agentId starts with the pack name and a dot (RFC 0003)"},
		{ID: "OW004", Severity: Error, Kinds: packOnly, check: checkAgentOnlyRemote,
			Summary: "a pack with agents and no nodes sets runtime.language \"remote\""},
		{ID: "OW005", Severity: Error, Kinds: refKinds, NeedsFiles: true, check: checkRefs,
			Summary: "*SchemaRef, schemaRef, systemPromptRef, evalSuiteRef, envelopeContractRef name files in the pack; schemas parse as JSON; prompts are UTF-8"},
		{ID: "OW006", Severity: Error, Kinds: packOnly, NeedsFiles: true, check: checkRuntimeEntry,
			Summary: "runtime.entry names a file in the pack unless runtime.language is \"remote\""},
		{ID: "OW007", Severity: Error, Kinds: packOnly, check: checkSecretProvider,
			Summary: "requiresSecrets[].provider is present exactly when kind is \"ai-provider\""},
		{ID: "OW008", Severity: Warning, Kinds: everyPack, check: checkNameScope,
			Summary: "core.* names are reserved to the OpenWOP working group; private.*/local.* are never published (with --for-registry)"},
		{ID: "OW009", Severity: Error, Kinds: packOnly, check: checkVersions,
			Summary: "engines.openwop is an npm-style semver range; version and nodes[].version are SemVer 2.0.0"},
		{ID: "OW010", Severity: Error, Kinds: packOnly, check: checkPeerDeps,
			Summary: "peerDependencies values are non-empty; peerDependenciesMeta keys are peerDependencies keys"},
		{ID: "OW011", Severity: Error, Kinds: packAndAgent, NeedsFiles: true, check: checkEvalSuiteRef,
			Summary: "an agent's evalSuiteRef validates as an eval suite that targets this agent and allows its modelClass"},
		{ID: "OW012", Severity: Error, Kinds: packAndAgent, check: checkToolAllowlist,
			Summary: "toolAllowlist entries have the form <scope>:<tool-id> (openwop:, mcp: or <vendor>.<host>:)"},
		{ID: "OW013", Severity: Warning, ForRegistry: Error, Kinds: packOnly, NeedsFiles: true, check: checkSchemaIDs,
			Summary: "a shipped JSON Schema's $id is https://packs.openwop.dev/<name>/<version>/<file>; with --for-registry every schemas/*.json has one (check-pack-schema-ids)"},
		{ID: "OW014", Severity: Error, Kinds: packOnly, check: checkAgentIDsUnique,
			Summary: "agents[].agentId is unique within the pack"},
		{ID: "OW015", Severity: Error, Kinds: packOnly, check: checkDependencyRanges,
			Summary: "dependencies values are npm-style semver ranges"},
		{ID: "OW016", Severity: Error, Kinds: refKinds, check: checkRefsClean,
			Summary: "file references (and runtime.entry) are clean paths: no ./x/../, // or /./ segments (pack refuses them too)"},
		{ID: "OW017", Severity: Error, Kinds: packOnly, NeedsFiles: true, check: checkEntryExports,
			Summary: "a javascript runtime.entry, loaded with node (only with validate --run-entry or WOPKIT_RUN_ENTRY=1, of a directory, sandboxed), exports a nodes object with a function per typeId"},
		{ID: "OW018", Severity: Error, Kinds: packOnly, NeedsFiles: true, check: checkShippedTools,
			Summary: "a tool an agent names in toolAllowlist (<scope>:<tool-id>) that the pack ships as tools/<tool-id>.tool.json validates as a tool install manifest"},
		{ID: "OW019", Severity: Error, Kinds: packOnly, check: checkPromptRefsBundled,
			Summary: "--for-registry: an agent's systemPromptRef is prompts/<name>.md or .txt (check-pack-prompt-refs)"},
		{ID: "OW020", Severity: Error, Kinds: packOnly, check: checkAllowlistResolves,
			Summary: "--for-registry: an openwop:<typeId> toolAllowlist entry names a node typeId (check-agent-tool-allowlist)"},
		{ID: "OW021", Severity: Error, Kinds: everyPack, NeedsFiles: true, check: checkSchemaTreeComplete,
			Summary: "--for-registry: every *SchemaRef names a schemas/<file>.json that publish serves (check-pack-schema-tree-complete)"},
		{ID: "OW022", Severity: Error, Kinds: everyPack, check: checkEventNames,
			Summary: "--for-registry: every eventName is templated, a protocol event type or <org>.<kebab>[.<kebab>] under a registered org (check-pack-event-names)"},
		{ID: "OW023", Severity: Error, Kinds: packOnly, NeedsFiles: true, check: checkSmoke,
			Summary: "--for-registry --run-entry: the registry's pre-PR smoke test (test-packs.mjs, as `wopkit test --smoke`) passes: schemas/*.json compile, and each node called once under the minimal ctx returns an object with outputs or throws (a pure node not host_capability_missing; a pure node that returns is cacheable)"},

		// Every v2 pack manifest (the registry's v2 checks; spec-v2 NOTES §6).
		{ID: "PK001", Severity: Error, Kinds: v2Packs, check: checkEnginesAdmit2,
			Summary: "v2, and every pack with --for-registry: engines.openwop has an explicit ceiling that admits protocol major 2 (such as <3.0.0; check-pack-engines-admit-major)"},
		{ID: "PK002", Severity: Error, Kinds: v2Packs, Specs: onlyV2, check: checkPeerFamilies,
			Summary: "v2: peerDependencies keys are capability families of spec/v2/declaration.json (v1 aliases are refused)"},
		{ID: "PK003", Severity: Error, Kinds: v2Packs, Specs: onlyV2, check: checkSigningBlock,
			Summary: "v2: the signing block is exactly {keyId, scheme}, in that order"},
		{ID: "PK004", Severity: Error, Kinds: packOnly, Specs: onlyV2, check: checkMcpEntry,
			Summary: "v2: runtime.entry equals runtime.mcpServer.remotes[0].url (RFC 0203)"},
		{ID: "PK005", Severity: Warning, ForRegistry: Error, Kinds: packOnly, Specs: onlyV2, check: checkMcpRegistry,
			Summary: "v2: runtime.mcpServer is not admitted by the registry's vendored node schema yet"},

		// Workflow-chain packs (v2 core/workflow-chain-packs.md).
		{ID: "WC001", Severity: Error, Kinds: chainOnly, check: checkChainIDsUnique,
			Summary: "chains[].chainId is unique within the pack"},
		{ID: "WC002", Severity: Error, Kinds: chainOnly, check: checkChainNodeIDsUnique,
			Summary: "dag.nodes[].id is unique within a chain"},
		{ID: "WC003", Severity: Error, Kinds: chainOnly, check: checkChainEdges,
			Summary: "dag.edges[].from and .to name a node of the chain's dag (nodeId or nodeId.port)"},
		{ID: "WC004", Severity: Error, Kinds: chainOnly, check: checkChainAcyclic,
			Summary: "a chain's dag has no cycle"},
		{ID: "WC005", Severity: Error, Kinds: chainOnly, check: checkChainParamsDeclared,
			Summary: "every {{params.x}} a chain uses is declared in its parameters.properties"},
		{ID: "WC006", Severity: Warning, Kinds: chainOnly, check: checkChainParamsUsed,
			Summary: "every declared chain parameter is used by a {{params.x}}"},
		{ID: "WC007", Severity: Error, Kinds: chainOnly, check: checkChainTypeIDs,
			Summary: "dag.nodes[].typeId has the form <pack>.<node>; a pin @x.y.z is one exact version"},
		{ID: "WC008", Severity: Error, Kinds: chainOnly, check: checkSubChains,
			Summary: "subChains[].ref names a chainId of the pack; config.subChainRef names a declared subChains ref"},

		{ID: "WC009", Severity: Error, Kinds: chainOnly, check: checkChainEdgesPresent,
			Summary: "a chain dag of more than one node declares edges"},
		{ID: "WC010", Severity: Warning, Kinds: chainOnly, Specs: onlyV2, check: checkChainTypeIDsPinned,
			Summary: "v2: dag.nodes[].typeId carries an exact pin @x.y.z (RFC 0177 §E.1: hosts refuse an unpinned reference at register)"},

		// Card, form-content, prompt and artifact-type packs.
		{ID: "CD001", Severity: Error, Kinds: []kinds.Kind{kinds.CardPack}, check: checkCardTypeIDsUnique,
			Summary: "cards[].cardTypeId is unique within the pack"},
		{ID: "CD002", Severity: Error, Kinds: []kinds.Kind{kinds.CardPack}, check: checkCardPlaceholders,
			Summary: "every {{slot}} of a card's prompt.template has a prompt.placeholderMapping entry"},
		{ID: "CD003", Severity: Warning, Kinds: []kinds.Kind{kinds.CardPack}, check: checkCardPlaceholders,
			Summary: "every prompt.placeholderMapping key is a {{slot}} of the template"},
		{ID: "CD004", Severity: Error, Kinds: []kinds.Kind{kinds.CardPack}, check: checkCardPlaceholders,
			Summary: "a placeholderMapping value inputs.<id> names a declared inputs[].id of the card"},
		{ID: "CD005", Severity: Error, Kinds: []kinds.Kind{kinds.CardPack}, check: checkCardInputIDsUnique,
			Summary: "inputs[].id is unique within a card"},
		{ID: "FC001", Severity: Error, Kinds: []kinds.Kind{kinds.FormContentPack}, check: checkTemplateIDsUnique,
			Summary: "templates[].templateId is unique within the pack"},
		{ID: "FC002", Severity: Error, Kinds: []kinds.Kind{kinds.FormContentPack}, check: checkFormFieldIDsUnique,
			Summary: "templates[].fields[].id is unique within a template"},
		{ID: "PR001", Severity: Error, Kinds: []kinds.Kind{kinds.PromptPack}, check: checkPromptTemplateIDsUnique,
			Summary: "prompts[].templateId is unique within the pack"},
		{ID: "PR002", Severity: Warning, Kinds: []kinds.Kind{kinds.PromptPack}, check: checkPromptVarsDeclared,
			Summary: "every {{varName}} of a prompt template's text has a variables[] entry (hosts warn at install)"},
		{ID: "PR003", Severity: Error, Kinds: []kinds.Kind{kinds.PromptPack}, check: checkPromptVarNamesUnique,
			Summary: "prompts[].variables[].name is unique within a template"},
		{ID: "AT001", Severity: Error, Kinds: []kinds.Kind{kinds.ArtifactTypePack}, check: checkArtifactTypeIDsUnique,
			Summary: "artifactTypes[].artifactTypeId is unique within the pack"},
		{ID: "CN001", Severity: Warning, Kinds: []kinds.Kind{kinds.ConnectionPack}, check: checkMcpOAuthIssuer,
			Summary: "a provider reached as an MCP server with oauth2 auth declares auth.issuer (RFC 0199: hosts refuse it, connection_auth_metadata_mismatch)"},
		{ID: "CN002", Severity: Warning, Kinds: []kinds.Kind{kinds.ConnectionPack}, check: checkMcpPKCE,
			Summary: "a provider reached as an MCP server does not declare auth.pkce unsupported (RFC 0199 §B.2: hosts refuse it)"},

		// Agent eval suites.
		{ID: "EV001", Severity: Error, Kinds: evalOnly, check: checkTaskIDsUnique,
			Summary: "tasks[].taskId is unique within the suite"},
		{ID: "EV002", Severity: Error, Kinds: evalOnly, check: checkExpectedShape,
			Summary: "golden tasks have expected.match; rubric tasks have expected.rubric"},
		{ID: "EV003", Severity: Warning, Kinds: evalOnly, check: checkRubricWeights,
			Summary: "a rubric's weights sum to 1.0 (within 1e-9)"},
		{ID: "EV004", Severity: Error, Kinds: evalOnly, check: checkToolResponses,
			Summary: "fixtures.toolResponses[].tool has the form <scope>:<tool-id>"},

		// Every document wopkit new writes.
		{ID: PlaceholderRule, Severity: Warning, Kinds: newDocs, check: checkScaffoldPlaceholders,
			Summary: "no value is still one wopkit new writes to be replaced (an example.com address, \"A new OpenWOP pack.\", a template prompt, a name under the example organisation)"},

		// Agent tool install manifests (docs/FORMATS.md §2, in its order), then extras.
		{ID: "IM001", Severity: Error, Kinds: toolOnly, check: checkScopesUsed,
			Summary: "actions[].scopes_used[] entries are declared scopes[].resource"},
		{ID: "IM002", Severity: Error, Kinds: toolOnly, check: checkSmokeAction,
			Summary: "an action-call smoke test names a declared action whose side_effects is none or read"},
		{ID: "IM003", Severity: Error, Kinds: toolOnly, check: checkSecretArgv,
			Summary: "no ${env.NAME} of a secret env var in an argv_template or command (process lists are public)"},
		{ID: "IM004", Severity: Error, Kinds: toolOnly, check: checkPlaceholders,
			Summary: "${env.X} names a declared env var; ${input.x} names a property of the action's input schema"},
		{ID: "IM005", Severity: Error, Kinds: toolOnly, NeedsFiles: true, check: checkCaseCount,
			Summary: "verify.suite.case_count equals the number of cases in the verify.suite.ref file, when present"},
		{ID: "IM006", Severity: Error, Kinds: toolOnly, check: checkToolNamesUnique,
			Summary: "env[].name, actions[].name and scopes[].resource are unique"},
		{ID: "IM007", Severity: Warning, Kinds: toolOnly, check: checkPlaceholderNamespaces,
			Summary: "${...} placeholders use a known namespace (env or input)"},
		{ID: "IM008", Severity: Error, Kinds: toolOnly, check: checkSmokeArguments,
			Summary: "an action-call smoke test passes the action's required inputs and no input its schema closes out"},
	}
}

var (
	packOnly     = []kinds.Kind{kinds.NodePack}
	packAndAgent = []kinds.Kind{kinds.NodePack, kinds.Agent}
	evalOnly     = []kinds.Kind{kinds.EvalSuite}
	toolOnly     = []kinds.Kind{kinds.ToolManifest}
	chainOnly    = []kinds.Kind{kinds.WorkflowChainPack}
	refKinds     = append([]kinds.Kind{kinds.Agent}, kinds.PackDocs()...)
	v2Packs      = append(kinds.PublishedDocs(), kinds.VersionManifest)
	onlyV2       = []kinds.Spec{kinds.V2}
	newDocs      = append([]kinds.Kind{kinds.Agent, kinds.EvalSuite, kinds.ToolManifest}, kinds.PackDocs()...)

	// everyPack is every pack kind the registry publishes: the reserved
	// scopes of a pack name are the same for all (the v2 kind schemas'
	// name patterns mirror node-packs.md §Naming).
	everyPack = kinds.PublishedDocs()
)
