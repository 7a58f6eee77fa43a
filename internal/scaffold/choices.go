package scaffold

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// What a UI (the `wopkit new` wizard) needs to ask the answers without a
// rule of its own: the choices the schemas leave open or spell out in
// branches, the defaults of list entries, the parts of a pack name, the
// target directory and key file names. Every value here is what Plan and
// `wopkit new --yes` use.

// Choice is one allowed value with the words that explain it.
type Choice struct {
	Value, About string
}

// NameScopes are the first parts a pack name can start with.
var NameScopes = []Choice{
	{"community", "published by an individual"},
	{"vendor", "published by an organisation"},
	{"private", "host-internal, never published"},
	{"core", "reserved to the OpenWOP working group"},
}

// NodeRoles are the common node roles of the spec's NodeRole taxonomy
// (the schema takes any string).
var NodeRoles = []string{"pure", "side-effect", "human-input", "streaming-output", "gate"}

// Derived is the answer that lets the scaffold choose a value from the
// other answers (a kill switch, a smoke test).
const Derived = ""

// KillSwitchKinds are the kill-switch kinds of a tool manifest; "" lets
// the scaffold choose (see KillSwitchKind).
var KillSwitchKinds = []string{"none", "manual", "url", "shell"}

// SmokeKinds are the smoke tests the scaffold writes; "" derives one.
var SmokeKinds = []Choice{
	{"", "the default for the runtime"},
	{"action-call", "call the first action without side effects"},
}

// SmokeChoices are SmokeKinds with what each does with the current
// answers: "from the answers: call the MCP tool hello (no side effects)",
// "call the action list_mail (no side effects)".
func (a ToolAnswers) SmokeChoices() []Choice {
	out := make([]Choice, len(SmokeKinds))
	for i, c := range SmokeKinds {
		b := a
		if b.Smoke.Kind != c.Value {
			b.Smoke = SmokeAnswers{Kind: c.Value}
		}
		what, _ := b.SmokeTest()
		if c.Value == Derived {
			what = "from the answers: " + what
		}
		out[i] = Choice{Value: c.Value, About: what}
	}
	return out
}

// TaskKinds are an eval task's expectation kinds.
var TaskKinds = []Choice{
	{"golden", "compare with an expected answer"},
	{"rubric", "score against criteria"},
}

// GoldenStrategies are how a golden task's answer is compared.
var GoldenStrategies = []string{"contains", "exact", "json-match"}

// MemoryFlags are the memory backends an agent can declare, as named in
// its memoryShape.
var MemoryFlags = []string{"scratchpad", "conversation", "longTerm"}

// Flags lists the memory backends that are on.
func (m Memory) Flags() []string {
	out := []string{}
	for i, on := range []bool{m.Scratchpad, m.Conversation, m.LongTerm} {
		if on {
			out = append(out, MemoryFlags[i])
		}
	}
	return out
}

// SetFlags turns on exactly the named memory backends.
func (m *Memory) SetFlags(flags []string) {
	*m = Memory{}
	for _, f := range flags {
		switch f {
		case MemoryFlags[0]:
			m.Scratchpad = true
		case MemoryFlags[1]:
			m.Conversation = true
		case MemoryFlags[2]:
			m.LongTerm = true
		}
	}
}

// KillSwitchKind is the kind the manifest gets: the one chosen, or, when
// none is, the honest one the scaffold derives (none only without
// credentials).
func (a ToolAnswers) KillSwitchKind() string { return a.killSwitch().Kind }

// SplitName cuts a pack name into its scope, organisation and the rest
// (core.x has no organisation).
func SplitName(name string) (scope, org, rest string) {
	parts := strings.Split(name, ".")
	switch {
	case len(parts) >= 3:
		return parts[0], parts[1], strings.Join(parts[2:], ".")
	case len(parts) == 2:
		return parts[0], "", parts[1]
	}
	return "", "", name
}

// JoinName is the pack name of a scope, organisation and the rest.
func JoinName(scope, org, rest string) string {
	parts := []string{scope}
	if scope != "core" || org != "" {
		parts = append(parts, org)
	}
	return strings.Join(append(parts, rest), ".")
}

