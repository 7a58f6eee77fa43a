package scaffold

// The JSON documents scaffold writes, as ordered Go values: the field order
// here is the key order in the files (the conventional order of the
// registry's packs).

type packDoc struct {
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Kind        string            `json:"kind,omitempty"` // v2 only
	Description string            `json:"description,omitempty"`
	Author      string            `json:"author,omitempty"`
	License     string            `json:"license,omitempty"`
	Homepage    string            `json:"homepage,omitempty"`
	Repository  string            `json:"repository,omitempty"`
	Keywords    []string          `json:"keywords,omitempty"`
	Engines     map[string]string `json:"engines"`
	// PeerDependencies (v2) are keyed by v2 declaration families.
	PeerDependencies map[string]string `json:"peerDependencies,omitempty"`
	Nodes            []nodeDoc         `json:"nodes,omitempty"`
	Agents           []agentDoc        `json:"agents,omitempty"`
	Runtime          runtimeDoc        `json:"runtime"`
}

type runtimeDoc struct {
	Language          string `json:"language"`
	Format            string `json:"format,omitempty"`
	Entry             string `json:"entry"`
	MinRuntimeVersion string `json:"minRuntimeVersion,omitempty"`
}

type nodeDoc struct {
	TypeID          string   `json:"typeId"`
	Version         string   `json:"version"`
	Label           string   `json:"label,omitempty"`
	Description     string   `json:"description,omitempty"`
	Category        string   `json:"category"`
	Role            string   `json:"role"`
	Capabilities    []string `json:"capabilities,omitempty"`
	ConfigSchemaRef string   `json:"configSchemaRef"`
	InputSchemaRef  string   `json:"inputSchemaRef"`
	OutputSchemaRef string   `json:"outputSchemaRef"`
}

type agentDoc struct {
	AgentID         string      `json:"agentId"`
	Persona         string      `json:"persona"`
	Label           string      `json:"label,omitempty"`
	Description     string      `json:"description,omitempty"`
	ModelClass      string      `json:"modelClass"`
	Role            string      `json:"role,omitempty"` // v2 only
	SystemPrompt    *string     `json:"systemPrompt,omitempty"`
	SystemPromptRef string      `json:"systemPromptRef,omitempty"`
	EvalSuiteRef    string      `json:"evalSuiteRef,omitempty"`
	ToolAllowlist   []string    `json:"toolAllowlist"`
	MemoryShape     Memory      `json:"memoryShape"`
	Handoff         *handoffDoc `json:"handoff,omitempty"`
	Confidence      *confDoc    `json:"confidence,omitempty"`
}

type handoffDoc struct {
	TaskSchemaRef   string `json:"taskSchemaRef"`
	ReturnSchemaRef string `json:"returnSchemaRef"`
}

type confDoc struct {
	DefaultThreshold float64 `json:"defaultThreshold"`
}

type evalDoc struct {
	SuiteID       string      `json:"suiteId"`
	Version       string      `json:"version"`
	TargetAgentID string      `json:"targetAgentId,omitempty"`
	Modes         []string    `json:"modes"`
	AllowedModels []string    `json:"allowedModels,omitempty"`
	Thresholds    *thresholds `json:"thresholds,omitempty"`
	Tasks         []taskDoc   `json:"tasks"`
}

type thresholds struct {
	PassScore float64 `json:"passScore"`
}

type taskDoc struct {
	TaskID   string         `json:"taskId"`
	Input    map[string]any `json:"input"`
	Expected expectedDoc    `json:"expected"`
}

type expectedDoc struct {
	Kind   string      `json:"kind"`
	Match  *matchDoc   `json:"match,omitempty"`
	Rubric []criterion `json:"rubric,omitempty"`
}

type matchDoc struct {
	Strategy string `json:"strategy"`
	Value    any    `json:"value"`
}

type criterion struct {
	Criterion string  `json:"criterion"`
	Weight    float64 `json:"weight"`
}

// schemaDoc is a JSON Schema the scaffold ships in schemas/.
type schemaDoc struct {
	Schema               string                `json:"$schema"`
	ID                   string                `json:"$id,omitempty"`
	Title                string                `json:"title"`
	Description          string                `json:"description"`
	Type                 string                `json:"type"`
	Required             []string              `json:"required,omitempty"`
	Properties           map[string]propSchema `json:"properties"`
	AdditionalProperties bool                  `json:"additionalProperties"`
}

type propSchema struct {
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Minimum     *float64 `json:"minimum,omitempty"`
	Maximum     *float64 `json:"maximum,omitempty"`
}

const draft = "https://json-schema.org/draft/2020-12/schema"

// portSchema is the schema of a node's config, input or output ports.
func portSchema(title, desc string, ports []string, what string) schemaDoc {
	s := schemaDoc{Schema: draft, Title: title, Description: desc, Type: "object",
		Properties: map[string]propSchema{}, Required: ports}
	for _, p := range ports {
		s.Properties[p] = propSchema{Type: "string", Description: "The " + p + " " + what + "."}
	}
	return s
}
