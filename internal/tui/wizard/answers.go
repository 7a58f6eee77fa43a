package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/keys"

	"strings"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
)

// What the wizard creates.
const (
	whatMixed = "mixed"           // a pack with nodes, agents and a tool manifest
	whatNodes = scaffold.KindNode // a pack of nodes
	whatAgent = "agent"           // an agent-only pack (remote runtime)
	whatTool  = "tool"            // a standalone tool install manifest

	whatSoloAgent = "solo-agent" // a standalone agent manifest (no pack)
	whatSoloEval  = "solo-eval"  // a standalone eval suite (no pack)
)

// answers is everything the wizard asks: the scaffold's own answer values,
// which the fields are bound to, plus how to sign. A standalone agent or
// eval suite is the pack's first agent (and its suite). It is also the
// draft kept when the author leaves half-way, with the page left on.
type answers struct {
	What string               `json:"what"`
	Pack scaffold.PackAnswers `json:"pack"`
	Tool scaffold.ToolAnswers `json:"tool"`
	// Kinds are the answers of each declarative pack kind the wizard asks
	// (a prompt pack's templates, a connection pack's provider, …), by the
	// kind's name: the scaffold's answers of that kind (see declaredOf).
	// Their identity is Pack's, which the identity page asks.
	Kinds declared `json:"kinds"`

	SignMethod string `json:"signMethod"` // manual, v2, sigstore, sigstore-keyless, none or skip
	KeyChoice  string `json:"keyChoice"`  // new or existing
	KeyPath    string `json:"keyPath"`    // existing key file, or the prefix of a new pair
	KeyID      string `json:"keyId"`
	// KeyAuto is the key as keyDefaults derived it last: while the key
	// answers still hold it, they follow the answers it comes from.
	KeyAuto keyAuto `json:"keyAuto,omitzero"`

	// The page the author was on (its id and entries), for resuming.
	Page  string `json:"page,omitempty"`
	Entry int    `json:"entry,omitempty"`
	Sub   int    `json:"sub,omitempty"`
}

// newAnswers starts from the scaffold's defaults.
func newAnswers() *answers {
	a := &answers{What: whatMixed, Pack: scaffold.PackAnswers{}.Defaults(), Tool: scaffold.ToolAnswers{}.Defaults(),
		Kinds: declared{}, SignMethod: signMethods[0].Value, KeyChoice: "new"}
	for name, k := range wizardKinds {
		a.Kinds[name] = k.New()
	}
	a.Pack.Agents = []scaffold.AgentAnswers{scaffold.NewAgent(0)}
	return a
}

// isPack reports whether a pack (not only a tool manifest, standalone
// agent or standalone eval suite) is created.
func (a *answers) isPack() bool { return a.What != whatTool && !a.standalone() }

// standalone reports whether a standalone agent or eval suite is created.
func (a *answers) standalone() bool { return a.What == whatSoloAgent || a.What == whatSoloEval }

// hasNodes, hasAgent and hasTool say which parts the pack gets.
func (a *answers) hasNodes() bool { return a.What == whatMixed || a.What == whatNodes }
func (a *answers) hasAgent() bool {
	return a.What == whatMixed || a.What == whatAgent || a.What == whatSoloAgent
}
func (a *answers) hasTool() bool { return a.What == whatMixed || a.What == whatTool }

// name is the pack name.
func (a *answers) name() string { return a.Pack.Name }

// packAnswers is the pack the scaffold plans: the parts the kind of pack
// has (an agent-only pack runs remote).
func (a *answers) packAnswers() scaffold.PackAnswers {
	p := a.Pack
	if !a.hasNodes() {
		p.Nodes = nil
		p.Runtime = scaffold.RuntimeAnswers{Language: "remote"}
	}
	if !a.hasAgent() {
		p.Agents = nil
	}
	return p
}

// agent is the i-th agent (a standalone document is the first), made when
// missing.
func (a *answers) agent(i int) *scaffold.AgentAnswers {
	for len(a.Pack.Agents) <= i {
		a.Pack.Agents = append(a.Pack.Agents, scaffold.NewAgent(len(a.Pack.Agents)))
	}
	return &a.Pack.Agents[i]
}

// suite is the i-th agent's eval suite, made when missing.
func (a *answers) suite(i int) *scaffold.EvalAnswers {
	g := a.agent(i)
	if g.Eval == nil {
		e := scaffold.EvalAnswers{}.Defaults()
		g.Eval = &e
	}
	return g.Eval
}

// soloDefaults makes the first agent's answers fit a standalone document
// (see soloAgent).
func (a *answers) soloDefaults() {
	if a.What == whatSoloAgent {
		a.agent(0).ID = a.soloAgent().ID
	}
}

