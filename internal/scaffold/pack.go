package scaffold

import (
	"path"
	"reflect"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

func init() {
	row, _ := kinds.PackNamed(KindNode)
	k := newKind(Kind{Name: KindNode, Verb: "pack", Order: 10, About: "A node pack (nodes and agents, with code)", Schema: row.Doc,
		Readme: "pack/README.md.tmpl", Aliases: map[string]string{"node.": "nodes.0.", "agent.": "agents.0."}}, PackAnswers{}.Defaults)
	k.Full = func() any {
		p := PackAnswers{}.Defaults()
		p.Agents = []AgentAnswers{fullAgent()}
		return &p
	}
	k.Pack = func(a any) *PackIdentity { return &a.(*PackAnswers).PackIdentity }
	k.Plan = planned(PlanPack)
	registerKind(k)
}

// Normalize fills what follows from other answers: the runtime's format,
// entry and minimum version from its template, and, for a remote
// (agent-only) pack, no nodes and at least one agent.
func (a *PackAnswers) Normalize() error {
	if err := a.resolveSpec(); err != nil {
		return err
	}
	rs, err := Runtime(a.Runtime.Language)
	if err != nil {
		return err
	}
	if a.Runtime.Entry == "" {
		a.Runtime.Entry = rs.Entry
	}
	if a.Runtime.Format == "" {
		a.Runtime.Format = rs.Format
	}
	if a.Runtime.MinRuntimeVersion == "" {
		a.Runtime.MinRuntimeVersion = rs.MinRuntimeVersion
	}
	if a.Runtime.Language == "remote" {
		if len(a.Nodes) == 1 && reflect.DeepEqual(a.Nodes[0], NodeAnswers{}.Defaults()) {
			a.Nodes = nil
		}
		if len(a.Agents) == 0 {
			a.Agents = []AgentAnswers{AgentAnswers{}.Defaults()}
		}
	}
	return nil
}

// PlanPack computes the files of a new pack. The answers are normalized
// first; the generated pack is validated (strict: warnings count) with v, or
// with a default validator when v is nil, and any problem is returned as
// FieldErrors naming the answers to change. Nothing is written.
func PlanPack(a PackAnswers, v *validate.Validator) (*Plan, error) {
	if err := a.Normalize(); err != nil {
		return nil, err
	}
	rs, _ := Runtime(a.Runtime.Language)
	errs := a.precheck()
	p := &Plan{Kind: "pack"}
	vw := a.view(rs)
	doc := packDoc{
		Name: a.Name, Version: a.Version, Description: a.Description, Author: a.Author,
		License: a.License, Homepage: a.Homepage, Repository: a.Repository, Keywords: a.Keywords,
		Engines: map[string]string{"openwop": a.Engines},
		Kind:    a.kind(),
		Runtime: runtimeDoc{Language: a.Runtime.Language, Format: a.Runtime.Format, Entry: a.Runtime.Entry, MinRuntimeVersion: a.Runtime.MinRuntimeVersion},
	}
	var extra Plan
	if a.Spec == SpecV2 {
		// v2 packs only: `new --spec v1` writes, byte for byte, what
		// wopkit wrote before v2 (the registry takes new packs in v2).
		extra.pack, extra.version = a.Name, a.Version
	}
	for i, n := range a.Nodes {
		nd, err := buildNode(&extra, "nodes."+strconv.Itoa(i), a.Name, n)
		if err != nil {
			return nil, err
		}
		doc.Nodes = append(doc.Nodes, nd)
	}
	for i, ag := range a.Agents {
		ad, err := buildAgent(&extra, "agents."+strconv.Itoa(i), a.Name, ag)
		if err != nil {
			return nil, err
		}
		if a.Spec == SpecV2 {
			ad.Role = AgentRoleV2
		}
		doc.Agents = append(doc.Agents, ad)
	}
	if a.Spec == SpecV2 && len(doc.Agents) > 0 {
		doc.PeerDependencies = AgentPeersV2
	}
	if err := p.addJSON("pack.json", doc); err != nil {
		return nil, err
	}
	k, _ := PackKind(KindNode) // the kind's descriptor names its README template
	for _, f := range []struct{ path, tmpl string }{{"README.md", k.Readme}, {".openwopignore", "pack/openwopignore.tmpl"}} {
		b, err := render(f.tmpl, vw)
		if err != nil {
			return nil, err
		}
		p.add(f.path, b)
	}
	lic, err := licenseText(a.License, vw)
	if err != nil {
		return nil, err
	}
	p.add("LICENSE", lic)
	if err := runtimeFiles(p, rs, vw); err != nil {
		return nil, err
	}
	if err := addCases(p, rs, vw.Nodes); err != nil {
		return nil, err
	}
	p.Files = append(p.Files, extra.Files...)
	p.owners = extra.owners
	p.Evals = extra.Evals
	p.Test = rs.Test
	errs = append(errs, checkPackPlan(v, p, nil, keepAll)...)
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	return p, nil
}

// runtimeFiles renders the runtime's entry and test files.
func runtimeFiles(p *Plan, rs *RuntimeSpec, vw view) error {
	names := make([]string, 0, len(rs.Files))
	for name := range rs.Files {
		names = append(names, name)
	}
	sortStrings(names)
	for _, name := range names {
		tmpl := rs.Files[name]
		if tmpl == "@wasm-module" {
			p.add(name, append([]byte(nil), wasmModule...))
			continue
		}
		b, err := render(path.Join("runtimes", rs.Language, tmpl), vw)
		if err != nil {
			return err
		}
		if b, err = tidy(name, b); err != nil {
			return err
		}
		p.add(name, b)
	}
	return nil
}

// view builds the template view of a pack.
func (a *PackAnswers) view(rs *RuntimeSpec) view {
	holder := a.Author
	if holder == "" {
		holder = "the authors of " + a.Name
	}
	sign := "v2"
	if a.Spec == SpecV1 {
		sign = "manual"
	}
	vw := view{Name: a.Name, Version: a.Version, Description: a.Description, Author: a.Author,
		License: a.License, Engines: a.Engines, Holder: holder, Ignore: rs.Ignore, SignMethod: sign,
		Runtime: runtimeView{Language: a.Runtime.Language, Format: a.Runtime.Format, Entry: a.Runtime.Entry,
			MinRuntimeVersion: a.Runtime.MinRuntimeVersion, Test: rs.Test}}
	for _, n := range a.Nodes {
		vw.Nodes = append(vw.Nodes, nodeViewOf(a.Name, n))
	}
	for _, ag := range a.Agents {
		vw.Agents = append(vw.Agents, agentViewOf(a.Name, ag))
	}
	return vw
}

func nodeViewOf(pack string, n NodeAnswers) nodeView {
	n = n.resolved(pack)
	id := qualify(pack, n.ID)
	s := suffix(id)
	return nodeView{TypeID: id, Suffix: s, Func: identifier(s, false), PyFunc: snake(s), GoFunc: identifier(s, true),
		Label: n.Label, Description: n.Description, Inputs: n.Inputs, Outputs: n.Outputs}
}

func agentViewOf(pack string, ag AgentAnswers) agentView {
	ag = ag.resolved(pack)
	id := qualify(pack, ag.ID)
	v := agentView{ID: id, Persona: ag.Persona, ModelClass: ag.ModelClass, SystemPrompt: ag.SystemPrompt}
	if !ag.PromptInline {
		v.PromptFile = ag.promptFile(id)
	}
	if ag.Eval != nil {
		v.EvalFile = ag.Eval.file(id)
	}
	return v
}

func (ag *AgentAnswers) promptFile(id string) string {
	if ag.PromptFile != "" {
		return strings.TrimPrefix(ag.PromptFile, "./")
	}
	return "prompts/" + suffix(id) + ".md"
}

func (e *EvalAnswers) file(agentID string) string {
	if e.File != "" {
		return strings.TrimPrefix(e.File, "./")
	}
	return "evals/" + suffix(agentID) + ".json"
}

// licenseText renders the LICENSE file for an SPDX identifier.
func licenseText(id string, vw view) ([]byte, error) {
	name := "licenses/other.txt"
	switch id {
	case "Apache-2.0", "MIT", "PROPRIETARY":
		name = "licenses/" + id + ".txt"
	}
	return render(name, vw)
}

// precheck refuses what the schemas cannot see in the answers, before
// anything is rendered.
func (a *PackAnswers) precheck() FieldErrors {
	var errs FieldErrors
	if e := checkLicense(a.License); e != "" {
		errs = append(errs, FieldError{Field: "license", Pointer: "/license", File: "pack.json", Message: e,
			Hint: "use an SPDX identifier such as Apache-2.0 or MIT, or PROPRIETARY"})
	}
	if a.Runtime.Language != "remote" && len(a.Nodes) == 0 {
		errs = append(errs, FieldError{Field: "nodes", Pointer: "/nodes", File: "pack.json",
			Message: "a " + a.Runtime.Language + " pack needs at least one node",
			Hint:    "add a node, or set runtime.language=remote for an agent-only pack"})
	}
	seen := map[string]string{}
	for i, n := range a.Nodes {
		errs = append(errs, checkPorts("nodes."+strconv.Itoa(i), n)...)
		id := qualify(a.Name, n.ID)
		switch prev, ok := seen[suffix(id)]; {
		case ok && prev == id:
			errs = append(errs, fieldErrorf("nodes."+strconv.Itoa(i)+".id", "the id %s is used twice: give each node its own", n.ID))
		case ok:
			errs = append(errs, fieldErrorf("nodes."+strconv.Itoa(i)+".id", "the ids %s and %s both end in %s, which names their files: give each node its own last part", prev, id, suffix(id)))
		}
		seen[suffix(id)] = id
	}
	return errs
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
