package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

func init() {
	k := declKind(KindWorkflowChain, 20, "A workflow-chain pack (a chain of two steps, no code)",
		"pack/chain-README.md.tmpl", ChainPackAnswers{}.Defaults, func(a *ChainPackAnswers) *Identity { return &a.Identity }, PlanChainPack)
	k.Aliases = map[string]string{"chain.": "chains.0."}
	k.Pointers = chainPointers
	registerKind(k)
}

// Pack kinds `wopkit new pack` scaffolds (the pack.json "kind" values, read
// from the schemas' const: see PackKinds; the other kinds' constants are
// in prompt.go, connection.go, card.go, form.go and artifact.go).
const (
	KindNode          = kinds.NodeName
	KindWorkflowChain = kinds.WorkflowChainName
)

// ChainPackAnswers describe a new workflow-chain pack: a declarative pack
// (no runtime) whose chains are DAG fragments of existing node types that a
// host editor expands inline at author time (spec v2 workflow-chain-packs.md).
type ChainPackAnswers struct {
	Identity
	// Dependencies are the node packs (name -> semver range) whose typeIds
	// the chains reference; core.* types need none.
	Dependencies map[string]string `json:"dependencies"`
	Chains       []ChainAnswers    `json:"chains"` // at least one
}

// ChainAnswers describe one chain: its steps become the dag's nodes, each
// wired to the next by an edge (a linear DAG).
type ChainAnswers struct {
	// ID is the chainId, or, without a dot, a suffix appended to the pack
	// name ("summarize-page" in pack vendor.acme.x is vendor.acme.x.summarize-page).
	ID           string          `json:"id" doc:"chainId"`
	Version      string          `json:"version"`
	Label        string          `json:"label"` // default: the id's last part, title-cased
	Description  string          `json:"description"`
	Capabilities []string        `json:"capabilities"`                        // ChainCapabilities()
	Parameters   []ParamAnswers  `json:"parameters" doc:"parameters,derived"` // properties keyed by name: see fieldOf
	Steps        []StepAnswers   `json:"steps" doc:"dag/nodes"`               // the dag's nodes, in order
	Outputs      []OutputAnswers `json:"outputs" doc:"outputs,derived"`       // keyed by name: see fieldOf
}

