package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"fmt"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// An artifact-type pack: the pack's identity (the identity page), the host
// its schema ids are minted under, then a page per artifact type, then the
// list of types. The scaffold's ArtifactPackAnswers hold the types; the
// identity answers are the pack's.

func init() {
	askKind(scaffold.KindArtifactType, "artifact")
	isArtifact := func(a *answers, _ pos) bool { return a.What == scaffold.KindArtifactType }
	registerList("artifactTypes", func(a *answers) int {
		if a.What != scaffold.KindArtifactType {
			return 0
		}
		return len(a.artifactPack().Types)
	})
	register(&page{id: "hostbase", title: "schema host", order: declOrder, doc: docPack, when: isArtifact,
		owns: paths("hostBase"), groups: hostBaseGroups})
	register(&page{id: "artifact", title: "artifact type", order: declOrder, doc: docPack, each: "artifactTypes",
		owns: paths("artifactTypes.%d"), groups: artifactGroups})
	register(&page{id: "artifacts", title: "artifact types", order: declOrder, doc: docPack, owns: paths("artifactTypes"),
		when: isArtifact, groups: listGroups,
		list: &listSpec{noun: "artifact type", plural: "artifact types", min: 1,
			count: func(a *answers, _ pos) int { return len(a.artifactPack().Types) },
			label: func(a *answers, _ pos, k int) string { return a.artifactPack().Types[k].ID },
			add: func(a *answers, _ pos) {
				t := scaffold.ArtifactTypeAnswers{}.Defaults()
				t.ID = fmt.Sprintf("artifact%d", len(a.artifactPack().Types)+1)
				a.artifactPack().Types = append(a.artifactPack().Types, t)
			},
			remove: func(a *answers, _ pos, k int) { a.artifactPack().Types = removeAt(a.artifactPack().Types, k) },
			entry:  entryOf("artifact")}})
}

// artifactPack is the answers of a artifact pack.
func (a *answers) artifactPack() *scaffold.ArtifactPackAnswers {
	return declaredOf[scaffold.ArtifactPackAnswers](a, scaffold.KindArtifactType)
}

func hostBaseGroups(w *wizard, _ pos) []*huh.Group {
	h := &w.a.artifactPack().HostBase
	return []*huh.Group{w.k.Group(
		w.k.Text("hostBase", "Schema host", ask.Str{P: h, Def: *h}, "", "").
			Description("the publishing host's origin: each type's schema $id is minted under it"),
	)}
}

func artifactGroups(w *wizard, at pos) []*huh.Group {
	k, t := w.k, &w.a.artifactPack().Types[at.i]
	key := func(f string) string { return fmt.Sprintf("artifactTypes.%d.%s", at.i, f) }
	text := ask.Pointed(k, kinds.ArtifactTypePack, scaffold.ArtifactFieldPointer)
	help := func(f string) string { return k.Help(kinds.ArtifactTypePack, scaffold.ArtifactFieldPointer(key(f))) }
	groups := []*huh.Group{
		w.k.Group(
			qualified(w, kinds.ArtifactTypePack, key("id"), "Artifact type id", ask.Str{P: &t.ID, Def: t.ID}, fmt.Sprintf("/artifactTypes/%d/artifactTypeId", at.i)).
				Description(k.Fit("appended to the pack name to form the artifactTypeId", ask.DescInset)),
			k.Derived(key("displayName"), "Display name", &t.DisplayName, kinds.ArtifactTypePack, scaffold.ArtifactFieldPointer(key("displayName"))),
			k.Choose(ask.Choice{Key: key("validation"), Title: "Validation",
				Desc: help("validation"),
				Opts: huh.NewOptions(ask.WithCurrent(scaffold.ArtifactValidations(), t.Validation)...),
				Acc:  huh.NewPointerAccessor(&t.Validation)}),
			k.Choose(ask.Choice{Key: key("display"), Title: "Display",
				Desc: help("display"),
				Opts: huh.NewOptions(ask.WithCurrent(scaffold.ArtifactDisplays(), t.Display)...),
				Acc:  huh.NewPointerAccessor(&t.Display)}),
			k.Optional(key("syncOn"), "Registered on", &t.SyncOn, kinds.ArtifactTypePack, scaffold.ArtifactFieldPointer(key("syncOn"))).
				Suggestions(scaffold.ArtifactSyncOn()).Placeholder("(optional) "+strings.Join(scaffold.ArtifactSyncOn(), ", ")),
		),
		w.k.Group(
			text(key("exportFormats"), "Export formats", ask.List{P: &t.ExportFormats, Def: t.ExportFormats}).Description(k.Fit("comma-separated (optional)", ask.DescInset)),
			k.Yes(key("versionable"), "Versionable?", huh.NewPointerAccessor(&t.Versionable)),
			k.Yes(key("diffable"), "Diffable?", huh.NewPointerAccessor(&t.Diffable)),
			text(key("properties"), "Properties", ask.List{P: &t.Properties, Def: t.Properties}).Description(k.Fit("the artifact's string properties, comma-separated", ask.DescInset)),
		),
	}
	// the choices are the properties as answered above, not as suggested
	return append(groups, w.k.Group(k.Multi(key("required"), "Required properties", "those an artifact must have",
		func() []string { return t.RequiredChoices() }, &t.Required, "no properties given")))
}
