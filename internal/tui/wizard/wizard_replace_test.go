package wizard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sign"
)

// Issue 25, item 13: a folder that already holds a pack can be replaced
// from the review (r, then an explicit yes), through the create workflow's
// --force path: a failure while writing puts the old folder back as it
// was; without a failure the new pack is there.
func TestWizardReplacesAPackFolderAndRestoresItOnFailure(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	old := map[string]string{"pack.json": `{"old": true}`, "README.md": "the old readme\n"}
	os.MkdirAll("twice", 0o755)
	for f, b := range old {
		os.WriteFile(filepath.Join("twice", f), []byte(b), 0o644)
	}
	os.WriteFile("blocker", []byte("x"), 0o644) // the tarball's folder is a file: packing fails after the files are written
	answers := func() *answers {
		a := newAnswers()
		a.Pack.Name, a.SignMethod = "community.acme.twice", sign.MethodNone
		return a
	}
	d, w := wizardOn(t, answers(), Options{DraftDir: dir, Output: filepath.Join("blocker", "out.tgz")})
	toPage(d, w, "review")
	if !strings.Contains(strings.Join(strings.Fields(d.View()), " "), "r replaces the pack in twice") {
		t.Fatalf("the review does not offer to replace the pack: %+v\n%s", w.rev.Problems, d.View())
	}
	d.Keys("r")
	if !strings.Contains(d.View(), "Replace the pack in twice") {
		t.Fatalf("r does not ask to replace:\n%s", d.View())
	}
	d.Keys("n")
	if w.opts.Force || w.rev.Plan != nil {
		t.Fatal("n replaced anyway")
	}
	d.Keys("r", "y")
	if !w.opts.Force || w.rev.Plan == nil {
		t.Fatalf("after yes: force %v, problems %+v\n%s", w.opts.Force, w.rev.Problems, d.View())
	}
	d.Keys("enter")
	if w.finished || w.out.err == nil {
		t.Fatalf("packing into a file did not fail: finished %v\n%s", w.finished, d.View())
	}
	for f, want := range old {
		if b, err := os.ReadFile(filepath.Join("twice", f)); err != nil || string(b) != want {
			t.Errorf("twice/%s after the failure: %q %v, want the old %q", f, b, err, want)
		}
	}
	if ents, _ := os.ReadDir("twice"); len(ents) != len(old) {
		t.Errorf("the failed run left files in twice: %v", ents)
	}

	os.Remove("blocker")
	d, w = wizardOn(t, answers(), Options{DraftDir: dir})
	toPage(d, w, "review")
	d.Keys("r", "y", "enter")
	if !w.finished || w.err != "" {
		t.Fatalf("the replacing run: %q\n%s", w.err, d.View())
	}
	if b, _ := os.ReadFile(filepath.Join("twice", "pack.json")); strings.Contains(string(b), `"old"`) {
		t.Errorf("pack.json was not replaced: %s", b)
	}
}
