// Package placeholder is the one list of the values wopkit's scaffolds
// write for the author to replace before publishing: a description that
// says only that the pack is new, an address under a domain kept for
// examples, an environment variable's template prompt, a digest of zeros.
// The scaffolds write them (internal/scaffold takes the texts from here),
// the validator's rule PH001 warns where a document still holds one (so
// `validate --strict` fails), and the review of `wopkit new` lists them.
// It imports nothing of wopkit's, so that the validator and the scaffold
// can both read it.
package placeholder

import (
	"net/url"
	"strings"
)

// The texts the scaffolds write.
const (
	// DescriptionLead starts the description of a new pack ("A new
	// OpenWOP pack.", "A new OpenWOP card pack.").
	DescriptionLead = "A new OpenWOP "
	// ToolSummary is the summary of a new tool.
	ToolSummary = "Does one useful thing for an agent."
	// ExampleOrg is the organisation of the names a scaffold makes up
	// (community.example.my-pack).
	ExampleOrg = "example"
	// AgentDescription is the description of a new agent.
	AgentDescription = "Answers the task it is given."
	// AgentSystemPrompt is the system prompt of a new agent (in its
	// prompts/<id>.md, or inline).
	AgentSystemPrompt = "You are a helpful assistant. Read the task, answer it concisely, and say when you are not sure."
	// ZeroDigest is the SHA-256 of a download a scaffold cannot know.
	ZeroDigest = "0000000000000000000000000000000000000000000000000000000000000000"
)

// EnvPrompt is the prompt of a variable named name when none is given.
func EnvPrompt(name string) string { return envLead + name + envTail }

const (
	envLead = "The value of "
	envTail = ": where to find it and what the tool does with it"
)

// A Placeholder is one kind of value to replace: where it is written, how
// it is told, and what to write instead.
type Placeholder struct {
	What string // what the value is, e.g. "the scaffold's description"
	Fix  string // what to do
	at   func(tokens []string) bool
	is   func(value string) bool
}

// list is every placeholder a scaffold writes.
var list = []Placeholder{
	{What: "the description a new pack is given", Fix: "say in a sentence what the pack does",
		at: root("description"), is: func(v string) bool { return strings.HasPrefix(v, DescriptionLead) }},
	{What: "the description a new agent is given", Fix: "say in a sentence what the agent does",
		at: func(t []string) bool {
			return t[len(t)-1] == "description" && (len(t) == 1 || len(t) == 3 && t[0] == "agents")
		},
		is: func(v string) bool { return v == AgentDescription }},
	{What: "the template system prompt of a new agent", Fix: "write the agent's own instructions",
		at: func(t []string) bool { return len(t) > 0 && t[len(t)-1] == "systemPrompt" },
		is: IsAgentSystemPrompt},
	{What: "the summary a new tool is given", Fix: "say in a sentence what the tool does",
		at: path("tool", "summary"), is: func(v string) bool { return v == ToolSummary }},
	{What: "a name under the example organisation", Fix: "name it under your own organisation (<scope>.<org>.<name>)",
		at: func(t []string) bool {
			return len(t) == 1 && (t[0] == "name" || t[0] == "agentId" || t[0] == "suiteId" || t[0] == "targetAgentId")
		},
		is: func(v string) bool {
			parts := strings.Split(v, ".")
			return len(parts) > 2 && parts[1] == ExampleOrg
		}},
	{What: "an address under a domain kept for examples", Fix: "write the real address",
		at: anywhere, is: IsExampleURL},
	{What: "a place under the example account", Fix: "write where it really is",
		at: anywhere, is: func(v string) bool {
			return strings.HasPrefix(v, "https://github.com/example/") || strings.HasPrefix(v, "ghcr.io/example/")
		}},
	{What: "a digest of zeros", Fix: "write the SHA-256 of the file it names",
		at: func(t []string) bool { return len(t) > 0 && t[len(t)-1] == "sha256" }, is: func(v string) bool { return v == ZeroDigest }},
	{What: "the template prompt of an environment variable", Fix: "say where the owner finds the value and what the tool does with it",
		at: func(t []string) bool { return len(t) == 3 && t[0] == "env" && t[2] == "prompt" },
		is: func(v string) bool { return strings.HasPrefix(v, envLead) && strings.HasSuffix(v, envTail) }},
}

// Find is the placeholder a string member holds, if any: tokens is the
// member's JSON pointer, split (["env", "0", "prompt"]).
func Find(tokens []string, value string) (Placeholder, bool) {
	for _, p := range list {
		if p.at(tokens) && p.is(value) {
			return p, true
		}
	}
	return Placeholder{}, false
}

// IsExampleURL reports whether u is an address on a host kept for examples
// (example.com, example.org, example.net, or a name under .example): a
// value to replace, never a real place.
func IsExampleURL(u string) bool {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || p.Host == "" {
		return false
	}
	h := strings.ToLower(p.Hostname())
	for _, d := range []string{"example.com", "example.org", "example.net", "example"} {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true
		}
	}
	return false
}

func root(name string) func([]string) bool {
	return func(t []string) bool { return len(t) == 1 && t[0] == name }
}

func path(names ...string) func([]string) bool {
	return func(t []string) bool {
		if len(t) != len(names) {
			return false
		}
		for i := range t {
			if t[i] != names[i] {
				return false
			}
		}
		return true
	}
}

func anywhere([]string) bool { return true }

// IsAgentSystemPrompt reports whether a system prompt (a member's value or
// a prompt file's content) is still the one a new agent is given.
func IsAgentSystemPrompt(v string) bool { return strings.TrimSpace(v) == AgentSystemPrompt }