// ParamAnswers describe one chain parameter (a property of the chain's
// parameters schema). A step uses it through {{params.<name>}}.
type ParamAnswers struct {
	Name        string `json:"name"` // [A-Za-z0-9_]+, the {{params.x}} grammar
	Type        string `json:"type"` // ChainValueTypes()
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// StepAnswers describe one node of the chain's dag.
type StepAnswers struct {
	ID     string `json:"id"`     // the node id, unique in the chain (edges name it)
	TypeID string `json:"typeId"` // the node type, <pack>.<node> (core.ai.chatCompletion)
	// Version is the exact version of the node type the step pins (RFC
	// 0177 §E.1: a v2 host refuses an unpinned or ranged chain reference):
	// the typeId is written <typeId>@<version>. A TypeID that carries its
	// own pin keeps it; "" pins DefaultNodeVersion. v1 chains are written
	// unpinned (the v1 schema admits no @).
	Version string `json:"version" doc:"-"` // written into typeId: its problems are typeId's
	Name    string `json:"name"`            // display name; default: the id title-cased
	// Params are the chain parameters the step receives: each is written
	// into the node's config as "<name>": "{{params.<name>}}".
	Params []string `json:"params" doc:"-"` // config members: see fieldOf
	// Config holds further config strings (which may use {{params.x}}).
	Config map[string]string `json:"config" doc:"config,derived"`
	// Input and Output name the ports of the edges into and out of the
	// step ("" wires the node itself: edge "fetch" -> "summarize").
	Input  string `json:"input" doc:"-"` // the edges'
	Output string `json:"output" doc:"-"`
}

// OutputAnswers describe one output the chain surfaces to the workflow.
type OutputAnswers struct {
	Name        string `json:"name"`
	Type        string `json:"type"` // ChainValueTypes()
	Description string `json:"description"`
}

// Defaults returns the answers of a new workflow-chain pack: one chain of
// two steps (fetch a page, summarize it), both core types, the registry's
// own sample shape.
func (ChainPackAnswers) Defaults() ChainPackAnswers {
	return ChainPackAnswers{
		Identity:     newIdentity(KindWorkflowChain),
		Dependencies: map[string]string{},
		Chains:       []ChainAnswers{ChainAnswers{}.Defaults()},
	}
}

// Defaults returns the answers of a first chain: core.openwop.http.fetch
// fetches {{params.url}}, core.ai.chatCompletion summarizes the page at
// {{params.length}}; side-effectful, because it fetches. Both are node
// types the registry publishes, pinned to their published versions
// (core.openwop.http@2.1.1 and core.openwop.ai@1.4.1 carry both at 1.0.0,
// the version the registry's own chains pin core.ai.chatCompletion to).
func (ChainAnswers) Defaults() ChainAnswers {
	return ChainAnswers{
		ID:           "summarize-page",
		Version:      "0.1.0",
		Description:  "Fetches a web page and summarizes it.",
		Capabilities: []string{"side-effectful"},
		Parameters: []ParamAnswers{
			{Name: "url", Type: "string", Description: "The URL of the page to summarize.", Required: true},
			{Name: "length", Type: "string", Description: "How long the summary should be, e.g. one paragraph."},
		},
		Steps: []StepAnswers{
			{ID: "fetch", TypeID: "core.openwop.http.fetch", Version: "1.0.0", Params: []string{"url"}, Config: map[string]string{}},
			{ID: "summarize", TypeID: "core.ai.chatCompletion", Version: "1.0.0", Params: []string{"length"},
				Config: map[string]string{"systemPrompt": "Summarize the page you are given. Leave out navigation and boilerplate; keep to the article."}},
		},
		Outputs: []OutputAnswers{{Name: "summary", Type: "string", Description: "The summary of the page."}},
	}
}

// ChainCapabilities lists the capability traits a chain may declare (the
// schema's enum).
func ChainCapabilities() []string { return chainCapabilities() }

// ChainValueTypes lists the JSON Schema type tokens a chain parameter or
// output may have (the schema's list).
func ChainValueTypes() []string { return chainValueTypes() }

// PackKinds lists the pack kinds `wopkit new pack` scaffolds, in menu
// order (each the const "kind" of its schema).
func PackKinds() []string { return packKinds() }

// The schema lists, read from the embedded v2 schemas once.
var (
	chainCapabilities = schemaEnum(kinds.WorkflowChainPack, "/chains/0/capabilities")
	// ChainOutput.type is a free string whose description names the JSON
	// Schema type tokens; the same schema lists them as the enum of a
	// produced variable's type.
	chainValueTypes = schemaEnum(kinds.WorkflowChainPack, "/chains/0/producedVariables/0/type")
	packKinds       = schemaList(func(v *validate.Validator) []string {
		var names []string
		for _, k := range Kinds() {
			if k.IsPack() {
				names = append(names, v.FieldFor(kinds.V2, k.Schema, "/kind").Enum...)
			}
		}
		return names
	})
)

// Normalize fills what follows from other answers: the spec's engines
// range and the kind.
func (a *ChainPackAnswers) Normalize() error { return a.normalize(KindWorkflowChain) }

// Check returns every problem of the answers, as PlanChainPack would
// refuse them (nil when the pack can be written). v may be nil.
func (a ChainPackAnswers) Check(v *validate.Validator) FieldErrors {
	_, err := PlanChainPack(a, v)
	return asFieldErrors(err)
}

// PlanChainPack computes the files of a new workflow-chain pack: pack.json,
// README.md, LICENSE and .openwopignore. The pack is validated (strict:
// warnings count, so the WC lint rules apply) with v, or a default
// validator when v is nil; problems come back as FieldErrors naming the
// answers to change. Nothing is written.
func PlanChainPack(a ChainPackAnswers, v *validate.Validator) (*Plan, error) {
	if err := a.Normalize(); err != nil {
		return nil, err
	}
	doc := chainPackDoc{
		packHead: a.head(a.Dependencies),
		Chains:   []chainDoc{}, // none is "at least 1 item", not "not null"
	}
	for _, c := range a.Chains {
		doc.Chains = append(doc.Chains, c.doc(a.Name, a.Spec))
	}
	return planDeclarative(&a.Identity, v, declarative{kind: KindWorkflowChain, hint: "use the node pack answers for another kind",
		doc: doc, view: a.view(), errs: a.precheck(), fieldOf: a.fieldOf})
}

// precheck refuses what the schemas and lint rules cannot see in the
// answers (names that would collapse in a JSON object, unknown type
// tokens), before anything is rendered.
func (a *ChainPackAnswers) precheck() FieldErrors {
	var errs FieldErrors
	types := ChainValueTypes()
	for i, c := range a.Chains {
		pre := "chains." + strconv.Itoa(i)
		seen := map[string]bool{}
		for j, pa := range c.Parameters {
			f := pre + ".parameters." + strconv.Itoa(j)
			switch {
			case !paramName.MatchString(pa.Name):
				errs = append(errs, FieldError{Field: f + ".name", Message: fmt.Sprintf("parameter name %q cannot be used as {{params.%s}}", pa.Name, pa.Name),
					Hint: "use letters, digits and _ only (the registry's {{params.<name>}} grammar)"})
			case seen[pa.Name]:
				errs = append(errs, fieldErrorf(f+".name", "parameter %q is declared twice", pa.Name))
			}
			seen[pa.Name] = true
			if slices.Index(types, pa.Type) < 0 {
				fe := fieldErrorf(f+".type", "parameter type %q is not a JSON Schema type", pa.Type)
				fe.Hint = "use one of: " + strings.Join(types, ", ")
				errs = append(errs, fe)
			}
		}
		outs := map[string]bool{}
		for j, o := range c.Outputs {
			f := pre + ".outputs." + strconv.Itoa(j)
			switch {
			case o.Name == "":
				errs = append(errs, fieldErrorf(f+".name", "output name is empty"))
			case outs[o.Name]:
				errs = append(errs, fieldErrorf(f+".name", "output %q is declared twice", o.Name))
			}
			outs[o.Name] = true
			if slices.Index(types, o.Type) < 0 {
				fe := fieldErrorf(f+".type", "output type %q is not a JSON Schema type", o.Type)
				fe.Hint = "use one of: " + strings.Join(types, ", ")
				errs = append(errs, fe)
			}
		}
		for j, s := range c.Steps {
			f := pre + ".steps." + strconv.Itoa(j)
			switch _, pin, pinned := strings.Cut(s.TypeID, "@"); {
			case s.Version != "" && !exactVersion.MatchString(s.Version):
				errs = append(errs, FieldError{Field: f + ".version", Message: fmt.Sprintf("version %q is not one exact version", s.Version),
					Hint: "a chain pins the node it was written against as MAJOR.MINOR.PATCH, such as 1.0.0: hosts refuse a range such as ^1.0.0"})
			case s.Version != "" && pinned && pin != s.Version:
				errs = append(errs, FieldError{Field: f + ".version", Message: fmt.Sprintf("version %q differs from the pin of typeId %q", s.Version, s.TypeID),
					Hint: "give the version once: in version, or as the typeId's @pin"})
			}
			taken := map[string]bool{}
			for _, name := range s.Params {
				if taken[name] {
					errs = append(errs, fieldErrorf(f+".params", "parameter %q is passed twice", name))
				}
				taken[name] = true
				if _, ok := s.Config[name]; ok {
					errs = append(errs, FieldError{Field: f + ".config", Message: fmt.Sprintf("config %q is also the parameter passed as %q", name, name),
						Hint: "remove one of them: a passed parameter is written as config \"" + name + "\""})
				}
			}
		}
	}
	return errs
}

// DefaultNodeVersion is the pin of a step that gives no version: the
// first version of a node type, the one `wopkit new` gives a node and the
// one nearly every node of the registry's packs still carries.
const DefaultNodeVersion = "1.0.0"

// ExactVersion reports whether v is a pin a chain step may carry (RFC
// 0177 §E.1): MAJOR.MINOR.PATCH, no range.
func ExactVersion(v string) bool { return exactVersion.MatchString(v) }

// exactVersion is the pin RFC 0177 §E.1 admits: MAJOR.MINOR.PATCH, no range.
var exactVersion = lazyre.New(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// typeRef is the reference a v2 chain step writes: its typeId pinned to
// the version given (or DefaultNodeVersion); a typeId that already
// carries a pin keeps it (the validator judges it). v1 chains, whose
// schema admits no @, keep the bare typeId.
func (s StepAnswers) typeRef(spec string) string {
	if spec == SpecV1 || s.TypeID == "" || strings.Contains(s.TypeID, "@") {
		return s.TypeID
	}
	v := s.Version
	if v == "" {
		v = DefaultNodeVersion
	}
	return s.TypeID + "@" + v
}

// paramName is the {{params.<name>}} grammar (the registry's, as validate's WC005 reads it).
var paramName = lazyre.New(`^[A-Za-z0-9_]+$`)

// doc builds a chain's pack.json entry.
func (c ChainAnswers) doc(pack, spec string) chainDoc {
	id := qualify(pack, c.ID)
	label := c.Label
	if label == "" {
		label = Title(suffix(id))
	}
	d := chainDoc{ChainID: id, Version: c.Version, Label: label, Description: c.Description, Capabilities: c.Capabilities}
	params := obj{{"type", "object"}}
	var req []string
	props := obj{}
	for _, pa := range c.Parameters {
		if pa.Required {
			req = append(req, pa.Name)
		}
		ps := obj{{"type", pa.Type}}
		if pa.Description != "" {
			ps = append(ps, member{"description", pa.Description})
		}
		props = append(props, member{pa.Name, ps})
	}
	if len(req) > 0 {
		params = append(params, member{"required", req})
	}
	d.Parameters = append(params, member{"properties", props})
	d.Dag.Nodes, d.Dag.Edges = []fragmentNodeDoc{}, []edgeDoc{}
	for i, s := range c.Steps {
		name := s.Name
		if name == "" {
			name = Title(s.ID)
		}
		cfg := obj{}
		passed := map[string]bool{}
		for _, p := range s.Params {
			if !passed[p] { // a repeat is refused by precheck
				passed[p] = true
				cfg = append(cfg, member{p, "{{params." + p + "}}"})
			}
		}
		for _, k := range sortedKeys(s.Config) {
			if slices.Index(s.Params, k) >= 0 {
				continue // refused by precheck
			}
			cfg = append(cfg, member{k, s.Config[k]})
		}
		d.Dag.Nodes = append(d.Dag.Nodes, fragmentNodeDoc{ID: s.ID, TypeID: s.typeRef(spec), Name: name,
			Position: positionDoc{X: float64(280 * i), Y: 0}, Config: cfg, Inputs: obj{}})
		if i > 0 {
			d.Dag.Edges = append(d.Dag.Edges, edgeDoc{From: port(c.Steps[i-1].ID, c.Steps[i-1].Output), To: port(s.ID, s.Input)})
		}
	}
	if len(c.Outputs) > 0 {
		outs := obj{}
		for _, o := range c.Outputs {
			outs = append(outs, member{o.Name, outputDoc{Type: o.Type, Description: o.Description}})
		}
		d.Outputs = outs
	}
	return d
}

func port(id, p string) string {
	if p == "" {
		return id
	}
	return id + "." + p
}

// fieldOf maps a pointer in the generated pack.json to the answer it
// comes from ("/chains/0/dag/nodes/1/typeId" is "chains.0.steps.1.typeId").
func (a *ChainPackAnswers) fieldOf(pointer string) string {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) < 4 || toks[0] != "chains" {
		return chainPointers.Field(pointer)
	}
	pre := "chains." + toks[1]
	var c ChainAnswers
	if i, ok := atoi(toks[1]); ok && i < len(a.Chains) {
		c = a.Chains[i]
	}
	switch rest := toks[2:]; {
	case rest[0] == "parameters" && rest[1] == "properties" && len(rest) >= 3: // keyed by the parameter's name
		for j, pa := range c.Parameters {
			if pa.Name == rest[2] {
				f := pre + ".parameters." + strconv.Itoa(j)
				if len(rest) >= 4 && (rest[3] == "type" || rest[3] == "description") {
					f += "." + rest[3]
				}
				return f
			}
		}
	case rest[0] == "outputs": // keyed by the output's name
		for j, o := range c.Outputs {
			if o.Name == rest[1] {
				f := pre + ".outputs." + strconv.Itoa(j)
				if len(rest) >= 3 {
					f += "." + rest[2]
				}
				return f
			}
		}
	case rest[0] == "dag" && rest[1] == "nodes" && len(rest) >= 5 && rest[3] == "config": // a parameter the step receives, or its config
		if j, ok := atoi(rest[2]); ok && j < len(c.Steps) && slices.Index(c.Steps[j].Params, rest[4]) >= 0 {
			return pre + ".steps." + rest[2] + ".params"
		}
	}
	return chainPointers.Field(pointer)
}

func atoi(s string) (int, bool) {
	n := 0
	if s == "" {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int(r-'0')
	}
	return n, true
}

// chainView is what templates/pack/chain-README.md.tmpl sees.
type chainView struct {
	declView
	Chains []chainItemView
}

type stepView struct {
	N          int // 1-based
	ID, TypeID string
}

type chainItemView struct {
	ID, Label, Description string
	Steps                  []stepView
	Parameters             []ParamAnswers
	Outputs                []OutputAnswers
}

func (a *ChainPackAnswers) view() chainView {
	vw := chainView{declView: a.Identity.view()}
	for _, c := range a.Chains {
		d := c.doc(a.Name, a.Spec)
		cv := chainItemView{ID: d.ChainID, Label: d.Label, Description: c.Description, Parameters: c.Parameters, Outputs: c.Outputs}
		for i, s := range c.Steps {
			cv.Steps = append(cv.Steps, stepView{N: i + 1, ID: s.ID, TypeID: s.typeRef(a.Spec)})
		}
		vw.Chains = append(vw.Chains, cv)
	}
	return vw
}

// The pack.json of a chain pack, as ordered Go values.

type chainPackDoc struct {
	packHead
	Chains []chainDoc `json:"chains"`
}

type chainDoc struct {
	ChainID      string   `json:"chainId"`
	Version      string   `json:"version"`
	Label        string   `json:"label"`
	Description  string   `json:"description"`
	Parameters   obj      `json:"parameters"`
	Dag          dagDoc   `json:"dag"`
	Outputs      obj      `json:"outputs,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
}

type dagDoc struct {
	Nodes []fragmentNodeDoc `json:"nodes"`
	Edges []edgeDoc         `json:"edges"`
}

type fragmentNodeDoc struct {
	ID       string      `json:"id"`
	TypeID   string      `json:"typeId"`
	Name     string      `json:"name,omitempty"`
	Position positionDoc `json:"position"`
	Config   obj         `json:"config"`
	Inputs   obj         `json:"inputs"`
}

type positionDoc struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type edgeDoc struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type outputDoc struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

// obj is a JSON object that keeps its members' order (parameters,
// config and outputs are written in the order they were answered).
type obj []member

type member struct {
	Key   string
	Value any
}

// MarshalJSON writes the members in order.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshalPlain(m.Key)
		if err != nil {
			return nil, err
		}
		v, err := marshalPlain(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalPlain is json.Marshal without HTML escaping (as jsonedit.Render
// writes the rest of the document).
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// ChainFieldPointer returns the JSON pointer in pack.json of a chain pack
// answer field ("chains.0.steps.1.typeId" is "/chains/0/dag/nodes/1/typeId"),
// so a wizard can check a value as it is typed (CheckField with
// kinds.WorkflowChainPack); "" for answers that are not one value of
// the document (a step's params, a parameter's required flag).
func ChainFieldPointer(a ChainPackAnswers, field string) string {
	toks := strings.Split(field, ".")
	if len(toks) == 5 && toks[0] == "chains" && (toks[4] == "type" || toks[4] == "description") {
		ci, _ := atoi(toks[1])
		j, ok := atoi(toks[3])
		if !ok || ci >= len(a.Chains) {
			return ""
		}
		c := a.Chains[ci]
		pre := "/chains/" + toks[1]
		switch { // keyed by name
		case toks[2] == "parameters" && j < len(c.Parameters):
			return jsondoc.Child(pre+"/parameters/properties", c.Parameters[j].Name) + "/" + toks[4]
		case toks[2] == "outputs" && j < len(c.Outputs):
			return jsondoc.Child(pre+"/outputs", c.Outputs[j].Name) + "/" + toks[4]
		}
		return ""
	}
	return chainPointers.Pointer(field)
}

// chainPointers maps the answers to pack.json and back, where neither
// depends on the answers (see fieldOf and ChainFieldPointer for those
// that do).
var chainPointers = pointerMap(ChainPackAnswers{})

func init() {
	registerKind(newKind(Kind{Name: "chain", Verb: "chain", Order: 100, About: "A chain added into a workflow-chain pack",
		Schema: kinds.WorkflowChainPack}, ChainAnswers{}.Defaults))
}

// ChainIDs lists the pack's chainIds, in order.
func (s *PackSource) ChainIDs() []string { return s.ids("/chains", "chainId") }

// Kind returns the pack's kind ("node" when pack.json does not say).
func (s *PackSource) Kind() string {
	if k := s.doc.Root.Get("kind"); k != nil && k.Kind == jsondoc.String {
		return k.Str
	}
	return KindNode
}

// PlanChain computes the edit that adds a chain to a workflow-chain pack:
// its entry at the end of chains[], the rest of pack.json byte for byte as
// it was. A chainId already in the pack, or a pack of another kind, is
// refused; the pack as it will be is validated (strict) and the problems
// of the new chain come back as FieldErrors relative to the chain answers
// ("steps.1.typeId").
func PlanChain(src *PackSource, c ChainAnswers, v *validate.Validator) (*Plan, error) {
	if k := src.Kind(); k != KindWorkflowChain {
		return nil, werr.New(werr.Invalid, "scaffold_wrong_kind", "pack %s is a %s pack (%s): chains go in a workflow-chain pack", src.Name, k, filepath.Join(src.Dir, "pack.json")).
			WithHint("create one with `wopkit new pack --set kind=workflow-chain`")
	}
	id := qualify(src.Name, c.ID)
	ids := src.ChainIDs()
	if errs := src.taken("chain", "chains", "chainId", id, ids, "choose another id, or edit the existing chain with `wopkit edit`"); errs != nil {
		return nil, errs
	}
	// the answers as the only chain of a pack: the same prechecks and
	// pointer-to-answer mapping as a new pack, relative to the chain
	one := ChainPackAnswers{Chains: []ChainAnswers{c}}
	errs := relative(one.precheck(), "chains.0")
	out, err := jsonedit.Append(src.Manifest, "/chains", c.doc(src.Name, src.spec()))
	if err != nil {
		return nil, err
	}
	p := &Plan{Kind: "chain", Files: []File{{Path: "pack.json", Data: out, Mode: 0o644, Update: true, Base: src.Manifest}}}
	prefix := jsondoc.Index("/chains", len(ids))
	keep := func(file, ptr string) bool {
		return file == "pack.json" && (ptr == prefix || strings.HasPrefix(ptr, prefix+"/"))
	}
	for _, fe := range checkPackPlan(v, p, src.FS, keep) {
		fe.Field = one.fieldOf("/chains/0" + strings.TrimPrefix(fe.Pointer, prefix))
		errs = append(errs, relative(FieldErrors{fe}, "chains.0")...)
	}
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	return p, nil
}

// spec is the spec version the pack follows (kinds.DetectSpec): a
// chain added to a v2 pack pins its node types, one added to a v1 pack
// cannot.
func (s *PackSource) spec() string {
	if sp, _ := kinds.DetectSpec(s.doc.Root); sp == kinds.V1 {
		return SpecV1
	}
	return SpecV2
}

// relative strips prefix from the fields of errs ("chains.0.steps" is
// "steps"; "chains.0" itself is "").
func relative(errs FieldErrors, prefix string) FieldErrors {
	for i := range errs {
		switch f := errs[i].Field; {
		case f == prefix:
			errs[i].Field = ""
		case strings.HasPrefix(f, prefix+"."):
			errs[i].Field = strings.TrimPrefix(f, prefix+".")
		}
	}
	return errs
}

// Check returns the problems of adding the chain to src, as PlanChain
// would refuse them.
func (c ChainAnswers) Check(src *PackSource, v *validate.Validator) FieldErrors {
	_, err := PlanChain(src, c, v)
	return asFieldErrors(err)
}
