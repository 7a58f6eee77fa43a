package wizard

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// TestPackNameIsOneAnswer (issue 26): the identity page asks the pack name
// in three fields, and the name is the one answer they edit: every
// keystroke is in the name at once (no copy made later), a "." typed by
// mistake and taken back gives back the name it was, and the page built
// again (going back to it) shows the name's parts as they are.
func TestPackNameIsOneAnswer(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: scaffold.KindCard, DraftDir: dir})
	if w.at.pg.id != pageIdentity {
		t.Fatalf("starts on %s", w.at.pg.id)
	}
	d.Keys("enter") // community
	d.Keys("type:acm")
	if a.Pack.Name != "community.acm.my-pack" {
		t.Fatalf("after typing the organisation's first letters the name is %q", a.Pack.Name)
	}
	d.Keys("type:.", "backspace", "type:e")
	if a.Pack.Name != "community.acme.my-pack" {
		t.Fatalf("a stray . typed and taken back left the name %q", a.Pack.Name)
	}
	d.Keys("enter", "type:notes")
	if a.Pack.Name != "community.acme.notes" {
		t.Fatalf("after the pack name part: %q", a.Pack.Name)
	}
	d.Keys("enter")
	if w.at.pg.id != pageIdentity {
		t.Fatalf("the identity page's second group is on %s", w.at.pg.id)
	}
	a.Pack.Name = "vendor.other.kept" // the answer changed elsewhere (a draft, the review's fix)
	w.form = w.build(w.at)
	d.Run(w.startForm())
	v := d.View()
	for _, want := range []string{"other", "kept"} {
		if !strings.Contains(v, want) {
			t.Errorf("the identity page built again does not show %q of the name:\n%s", want, v)
		}
	}
}
