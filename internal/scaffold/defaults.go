package scaffold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/placeholder"
)

// DefaultPackName is the pack name used when none is given.
const DefaultPackName = "community." + placeholder.ExampleOrg + ".my-pack"

// Defaults returns the answers of a new pack: a JavaScript (esm) pack with
// one node, Apache-2.0. Runtime-specific fields are left empty and filled
// from the runtime template by Plan (see Fill).
func (PackAnswers) Defaults() PackAnswers {
	return PackAnswers{
		PackIdentity: PackIdentity{
			Name:        DefaultPackName,
			Version:     "0.1.0",
			Description: placeholder.DescriptionLead + "pack.",
			Author:      "",
			License:     "Apache-2.0",
			Keywords:    []string{},
			Engines:     EnginesV2,
			Spec:        SpecV2,
		},
		Runtime: RuntimeAnswers{Language: "javascript"},
		Nodes:   []NodeAnswers{NodeAnswers{}.Defaults()},
		Agents:  []AgentAnswers{},
	}
}

// Defaults returns the answers of a first node: a pure data node that
// upper-cases its "text" input (Label empty: it defaults to the id's last
// part, title-cased).
func (NodeAnswers) Defaults() NodeAnswers {
	return NodeAnswers{
		ID:           "hello",
		Version:      "0.1.0",
		Description:  "Returns its text input upper-cased.",
		Category:     "data",
		Role:         "pure",
		Capabilities: []string{"cacheable"},
		Inputs:       []string{"text"},
		Outputs:      []string{"text"},
	}
}

// Defaults returns the answers of a new agent (Persona and Label empty:
// they default to the id's last part, title-cased): a general assistant whose
// system prompt lives in prompts/, with handoff schemas and no eval suite.
func (AgentAnswers) Defaults() AgentAnswers {
	return AgentAnswers{
		ID:            "assistant",
		Description:   placeholder.AgentDescription,
		ModelClass:    "general",
		SystemPrompt:  placeholder.AgentSystemPrompt,
		ToolAllowlist: []string{},
		Confidence:    0.7,
		Handoff:       true,
	}
}

// Defaults returns the answers of a new eval suite: one golden task.
func (EvalAnswers) Defaults() EvalAnswers {
	return EvalAnswers{
		Version:   "0.1.0",
		Modes:     []string{"golden"},
		PassScore: 0.8,
		Tasks:     []TaskAnswers{TaskAnswers{}.Defaults()},
	}
}

// Defaults returns the answers of a first eval task.
func (TaskAnswers) Defaults() TaskAnswers {
	return TaskAnswers{ID: "says-hello", Input: "Say hello.", Kind: "golden", Strategy: "contains", Expected: "hello"}
}

// DefaultToolLicense is the licence of a tool on its own when none is given.
const DefaultToolLicense = "Apache-2.0"

// Defaults returns the answers of a new tool manifest: an MCP server over
// stdio installed with pip, one read-free action, no credentials.
func (ToolAnswers) Defaults() ToolAnswers {
	return ToolAnswers{
		Tool: ToolIdentity{
			ID:      "my-tool",
			Version: "0.1.0",
			Name:    "My Tool",
			Summary: placeholder.ToolSummary,
			// License "": the pack's licence when a pack ships the tool,
			// else DefaultToolLicense (Normalize, PlanPackWithTool)
		},
		Runtime: ToolRuntime{Kind: "mcp-stdio"},
		Install: InstallAnswers{Method: "pip"},
		Env:     []EnvAnswers{},
		Scopes:  []ScopeAnswers{},
		Actions: []ActionAnswer{{
			Name:        "hello",
			Summary:     "Returns a greeting for a name.",
			SideEffects: "none",
			Inputs:      []string{"name"},
			ScopesUsed:  []string{},
		}},
	}
}

var nonSlug = lazyre.New(`[^a-z0-9-]+`)

// Slug turns free text (a directory name) into a lower-case, hyphenated
// name part usable in pack names, tool ids and file names.
func Slug(s string) string {
	s = nonSlug.ReplaceAllString(strings.ToLower(s), "-")
	s = strings.Trim(s, "-")
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		s = "p" + s
	}
	return s
}

// Title turns an id part ("say-hello") into a label ("Say Hello").
func Title(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	for i, w := range words {
		r, n := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[n:]
	}
	return strings.Join(words, " ")
}

// resolved returns the node answers with derived defaults filled in.
func (n NodeAnswers) resolved(pack string) NodeAnswers {
	if n.Label == "" {
		n.Label = Title(suffix(qualify(pack, n.ID)))
	}
	return n
}

// resolved returns the agent answers with derived defaults filled in.
func (a AgentAnswers) resolved(pack string) AgentAnswers {
	t := Title(suffix(qualify(pack, a.ID)))
	if a.Persona == "" {
		a.Persona = t
	}
	if a.Label == "" {
		a.Label = t
	}
	return a
}
