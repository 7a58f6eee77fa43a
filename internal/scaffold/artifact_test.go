package scaffold

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// TestArtifactPackDefaults: the default artifact-type pack declares one
// type whose schema is written in schemas/ with its $id under the host
// base; the pack (with the schema file) is strictly valid.
func TestArtifactPackDefaults(t *testing.T) {
	t.Parallel()
	a := ArtifactPackAnswers{}.Defaults()
	a.Name = "vendor.acme.artifacts"
	p, err := PlanArtifactPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(p.Paths(), " "), "pack.json README.md .openwopignore LICENSE schemas/vendor.acme.artifacts.report.schema.json"; got != want {
		t.Errorf("files %q, want %q", got, want)
	}
	var sch map[string]any
	if err := json.Unmarshal(p.File("schemas/vendor.acme.artifacts.report.schema.json").Data, &sch); err != nil {
		t.Fatal(err)
	}
	if sch["$id"] != "https://packs.openwop.dev/schemas/artifacts/vendor.acme.artifacts.report.schema.json" || sch["additionalProperties"] != nil {
		t.Errorf("schema: %v", sch)
	}
	pj := p.File("pack.json").Data
	frs := orDefault(nil).PackFiles("pack.json", p.FS(nil), pj)
	// the schema file is checked with the pack: without it, schemaRef names nothing
	bare := &Plan{Files: []File{*p.File("pack.json")}}
	if missing := orDefault(nil).PackFiles("pack.json", bare.FS(nil), pj); len(missing[0].Errors) == 0 {
		t.Error("pack.json without its schema file validates")
	}
	for _, fr := range frs {
		if fr.Path == "pack.json" && (fr.Kind != kinds.ArtifactTypePack || fr.Spec != kinds.V2) || len(fr.Errors)+len(fr.Warnings) > 0 {
			t.Errorf("%s %s %s: %v %v", fr.Path, fr.Kind, fr.Spec, fr.Errors, fr.Warnings)
		}
	}
	a.Types[0].Validation = "closed"
	p, err = PlanArtifactPack(a, nil)
	if err != nil || !strings.Contains(string(p.File("schemas/vendor.acme.artifacts.report.schema.json").Data), `"additionalProperties": false`) {
		t.Errorf("a closed type's schema is not closed: %v", err)
	}
	if got := strings.Join(ArtifactValidations(), ","); got != "open,closed" {
		t.Errorf("validations %s", got)
	}
	if len(ArtifactSyncOn()) != 3 || len(ArtifactDisplays()) != 5 {
		t.Errorf("lists %v %v", ArtifactSyncOn(), ArtifactDisplays())
	}
}

// TestArtifactPackCheck: refused answers name the answer.
func TestArtifactPackCheck(t *testing.T) {
	t.Parallel()
	checkAnswerCases(t, func() ArtifactPackAnswers {
		a := ArtifactPackAnswers{}.Defaults()
		a.Name = "vendor.acme.artifacts"
		return a
	}, []answerCase[ArtifactPackAnswers]{
		{"same ids", "artifactTypes.1.id", "report", func(a *ArtifactPackAnswers) { a.Types = append(a.Types, ArtifactTypeAnswers{}.Defaults()) }},
		{"bare id", "artifactTypes.0.id", "acme.Report", func(a *ArtifactPackAnswers) { a.Types[0].ID = "acme.Report" }},
		{"bad validation", "artifactTypes.0.validation", "strict", func(a *ArtifactPackAnswers) { a.Types[0].Validation = "strict" }},
		{"bad display", "artifactTypes.0.display", "video", func(a *ArtifactPackAnswers) { a.Types[0].Display = "video" }},
		{"bad export format", "artifactTypes.0.exportFormats", "PDF", func(a *ArtifactPackAnswers) { a.Types[0].ExportFormats = []string{"PDF"} }},
		{"required not a property", "artifactTypes.0.required", "author", func(a *ArtifactPackAnswers) { a.Types[0].Required = []string{"author"} }},
		{"property twice", "artifactTypes.0.properties", "title", func(a *ArtifactPackAnswers) { a.Types[0].Properties = append(a.Types[0].Properties, "title") }},
		{"http host base", "hostBase", "http://", func(a *ArtifactPackAnswers) { a.HostBase = "http://packs.example" }},
		{"no types", "artifactTypes", "", func(a *ArtifactPackAnswers) { a.Types = nil }},
	})
}

// TestArtifactFieldPointer: answer field -> pointer -> the same field, and
// the pointer names a value of the generated pack.json.
func TestArtifactFieldPointer(t *testing.T) {
	t.Parallel()
	a := ArtifactPackAnswers{}.Defaults()
	a.Name = "vendor.acme.artifacts"
	a.Types[0].DisplayName, a.Types[0].SyncOn, a.Types[0].Diffable = "Report", ArtifactSyncOn()[0], true
	p, err := PlanArtifactPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsondoc.Parse(p.File("pack.json").Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"name", "version", "artifactTypes.0.displayName", "artifactTypes.0.schemaVersion",
		"artifactTypes.0.validation", "artifactTypes.0.syncOn", "artifactTypes.0.display", "artifactTypes.0.exportFormats",
		"artifactTypes.0.versionable", "artifactTypes.0.diffable"} {
		ptr := ArtifactFieldPointer(field)
		if ptr == "" || doc.Lookup(ptr) == nil {
			t.Errorf("%s: pointer %q names nothing in pack.json", field, ptr)
			continue
		}
		if back := artifactPointers.Field(ptr); back != field {
			t.Errorf("%s -> %s -> %s", field, ptr, back)
		}
	}
	if ArtifactFieldPointer("artifactTypes.0.id") != "" || ArtifactFieldPointer("artifactTypes.0.properties") != "" {
		t.Error("a pointer for an answer that is not one value of pack.json as typed")
	}
	if errs := CheckField(nil, kinds.ArtifactTypePack, ArtifactFieldPointer("artifactTypes.0.validation"), "loose"); len(errs) == 0 {
		t.Error("CheckField accepts validation loose")
	}
}
