package wizard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
	"github.com/openwop/wopkit/internal/userstate"
	"github.com/openwop/wopkit/internal/werr"
)

// plantStateDraft writes b as the draft wopkit keeps for the folder dir, as
// an earlier run would have.
func plantStateDraft(t *testing.T, dir string, b []byte) {
	t.Helper()
	path := drafts.File(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A draft is wopkit's own state (issue 24; issue 25, item 11): kept in the
// state folder, private to the user, keyed by the folder's real path; none
// is written to the working folder, and a draft file planted there (a
// stranger's unpacked download) is never offered.
func TestDraftIsKeptInTheStateFolderNotTheTree(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Name = "community.acme.kept"
	if err := saveDraft(dir, a); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("the draft wrote into the working folder: %v", ents)
	}
	state, _ := userstate.Dir()
	path := drafts.File(dir)
	if !strings.HasPrefix(path, filepath.Join(state, drafts.Folder)+string(filepath.Separator)) {
		t.Fatalf("the draft is at %s, not in wopkit's state folder %s", path, state)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the draft %s is not 0600: %v %v", path, fi, err)
	}
	if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
		t.Fatalf("the drafts' folder is %v, not 0700", di.Mode().Perm())
	}
	// the same folder by another path (a link to it) is the same draft
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if b, ok := loadDraft(link); !ok || b.Pack.Name != "community.acme.kept" {
		t.Fatalf("the draft is not found through a link to its folder (%v)", ok)
	}
	// another folder has none
	if _, ok := loadDraft(t.TempDir()); ok {
		t.Fatal("another folder's draft was offered")
	}
	drafts.Remove(dir)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("removeDraft left %s: %v", path, err)
	}
}

func TestDraftPlantedInTheTreeIsNotOffered(t *testing.T) {
	dir := t.TempDir()
	planted := `{"what":"nodes","pack":{"name":"community.evil.planted","version":"1.0.0"},"signMethod":"v2","keyChoice":"existing","keyPath":"/etc/shadow"}`
	for _, name := range []string{".wopkit-new-draft.json", "draft.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(planted), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if a, ok := loadDraft(dir); ok {
		t.Fatalf("a draft file in the working tree was offered: %+v", a.Pack)
	}
	// the full-screen wizard starts on its first page, not on a draft offer
	opts := Options{DraftDir: dir}
	if s, ok := firstScreen(common.New(true), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts}).(*draftOffer); ok {
		t.Fatalf("the planted draft is offered: %+v", s.draft.Pack)
	}
	// one this user's wopkit kept is
	a := newAnswers()
	a.Pack.Name = "community.acme.mine"
	if err := saveDraft(dir, a); err != nil {
		t.Fatal(err)
	}
	s, ok := firstScreen(common.New(true), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts}).(*draftOffer)
	if !ok || s.draft.Pack.Name != "community.acme.mine" {
		t.Fatalf("the kept draft is not offered (%v)", ok)
	}
}

// A state folder that cannot be written: keeping a draft says so (where it
// tried, and what to do) and the run ends with an I/O failure (exit 3), not
// silently without the answers.
func TestDraftStateFolderUnwritableIsSaid(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(userstate.Env, blocker)
	out := &outcome{}
	d, _ := wizardIn(t, newAnswers(), session{Options: Options{Dir: filepath.Join(dir, "out"), DraftDir: dir}, out: out})
	d.Keys("enter", "enter", "type:acme", "esc")
	if !strings.Contains(d.View(), "Keep a draft") {
		t.Fatalf("esc does not offer a draft:\n%s", d.View())
	}
	d.Keys("y")
	if !d.Quit {
		t.Fatal("y did not quit")
	}
	if out.err == nil {
		t.Fatalf("no failure reported; notes %q", out.notes)
	}
	msg := out.err.Error()
	for _, want := range []string{"cannot keep a draft of your answers", filepath.Join(blocker, "wopkit"), userstate.Env} {
		if !strings.Contains(msg, want) {
			t.Errorf("the failure does not say %q: %s", want, msg)
		}
	}
	if code := werr.ExitCode(out.err); code != 3 {
		t.Errorf("exit code %d, want 3 (an I/O failure)", code)
	}
	if len(out.notes) == 0 || !strings.Contains(strings.Join(out.notes, "\n"), "not kept") {
		t.Errorf("the notes do not say the answers were not kept: %q", out.notes)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the draft went to the working folder instead: %v", ents)
	}
}