// soloAgent is the first agent as a standalone document has it: a bare
// agent id gets the scope and organisation in front (assistant becomes
// community.example.assistant), as there is no pack name to do it. It
// reads the answers only: planning runs beside the screen.
func (a *answers) soloAgent() scaffold.AgentAnswers {
	g := scaffold.NewAgent(0)
	if len(a.Pack.Agents) > 0 {
		g = a.Pack.Agents[0]
	}
	if a.What == whatSoloAgent && g.ID != "" && !strings.Contains(g.ID, ".") {
		scope, org, _ := scaffold.SplitName(a.Pack.Name)
		g.ID = scaffold.JoinName(scope, org, g.ID)
	}
	return g
}

// soloEval is a standalone suite's answers (the answers only read).
func (a *answers) soloEval() scaffold.EvalAnswers {
	e := scaffold.EvalAnswers{}.Defaults()
	if g := a.soloAgent(); g.Eval != nil {
		e = *g.Eval
	}
	if e.SuiteID == "" && !strings.Contains(e.TargetAgentID, ".") {
		e.SuiteID = scaffold.StandaloneSuiteID
	}
	return e
}

// prefill starts the wizard's answers from answers given on the command
// line (--set, --values): a pack's, a tool manifest's, or both.
func prefill(a *answers, p *scaffold.PackAnswers, t *scaffold.ToolAnswers) {
	if p != nil {
		a.Pack = *p
		switch {
		case p.Runtime.Language == "remote" || len(p.Nodes) == 0:
			a.What = whatAgent
		case len(p.Agents) == 0:
			a.What = whatNodes
		default:
			a.What = whatMixed
		}
		if len(a.Pack.Nodes) == 0 {
			a.Pack.Nodes = []scaffold.NodeAnswers{scaffold.NewNode(0)}
		}
		if len(a.Pack.Agents) == 0 {
			a.Pack.Agents = []scaffold.AgentAnswers{scaffold.NewAgent(0)}
		}
	}
	if t != nil {
		a.Tool = *t
	}
}

// keyAuto is a derived key: the scaffold's default (where a key is and
// where a new one goes), the choice and file it gave, and the key id.
type keyAuto struct {
	Default scaffold.KeyDefault `json:"default"`
	Choice  string              `json:"choice"`
	Path    string              `json:"path"`
	ID      string              `json:"id"`
}

// keyDefaults derives the key from the current answers and folder
// (scaffold.DefaultKey): the key already there, else a new pair named
// after the pack's organisation (outside a git checkout that would not
// ignore it); the key id from the key's name. A key answer the author
// changed is kept; one still as derived follows the answers.
func (a *answers) keyDefaults() {
	d := scaffold.DefaultKey(a.name())
	if d.Existing != "" && needsKey(a.SignMethod) && !create.KeySuits(d.Existing, a.SignMethod) {
		d.Existing = "" // a key of the folder that cannot make this signature is not the default
	}
	prev := a.KeyAuto
	// KeyAuto keeps what was derived, never the author's own choice: a
	// choice recorded as derived would be derived again the next time (an
	// ssh-agent key became "a new key pair" after "fix it").
	auto := keyAuto{Default: d, Choice: prev.Choice, Path: prev.Path}
	if a.KeyPath == "" || a.KeyPath == prev.Path && a.KeyChoice == prev.Choice {
		a.KeyChoice = "new"
		if d.Existing != "" {
			a.KeyChoice = "existing"
		}
		a.KeyPath = d.Path(a.KeyChoice == "existing")
		auto.Choice, auto.Path = a.KeyChoice, a.KeyPath
	}
	id := a.keyIDFor(a.KeyPath)
	if a.KeyID == "" || a.KeyID == prev.ID {
		a.KeyID = id
	}
	auto.ID = id
	a.KeyAuto = auto
}

// keyPathFor is the derived key file of a key choice.
func (a *answers) keyPathFor(choice string) string {
	return a.KeyAuto.Default.Path(choice == "existing")
}

// keyIDFor is the derived key id of a key file: its name's (acme-1 for acme.key).
// An ssh-agent key has no file name: a new pair's is suggested.
func (a *answers) keyIDFor(path string) string {
	if keys.IsAgent(path) {
		path = a.keyPathFor("new")
	}
	return scaffold.KeyID(strings.TrimSuffix(strings.TrimSpace(path), ".key"))
}

// packSpec is the spec version the pack of the answers is written for.
func packSpec(a *answers) kinds.Spec {
	if a.Pack.Spec == scaffold.SpecV1 {
		return kinds.V1
	}
	return kinds.V2
}
