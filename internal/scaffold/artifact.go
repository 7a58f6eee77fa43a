package scaffold

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

func init() {
	k := declKind(KindArtifactType, 70, "An artifact-type pack (artifact types with their schemas, no code)",
		"pack/artifact-README.md.tmpl", ArtifactPackAnswers{}.Defaults, func(a *ArtifactPackAnswers) *Identity { return &a.Identity }, PlanArtifactPack)
	k.Aliases = map[string]string{"type.": "artifactTypes.0."}
	k.Pointers = artifactPointers
	registerKind(k)
}

// KindArtifactType is the pack.json "kind" of an artifact-type pack.
const KindArtifactType = kinds.ArtifactTypeName

// DefaultHostBase is the origin under which an artifact type's schema $id
// is minted when the pack is published through the public registry (its
// discovery document's url).
const DefaultHostBase = "https://packs.openwop.dev"

// ArtifactPackAnswers describe a new artifact-type pack: a declarative pack
// (no runtime) declaring artifact types, each with the JSON Schema of its
// artifacts in schemas/ (RFC 0071, RFC 0075).
type ArtifactPackAnswers struct {
	Identity
	// HostBase is the publishing host's origin: each schema's $id is
	// {HostBase}/schemas/artifacts/{artifactTypeId}.schema.json.
	HostBase string                `json:"hostBase" doc:"-"`
	Types    []ArtifactTypeAnswers `json:"artifactTypes"` // at least one
}

// ArtifactTypeAnswers describe one artifact type and its schema.
type ArtifactTypeAnswers struct {
	// ID is the artifactTypeId, or, without a dot, a suffix appended to the pack name.
	ID            string   `json:"id" doc:"artifactTypeId schemaRef,derived"`
	DisplayName   string   `json:"displayName"`                     // default: the id's last part, title-cased
	SchemaVersion int      `json:"schemaVersion"`                   // negative omits it
	Validation    string   `json:"validation"`                      // ArtifactValidations(): open (extra fields tolerated) or closed
	SyncOn        string   `json:"syncOn"`                          // ArtifactSyncOn() ("" omits: completion)
	Display       string   `json:"display" doc:"rendering/display"` // rendering.display, ArtifactDisplays() ("" omits)
	ExportFormats []string `json:"exportFormats"`
	Versionable   bool     `json:"versionable"`
	Diffable      bool     `json:"diffable"`
	Properties    []string `json:"properties" doc:"-"` // the artifact's string properties (its schema)
	Required      []string `json:"required" doc:"-"`   // those of Properties an artifact must have
}

// Defaults returns the answers of a new artifact-type pack: one report type.
func (ArtifactPackAnswers) Defaults() ArtifactPackAnswers {
	return ArtifactPackAnswers{Identity: newIdentity(KindArtifactType), HostBase: DefaultHostBase,
		Types: []ArtifactTypeAnswers{ArtifactTypeAnswers{}.Defaults()}}
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

// ArtifactValidations lists the strictness contracts (the schema's enum).
func ArtifactValidations() []string { return artifactValidations() }

// ArtifactSyncOn lists when a host registers an artifact (the schema's enum).
func ArtifactSyncOn() []string { return artifactSyncOn() }

// ArtifactDisplays lists the rendering hints (the schema's enum).
func ArtifactDisplays() []string { return artifactDisplays() }

var (
	artifactValidations = schemaEnum(kinds.ArtifactTypePack, "/artifactTypes/0/validation")
	artifactSyncOn      = schemaEnum(kinds.ArtifactTypePack, "/artifactTypes/0/syncOn")
	artifactDisplays    = schemaEnum(kinds.ArtifactTypePack, "/artifactTypes/0/rendering/display")
)

// Normalize fills the spec's engines range and the kind.
func (a *ArtifactPackAnswers) Normalize() error { return a.normalize(KindArtifactType) }

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
	doc := artifactPackDoc{packHead: a.head(nil), Types: []artifactTypeDoc{}}
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
		schemas.own(path, "artifactTypes."+strconv.Itoa(i)+".properties")
	}
	return planDeclarative(&a.Identity, v, declarative{kind: KindArtifactType, hint: "use the answers of the other kind",
		doc: doc, view: a.view(), extra: &schemas, errs: a.precheck(), fieldOf: artifactPointers.Field})
}

// precheck refuses what the schema cannot see in the answers.
func (a *ArtifactPackAnswers) precheck() FieldErrors {
	var errs FieldErrors
	if u, err := url.Parse(a.HostBase); err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") {
		fe := fieldErrorf("hostBase", "host base %q is not an https origin", a.HostBase)
		fe.Hint = "give the publishing host's origin, e.g. " + DefaultHostBase + " (schema $ids are minted under it)"
		errs = append(errs, fe)
	}
	for i, t := range a.Types {
		f := "artifactTypes." + strconv.Itoa(i)
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

// artifactPointers maps the answers to pack.json and back.
var artifactPointers = pointerMap(ArtifactPackAnswers{})

// artifactView is what templates/pack/artifact-README.md.tmpl sees.
type artifactView struct {
	declView
	Types []artifactTypeDoc
}

func (a *ArtifactPackAnswers) view() artifactView {
	vw := artifactView{declView: a.Identity.view()}
	for _, t := range a.Types {
		vw.Types = append(vw.Types, t.doc(a.Name))
	}
	return vw
}

// The pack.json of an artifact-type pack, as ordered Go values (the
// registry's artifact-types pack's key order).

type artifactPackDoc struct {
	packHead
	Types []artifactTypeDoc `json:"artifactTypes"`
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

// ArtifactFieldPointer returns the JSON pointer in pack.json of an
// artifact-type pack answer field ("artifactTypes.0.display" is
// "/artifactTypes/0/rendering/display"), for checking a value as it is
// typed (CheckField with kinds.ArtifactTypePack); "" for answers that
// are not one value of pack.json as typed (an id without a dot is appended
// to the pack name; properties and required go to the type's schema file;
// the host base to the schema's $id).
func ArtifactFieldPointer(field string) string { return artifactPointers.Pointer(field) }