// PackDir is the directory `wopkit new` writes a pack into when none is
// given: the last part of its name.
func PackDir(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// NewNode is the answers of the n-th node of a pack (0-based).
func NewNode(n int) NodeAnswers {
	d := NodeAnswers{}.Defaults()
	if n > 0 {
		d.ID = fmt.Sprintf("node%d", n+1)
	}
	return d
}

// NewAgent is the answers of the n-th agent of a pack (0-based), with an
// eval suite of one task.
func NewAgent(n int) AgentAnswers {
	d := AgentAnswers{}.Defaults()
	if n > 0 {
		d.ID = fmt.Sprintf("agent%d", n+1)
	}
	e := EvalAnswers{}.Defaults()
	d.Eval = &e
	return d
}

// NewTask is the answers of the n-th task of a suite (0-based).
func NewTask(n int) TaskAnswers {
	t := TaskAnswers{}.Defaults()
	if n > 0 {
		t.ID = fmt.Sprintf("task-%d", n+1)
	}
	return t
}

// NewEnv is the n-th environment variable of a tool (0-based): a required
// API_KEY first, then SETTING_N; its prompt and secret flag follow from
// whatever name it is given (EnvAnswers).
func NewEnv(n int) EnvAnswers {
	name := "API_KEY"
	if n > 0 {
		name = fmt.Sprintf("SETTING_%d", n+1)
	}
	return EnvAnswers{Name: name, Required: true}
}

// NewScope is the n-th scope of a tool (0-based).
func NewScope(n int) ScopeAnswers {
	res := "net.outbound"
	if n > 0 {
		res = fmt.Sprintf("resource%d.data", n+1)
	}
	return ScopeAnswers{Resource: res, Actions: []string{"read"}, Rationale: "the tool's actions read it"}
}

// NewAction is the n-th action of a tool (0-based).
func NewAction(n int) ActionAnswer {
	d := ToolAnswers{}.Defaults().Actions[0]
	if n > 0 {
		d.Name = fmt.Sprintf("action_%d", n+1)
		d.Summary = "Does step " + strconv.Itoa(n+1) + "."
	}
	return d
}

// FreeKeyPrefix is prefix, or prefix-2, prefix-3, ... the first whose key
// files do not exist in dir.
func FreeKeyPrefix(dir, prefix string) string {
	for i := 1; ; i++ {
		p := prefix
		if i > 1 {
			p = fmt.Sprintf("%s-%d", prefix, i)
		}
		if !exists(dir, p+".key") && !exists(dir, p+".pub") {
			return p
		}
	}
}

func exists(dir, name string) bool {
	if dir != "" && !strings.HasPrefix(name, "/") {
		name = dir + "/" + name
	}
	_, err := os.Lstat(name)
	return err == nil
}

// KeyID is the suggested key id of a key prefix.
func KeyID(prefix string) string {
	base := prefix[strings.LastIndexAny(prefix, `/\`)+1:]
	if strings.HasSuffix(base, "-1") {
		return base
	}
	return base + "-1"
}

// Multi-select choices that depend on other answers: a UI computes them
// from the current answers each time it asks (never from the suggestions
// it started with), and drops the ticked values they no longer offer
// (Ticked).

// RequiredChoices are the properties an artifact type may require: its
// properties as given, in order, each once.
func (t ArtifactTypeAnswers) RequiredChoices() []string { return distinct(t.Properties) }

// ScopeChoices are the scopes an action may use: the resources of the
// tool's scopes as given, in order, each once.
func (a ToolAnswers) ScopeChoices() []string {
	var rs []string
	for _, s := range a.Scopes {
		rs = append(rs, s.Resource)
	}
	return distinct(rs)
}

// ParamChoices are the chain parameters a step may receive: the names of
// the chain's parameters as given, in order, each once.
func (c ChainAnswers) ParamChoices() []string {
	var ns []string
	for _, p := range c.Parameters {
		ns = append(ns, p.Name)
	}
	return distinct(ns)
}

// Ticked splits ticked values into those still offered (kept, in the
// order they were ticked) and those no longer offered (dropped).
func Ticked(ticked, offered []string) (kept, dropped []string) {
	kept = []string{}
	for _, v := range ticked {
		if slices.Contains(offered, v) {
			kept = append(kept, v)
		} else {
			dropped = append(dropped, v)
		}
	}
	return kept, dropped
}

// distinct is the trimmed, non-empty values, each once, in order.
func distinct(vs []string) []string {
	out := []string{}
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
