package wizard

import (
	"strings"
	"testing"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/guard"
	"github.com/openwop/wopkit/internal/validate"
)

// TestFieldLabelsNoted: each way the wizard builds a field notes its label
// under the key of the answer it asks.
func TestFieldLabelsNoted(t *testing.T) {
	k := asker{v: testValidator, live: map[huh.Field]func(string) error{}, suggest: map[huh.Field]shown{}, labels: fieldLabels{}}
	var s, long string
	var tags []string
	var sel string
	var yes bool
	k.text("in", "Input title", str{p: &s}, "", "")
	k.long("txt", "Text title", "", str{p: &long}, validate.NodePack, "")
	k.multi("pk", "Pick title", "", fixed(nil), &tags, "nothing")
	k.choose(choice{key: "sel", title: "Select title", opts: huh.NewOptions("a", "b"), acc: huh.NewPointerAccessor(&sel)})
	k.yes("yes", "Confirm title", huh.NewPointerAccessor(&yes))
	want := map[string]string{"in": "Input title", "txt": "Text title", "pk": "Pick title", "sel": "Select title", "yes": "Confirm title"}
	for key, title := range want {
		if k.labels[key] != title {
			t.Errorf("%s: %q, want %q (all: %v)", key, k.labels[key], title, k.labels)
		}
	}
	if len(k.labels) != len(want) {
		t.Errorf("labels %v, want %v", k.labels, want)
	}
}

// labelledBuilders are the only functions that make the wizard's fields
// with huh: each notes the field's label (see fieldLabels).
var labelledBuilders = map[string]bool{"fields.go:asker.text": true, "fields.go:asker.long": true,
	"accessible_choice.go:asker.choose": true, "accessible_choice.go:asker.yes": true}

// TestFieldsAreBuiltLabelled: no field is made but through a builder that
// notes its label, so that the review can name every answer without
// reading huh's internals. It fails on a page that calls huh.NewSelect
// (or NewInput, NewConfirm, NewText, NewMultiSelect, …) itself.
func TestFieldsAreBuiltLabelled(t *testing.T) {
	found := guard.Find(t, ".", []string{"common", "keymap", "styles", "widgets"}, map[string][]string{
		"charm.land/huh/v2": {"NewInput", "NewSelect", "NewConfirm", "NewText", "NewMultiSelect", "NewFilePicker", "NewNote"}})
	for where, uses := range found {
		if !labelledBuilders[where] {
			t.Errorf("%s makes a field with huh (%s): use a builder that notes its label (asker.choose, asker.yes, asker.text, …)",
				where, strings.Join(uses, "; "))
		}
	}
	if len(found) < len(labelledBuilders) {
		t.Fatalf("fields made in %v only: the test no longer sees them", found)
	}
}
