package scaffold

import (
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/placeholder"
	"github.com/openwop/wopkit/internal/validate"
)

// Identity holds the answers every declarative pack kind (no runtime:
// workflow-chain, prompt, connection, card, form-content, artifact-type)
// shares. Each kind's answers embed it first, so its members keep their
// names and JSON order: "kind" first, "spec" last, the kind's own after.
type Identity struct {
	// Kind is always the kind's constant (KindCard, ...): the answer that
	// selects the answers (`--set kind=card`, or "kind" in a --values file).
	Kind         string `json:"kind"`
	PackIdentity        // the answers every pack has (name, version, ...), as a node pack's
}

// newIdentity returns the default identity of a new pack of kind.
func newIdentity(kind string) Identity {
	return Identity{Kind: kind, PackIdentity: PackIdentity{
		Name:        DefaultPackName,
		Version:     "0.1.0",
		Description: placeholder.DescriptionLead + kind + " pack.",
		License:     "Apache-2.0",
		Keywords:    []string{},
		Engines:     EnginesV2,
		Spec:        SpecV2,
	}}
}

// normalize fills the spec's engines range and the kind.
func (id *Identity) normalize(kind string) error {
	p := PackAnswers{PackIdentity: PackIdentity{Spec: id.Spec, Engines: id.Engines}}
	if err := p.resolveSpec(); err != nil {
		return err
	}
	id.Spec, id.Engines = p.Spec, p.Engines
	if id.Kind == "" {
		id.Kind = kind
	}
	return nil
}

// precheck refuses a license that is no SPDX identifier and answers of
// another kind (hint: what to use instead).
func (id *Identity) precheck(kind, hint string) FieldErrors {
	var errs FieldErrors
	if e := checkLicense(id.License); e != "" {
		errs = append(errs, FieldError{Field: "license", Pointer: "/license", File: "pack.json", Message: e,
			Hint: "use an SPDX identifier such as Apache-2.0 or MIT, or PROPRIETARY"})
	}
	if id.Kind != kind {
		article := "a"
		if strings.ContainsRune("aeiou", rune(kind[0])) {
			article = "an"
		}
		fe := fieldErrorf("kind", "these answers make %s %s pack, not %q", article, kind, id.Kind)
		fe.Hint = hint
		errs = append(errs, fe)
	}
	return errs
}

// head returns the identity members of pack.json.
func (id *Identity) head(deps map[string]string) packHead {
	return packHead{Name: id.Name, Version: id.Version, Kind: id.Kind, Description: id.Description, Author: id.Author,
		License: id.License, Homepage: id.Homepage, Repository: id.Repository, Keywords: id.Keywords,
		Engines: map[string]string{"openwop": id.Engines}, Dependencies: deps}
}

// view returns what every declarative README template sees of the pack.
func (id *Identity) view() declView {
	holder := id.Author
	if holder == "" {
		holder = "the authors of " + id.Name
	}
	vw := declView{Name: id.Name, Version: id.Version, Kind: id.Kind, Description: id.Description, License: id.License,
		Engines: id.Engines, Holder: holder, Spec: id.Spec, SignMethod: "v2"}
	if id.Spec == SpecV1 {
		vw.SignMethod, vw.PublishSpec = "manual", " --spec v1"
	}
	return vw
}

// packHead is the start of a declarative pack.json, as ordered Go values
// (the registry samples' key order); each kind's document embeds it first.
type packHead struct {
	Name         string            `json:"name"`
	Version      string            `json:"version"`
	Kind         string            `json:"kind"`
	Description  string            `json:"description,omitempty"`
	Author       string            `json:"author,omitempty"`
	License      string            `json:"license,omitempty"`
	Homepage     string            `json:"homepage,omitempty"`
	Repository   string            `json:"repository,omitempty"`
	Keywords     []string          `json:"keywords,omitempty"`
	Engines      map[string]string `json:"engines"`
	Dependencies map[string]string `json:"dependencies,omitempty"`
}

// declView is what the templates/pack/<kind>-README.md.tmpl see of the
// pack (and .openwopignore its Ignore); each kind's view embeds it.
type declView struct {
	Name, Version, Kind, Description, License, Engines, Holder, Spec string
	Ignore                                                           []string
	SignMethod                                                       string // v2 or manual
	PublishSpec                                                      string // "" or " --spec v1"
}

// declarative is what one kind gives planDeclarative.
type declarative struct {
	kind, hint string // the kind's constant; the hint for answers of another kind
	doc        any    // pack.json
	view       any    // what the README template sees (embeds declView)
	// extra holds further files with their owners (an artifact type's
	// schema), written after LICENSE.
	extra   *Plan
	errs    FieldErrors                 // the kind's own prechecks
	fieldOf func(pointer string) string // a pack.json pointer to its answer
}

// planDeclarative computes the files of a new declarative pack: pack.json,
// README.md, .openwopignore, LICENSE and d's extra files, validated in
// strict mode (warnings count, so the kind's lint rules apply) with v, or
// a default validator when v is nil. Problems come back as FieldErrors
// naming the answers to change, the identity's first. Nothing is written.
func planDeclarative(id *Identity, v *validate.Validator, d declarative) (*Plan, error) {
	errs := append(id.precheck(d.kind, d.hint), d.errs...)
	p := &Plan{Kind: "pack"}
	if err := p.addJSON("pack.json", d.doc); err != nil {
		return nil, err
	}
	k, _ := PackKind(d.kind) // the kind's descriptor names its README template
	for _, f := range []struct{ path, tmpl string }{{"README.md", k.Readme}, {".openwopignore", "pack/openwopignore.tmpl"}} {
		b, err := render(f.tmpl, d.view)
		if err != nil {
			return nil, err
		}
		p.add(f.path, b)
	}
	lic, err := licenseText(id.License, view{License: id.License, Holder: id.view().Holder})
	if err != nil {
		return nil, err
	}
	p.add("LICENSE", lic)
	if d.extra != nil {
		p.Files = append(p.Files, d.extra.Files...)
		p.owners = d.extra.owners
	}
	errs = append(errs, checkPackPlanRenamed(v, p, nil, keepAll, nil)...)
	for i := range errs {
		if errs[i].File == "pack.json" && errs[i].Pointer != "" {
			errs[i].Field = d.fieldOf(missingMember(errs[i]))
			errs[i] = answerWords(errs[i]) // the kind's answer, then its words
		}
	}
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	return p, nil
}

// schemaList returns a function that reads a list from the embedded
// schemas once and returns a copy of it on every call.
func schemaList(read func(v *validate.Validator) []string) func() []string {
	list := sync.OnceValue(func() []string { return read(orDefault(nil)) })
	return func() []string { return append([]string(nil), list()...) }
}

// schemaEnum lists the enum of the member at ptr of the v2 schema of kind.
func schemaEnum(kind kinds.Kind, ptr string) func() []string {
	return schemaList(func(v *validate.Validator) []string { return v.FieldFor(kinds.V2, kind, ptr).Enum })
}

// schemaPatternWords lists the plain-word alternatives of the pattern of
// the member at ptr of the v2 schema of kind (see patternWords).
func schemaPatternWords(kind kinds.Kind, ptr string) func() []string {
	return schemaList(func(v *validate.Validator) []string {
		return patternWords(v.FieldFor(kinds.V2, kind, ptr).Pattern)
	})
}
