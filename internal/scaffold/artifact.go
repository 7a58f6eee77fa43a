package scaffold

import (
	"net/url"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/validate"
)

// KindArtifactType is the pack.json "kind" of an artifact-type pack.
const KindArtifactType = "artifact-type"

// DefaultHostBase is the origin under which an artifact type's schema $id
// is minted when the pack is published through the public registry (its
// discovery document's url).
const DefaultHostBase = "https://packs.openwop.dev"

// ArtifactPackAnswers describe a new artifact-type pack: a declarative pack
// (no runtime) declaring artifact types, each with the JSON Schema of its
// artifacts in schemas/ (RFC 0071, RFC 0075).
type ArtifactPackAnswers struct {
	// Kind is always KindArtifactType: the answer that selects these answers.
	Kind        string   `json:"kind"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Description string   `json:"description"`
	Author      string   `json:"author"`
	License     string   `json:"license"`
	Homepage    string   `json:"homepage"`
	Repository  string   `json:"repository"`
	Keywords    []string `json:"keywords"`
	Engines     string   `json:"engines"`
	Spec        string   `json:"spec"`
	// HostBase is the publishing host's origin: each schema's $id is
	// {HostBase}/schemas/artifacts/{artifactTypeId}.schema.json.
	HostBase string                `json:"hostBase"`
	Types    []ArtifactTypeAnswers `json:"artifactTypes"` // at least one
}

// ArtifactTypeAnswers describe one artifact type and its schema.
type ArtifactTypeAnswers struct {
	// ID is the artifactTypeId, or, without a dot, a suffix appended to the pack name.
	ID            string   `json:"id"`
	DisplayName   string   `json:"displayName"`   // default: the id's last part, title-cased
	SchemaVersion int      `json:"schemaVersion"` // negative omits it
	Validation    string   `json:"validation"`    // ArtifactValidations(): open (extra fields tolerated) or closed
	SyncOn        string   `json:"syncOn"`        // ArtifactSyncOn() ("" omits: completion)
	Display       string   `json:"display"`       // rendering.display, ArtifactDisplays() ("" omits)
	ExportFormats []string `json:"exportFormats"`
	Versionable   bool     `json:"versionable"`
	Diffable      bool     `json:"diffable"`
	Properties    []string `json:"properties"` // the artifact's string properties (its schema)
	Required      []string `json:"required"`   // those of Properties an artifact must have
}

// Defaults returns the answers of a new artifact-type pack: one report type.
func (ArtifactPackAnswers) Defaults() ArtifactPackAnswers {
	return ArtifactPackAnswers{
		Kind:        KindArtifactType,
		Name:        DefaultPackName,
		Version:     "0.1.0",
		Description: "A new OpenWOP artifact-type pack.",
		License:     "Apache-2.0",
		Keywords:    []string{},
		Engines:     EnginesV2,
		Spec:        SpecV2,
		HostBase:    DefaultHostBase,
		Types:       []ArtifactTypeAnswers{ArtifactTypeAnswers{}.Defaults()},
	}
}

// Defaults returns the answers of a first artifact type: an open report
// rendered as markdown.
func (ArtifactTypeAnswers) Defaults() ArtifactTypeAnswers {
	return ArtifactTypeAnswers{
		ID: "report", SchemaVersion: 1, Validation: "open", Display: "markdown",
		ExportFormats: []string{"md", "pdf"}, Versionable: true,
		Properties: []string{"title", "summary", "body"}, Required: []string{"title", "body"},
	}
}

var (
	artifactListsOnce sync.Once
	artifactValid     []string
	artifactSync      []string
	artifactDisplay   []string
)

func loadArtifactLists() {
	artifactListsOnce.Do(func() {
		v := orDefault(nil)
		f := func(ptr string) []string { return v.FieldFor(validate.V2, validate.ArtifactTypePack, ptr).Enum }
		artifactValid = f("/artifactTypes/0/validation")
		artifactSync = f("/artifactTypes/0/syncOn")
		artifactDisplay = f("/artifactTypes/0/rendering/display")
	})
}

// ArtifactValidations lists the strictness contracts (the schema's enum).
func ArtifactValidations() []string {
	loadArtifactLists()
	return append([]string(nil), artifactValid...)
}

// ArtifactSyncOn lists when a host registers an artifact (the schema's enum).
func ArtifactSyncOn() []string { loadArtifactLists(); return append([]string(nil), artifactSync...) }

// ArtifactDisplays lists the rendering hints (the schema's enum).
func ArtifactDisplays() []string {
	loadArtifactLists()
	return append([]string(nil), artifactDisplay...)
}

// Normalize fills the spec's engines range and the kind.
func (a *ArtifactPackAnswers) Normalize() error {
	p := PackAnswers{Spec: a.Spec, Engines: a.Engines}
	if err := p.resolveSpec(); err != nil {
		return err
	}
	a.Spec, a.Engines = p.Spec, p.Engines
	if a.Kind == "" {
		a.Kind = KindArtifactType
	}
	return nil
}

// Check returns every problem of the answers, as PlanArtifactPack would
// refuse them (nil when the pack can be written). v may be nil.
func (a ArtifactPackAnswers) Check(v *validate.Validator) FieldErrors {
	_, err := PlanArtifactPack(a, v)
	return asFieldErrors(err)
}

// artifactSchemaPath is where the schema of an artifact type goes.
func artifactSchemaPath(id string) string { return "schemas/" + id + ".schema.json" }

// PlanArtifactPack computes the files of a new artifact-type pack:
// pack.json, the schema of each type in schemas/, README.md, LICENSE and
// .openwopignore, validated in strict mode (schemaRef resolution, the AT
// rules). Nothing is written.
func PlanArtifactPack(a ArtifactPackAnswers, v *validate.Validator) (*Plan, error) {
	if err := a.Normalize(); err != nil {
		return nil, err
	}
	errs := a.precheck()
	doc := artifactPackDoc{
		Name: a.Name, Version: a.Version, Kind: a.Kind, Description: a.Description, Author: a.Author,
		License: a.License, Homepage: a.Homepage, Repository: a.Repository, Keywords: a.Keywords,
		Engines: map[string]string{"openwop": a.Engines}, Types: []artifactTypeDoc{},
	}
	p := &Plan{Kind: "pack"}
	var schemas Plan
	for i, t := range a.Types {
		d := t.doc(a.Name)
		doc.Types = append(doc.Types, d)
		path := artifactSchemaPath(d.ArtifactTypeID)
		if schemas.File(path) != nil {
			continue // a repeated id: AT001 reports it
		}
		if err := schemas.addJSON(path, t.schema(a.Name, a.HostBase)); err != nil {
			return nil, err
		}
		schemas.own(path, "artifactTypes."+itoa(i)+".properties")
	}
	if err := p.addJSON("pack.json", doc); err != nil {
		return nil, err
	}
	vw := a.view()
	for _, f := range []struct{ path, tmpl string }{{"README.md", "pack/artifact-README.md.tmpl"}, {".openwopignore", "pack/openwopignore.tmpl"}} {
		b, err := render(f.tmpl, vw)
		if err != nil {
			return nil, err
		}
		p.add(f.path, b)
	}
	lic, err := licenseText(a.License, view{License: a.License, Holder: vw.Holder})
	if err != nil {
		return nil, err
	}
	p.add("LICENSE", lic)
	p.Files = append(p.Files, schemas.Files...)
	p.owners = schemas.owners
	errs = append(errs, checkPackPlanRenamed(v, p, nil, keepAll, nil)...)
	for i := range errs {
		if errs[i].File == "pack.json" && errs[i].Pointer != "" {
			errs[i].Field = artifactFieldOf(missingMember(errs[i]))
		}
	}
	if len(errs) > 0 {
		return nil, errs.sorted()
	}
	return p, nil
}

// precheck refuses what the schema cannot see in the answers.
func (a *ArtifactPackAnswers) precheck() FieldErrors {
	var errs FieldErrors
	if e := checkLicense(a.License); e != "" {
		errs = append(errs, FieldError{Field: "license", Pointer: "/license", File: "pack.json", Message: e,
			Hint: "use an SPDX identifier such as Apache-2.0 or MIT, or PROPRIETARY"})
	}
	if a.Kind != KindArtifactType {
		fe := fieldErrorf("kind", "these answers make an %s pack, not %q", KindArtifactType, a.Kind)
		fe.Hint = "use the answers of the other kind"
		errs = append(errs, fe)
	}
	if u, err := url.Parse(a.HostBase); err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") {
		fe := fieldErrorf("hostBase", "host base %q is not an https origin", a.HostBase)
		fe.Hint = "give the publishing host's origin, e.g. " + DefaultHostBase + " (schema $ids are minted under it)"
		errs = append(errs, fe)
	}
	for i, t := range a.Types {
		f := "artifactTypes." + itoa(i)
		seen := map[string]bool{}
		for _, p := range t.Properties {
			switch {
			case strings.TrimSpace(p) == "":
				errs = append(errs, fieldErrorf(f+".properties", "a property name is empty"))
			case seen[p]:
				errs = append(errs, fieldErrorf(f+".properties", "property %q is listed twice", p))
			}
			seen[p] = true
		}
		for _, r := range t.Required {
			if !seen[r] {
				fe := fieldErrorf(f+".required", "required property %q is not one of the properties", r)
				fe.Hint = "add it to properties, or remove it from required"
				errs = append(errs, fe)
			}
		}
	}
	return errs
}

// doc builds a type's pack.json entry.
func (t ArtifactTypeAnswers) doc(pack string) artifactTypeDoc {
	id := qualify(pack, t.ID)
	name := t.DisplayName
	if name == "" {
		name = Title(suffix(id))
	}
	d := artifactTypeDoc{ArtifactTypeID: id, SchemaRef: artifactSchemaPath(id), Validation: t.Validation,
		DisplayName: name, ExportFormats: t.ExportFormats, SyncOn: t.SyncOn, Versionable: t.Versionable, Diffable: t.Diffable}
	if t.SchemaVersion >= 0 {
		sv := t.SchemaVersion
		d.SchemaVersion = &sv
	}
	if t.Display != "" {
		d.Rendering = &renderingDoc{Display: t.Display}
	}
	return d
}

// schema builds the JSON Schema of a type's artifacts.
func (t ArtifactTypeAnswers) schema(pack, hostBase string) artifactSchemaDoc {
	id := qualify(pack, t.ID)
	name := t.DisplayName
	if name == "" {
		name = Title(suffix(id))
	}
	s := artifactSchemaDoc{Schema: draft, ID: strings.TrimSuffix(hostBase, "/") + "/schemas/artifacts/" + id + ".schema.json",
		Title: name, Description: "An artifact of type " + id + ".", Type: "object", Required: t.Required, Properties: obj{}}
	seen := map[string]bool{}
	for _, p := range t.Properties {
		if !seen[p] { // a repeat is refused by precheck
			seen[p] = true
			s.Properties = append(s.Properties, member{p, propSchema{Type: "string", Description: "The " + p + " of the " + strings.ToLower(name) + "."}})
		}
	}
	if t.Validation == "closed" {
		f := false
		s.AdditionalProperties = &f
	}
	return s
}

// artifactFieldOf maps a pointer in the generated pack.json to the answer
// it comes from ("/artifactTypes/0/rendering/display" is "artifactTypes.0.display").
func artifactFieldOf(pointer string) string {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) == 0 {
		return ""
	}
	if toks[0] != "artifactTypes" || len(toks) < 3 {
		if toks[0] == "engines" || toks[0] == "keywords" {
			return toks[0]
		}
		return strings.Join(toks, ".")
	}
	pre := "artifactTypes." + toks[1]
	switch toks[2] {
	case "artifactTypeId", "schemaRef":
		return pre + ".id"
	case "rendering":
		return pre + ".display"
	}
	return pre + "." + toks[2]
}

// artifactView is what templates/pack/artifact-README.md.tmpl sees.
type artifactView struct {
	Name, Version, Kind, Description, License, Engines, Holder string
	Types                                                      []artifactTypeDoc
	Ignore                                                     []string
	SignMethod, PublishSpec                                    string
}

func (a *ArtifactPackAnswers) view() artifactView {
	holder := a.Author
	if holder == "" {
		holder = "the authors of " + a.Name
	}
	vw := artifactView{Name: a.Name, Version: a.Version, Kind: a.Kind, Description: a.Description, License: a.License,
		Engines: a.Engines, Holder: holder, SignMethod: "v2"}
	if a.Spec == SpecV1 {
		vw.SignMethod, vw.PublishSpec = "manual", " --spec v1"
	}
	for _, t := range a.Types {
		vw.Types = append(vw.Types, t.doc(a.Name))
	}
	return vw
}

// The pack.json of an artifact-type pack, as ordered Go values (the
// registry's artifact-types pack's key order).

type artifactPackDoc struct {
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Kind        string            `json:"kind"`
	Description string            `json:"description,omitempty"`
	Author      string            `json:"author,omitempty"`
	License     string            `json:"license,omitempty"`
	Homepage    string            `json:"homepage,omitempty"`
	Repository  string            `json:"repository,omitempty"`
	Keywords    []string          `json:"keywords,omitempty"`
	Engines     map[string]string `json:"engines"`
	Types       []artifactTypeDoc `json:"artifactTypes"`
}

type artifactTypeDoc struct {
	ArtifactTypeID string        `json:"artifactTypeId"`
	SchemaRef      string        `json:"schemaRef"`
	SchemaVersion  *int          `json:"schemaVersion,omitempty"`
	Validation     string        `json:"validation,omitempty"`
	DisplayName    string        `json:"displayName,omitempty"`
	Rendering      *renderingDoc `json:"rendering,omitempty"`
	ExportFormats  []string      `json:"exportFormats,omitempty"`
	SyncOn         string        `json:"syncOn,omitempty"`
	Versionable    bool          `json:"versionable,omitempty"`
	Diffable       bool          `json:"diffable,omitempty"`
}

type renderingDoc struct {
	Display string `json:"display,omitempty"`
}

type artifactSchemaDoc struct {
	Schema               string   `json:"$schema"`
	ID                   string   `json:"$id"`
	Title                string   `json:"title"`
	Description          string   `json:"description"`
	Type                 string   `json:"type"`
	Required             []string `json:"required,omitempty"`
	Properties           obj      `json:"properties"`
	AdditionalProperties *bool    `json:"additionalProperties,omitempty"`
}
