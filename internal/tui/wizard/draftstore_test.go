package wizard

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
	"github.com/openwop/wopkit/internal/werr"
)

// Issue 44, item 1: a draft kept by the wizard is offered from the folder
// the message names (where wopkit new was run) and from the folder the
// files were going to (wopkit run from its source tree writes under
// ~/openwop-packs); --list-drafts lists it once, with its pack name and
// age; --resume finds it by its id or pack name, from any folder; a run
// that resumed it and keeps a draft replaces it.
func TestDraftOfferedWhereTheMessageSaysAndWhereTheFilesGo(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // this test's drafts only
	started, base := t.TempDir(), t.TempDir()
	t.Chdir(base) // as leaveSourceTree moves to ~/openwop-packs
	a := newAnswers()
	a.What = whatNodes
	a.Pack.Name = "community.acme.resumable"
	d, w := wizardIn(t, a, session{Options: Options{DraftDir: started}})
	d.Keys("esc")
	if c, ok := d.App.Top().(*tui.Confirm); !ok || c == nil {
		t.Fatalf("esc does not offer a draft:\n%s", d.View())
	}
	d.Keys("y")
	note := strings.Join(w.out.notes, "\n")
	if !strings.Contains(note, "run `wopkit new` in this folder (or where the files go)") || !strings.Contains(note, "new --resume") {
		t.Errorf("the note does not say where and how to resume: %s", note)
	}
	for _, dir := range []string{started, base, filepath.Join(base, "resumable")} {
		if got, ok := loadDraft(dir); !ok || got.Pack.Name != a.Pack.Name {
			t.Errorf("the draft is not offered from %s", dir)
		}
	}
	ds, err := Drafts()
	if err != nil || len(ds) != 1 || ds[0].Name != a.Pack.Name {
		t.Fatalf("Drafts lists %+v (%v), want the one draft once", ds, err)
	}
	var out bytes.Buffer
	if err := ListDrafts(&out, ds[0].Kept.Add(90*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if line := out.String(); !strings.Contains(line, ds[0].ID+"  community.acme.resumable  kept 1 hour ago") {
		t.Errorf("--list-drafts:\n%s", line)
	}
	for _, name := range []string{a.Pack.Name, ds[0].ID[:6], ResumeNewest} {
		got, ids, err := findDraft(name)
		if err != nil || got.Pack.Name != a.Pack.Name || len(ids) != 3 {
			t.Errorf("--resume %s: %v, %d copies (%v)", name, got != nil, len(ids), err)
		}
	}
	if _, _, err := findDraft("community.acme.other"); werr.CodeOf(err) != "draft_not_found" {
		t.Errorf("--resume of no draft: %v", err)
	}
	// resumed by name elsewhere and kept again: one draft, the new one
	elsewhere := t.TempDir()
	got, ids, _ := findDraft(a.Pack.Name)
	got.Pack.Description = "changed on resuming"
	o := session{Options: Options{DraftDir: elsewhere, Resume: a.Pack.Name}, resumed: ids}
	if err := o.keepDrafts(got); err != nil {
		t.Fatal(err)
	}
	if ds, _ := Drafts(); len(ds) != 1 || !bytes.Contains(ds[0].Data, []byte("changed on resuming")) {
		t.Errorf("after keeping the resumed draft: %d drafts", len(ds))
	}
	if _, ok := drafts.Load(started); ok {
		t.Error("the resumed draft's old copy is still offered")
	}
}
