package ask

import (
	"strings"
	"testing"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/guard"
	"github.com/openwop/wopkit/internal/kinds"
)

// TestFieldLabelsNoted: each way the wizard builds a field notes its label
// under the key of the answer it asks.
func TestFieldLabelsNoted(t *testing.T) {
	k := Asker{V: testValidator, Live: map[huh.Field]func(string) error{}, Suggest: map[huh.Field]Shown{}, Labels: FieldLabels{}}
	var s, long string
	var tags []string
	var sel string
	var yes bool
	k.Text("in", "Input title", Str{P: &s}, "", "")
	k.Long("txt", "Text title", "", Str{P: &long}, kinds.NodePack, "")
	k.Multi("pk", "Pick title", "", Fixed(nil), &tags, "nothing")
	k.Choose(Choice{Key: "sel", Title: "Select title", Opts: huh.NewOptions("a", "b"), Acc: huh.NewPointerAccessor(&sel)})
	k.Yes("yes", "Confirm title", huh.NewPointerAccessor(&yes))
	want := map[string]string{"in": "Input title", "txt": "Text title", "pk": "Pick title", "sel": "Select title", "yes": "Confirm title"}
	for key, title := range want {
		if k.Labels[key] != title {
			t.Errorf("%s: %q, want %q (all: %v)", key, k.Labels[key], title, k.Labels)
		}
	}
	if len(k.Labels) != len(want) {
		t.Errorf("labels %v, want %v", k.Labels, want)
	}
}

// labelledBuilders are the only functions that make the wizard's fields
// with huh: each notes the field's label (see FieldLabels). The test reads
// the wizard's folder, this package's included.
var labelledBuilders = map[string]bool{"ask/fields.go:Asker.Text": true, "ask/fields.go:Asker.Long": true,
	"ask/plain_choice.go:Asker.Choose": true, "ask/plain_choice.go:Asker.Yes": true}

// TestFieldsAreBuiltLabelled: no field is made but through a builder that
// notes its label, so that the review can name every answer without
// reading huh's internals. It fails on a page that calls huh.NewSelect
// (or NewInput, NewConfirm, NewText, NewMultiSelect, …) itself.
func TestFieldsAreBuiltLabelled(t *testing.T) {
	found := guard.Find(t, "..", nil, map[string][]string{
		"charm.land/huh/v2": {"NewInput", "NewSelect", "NewConfirm", "NewText", "NewMultiSelect", "NewFilePicker", "NewNote"}})
	for where, uses := range found {
		if !labelledBuilders[where] {
			t.Errorf("%s makes a field with huh (%s): use a builder that notes its label (Asker.Choose, Asker.Yes, Asker.Text, …)",
				where, strings.Join(uses, "; "))
		}
	}
	if len(found) < len(labelledBuilders) {
		t.Fatalf("fields made in %v only: the test no longer sees them", found)
	}
}
