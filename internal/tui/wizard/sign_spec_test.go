package wizard

import (
	"os"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
)

// The sign page's Ed25519 method follows the pack's spec: a v2 pack is not
// signed manual (the signer would refuse it after the review, with the
// files written), and choosing it says why on the page.
func TestSignMethodFollowsSpec(t *testing.T) {
	d, w := signPage(t, t.TempDir())
	if w.a.SignMethod != "v2" {
		t.Fatalf("default for a v2 pack: %q", w.a.SignMethod)
	}
	if !strings.Contains(d.View(), "manual Ed25519: not for a v2 pack") {
		t.Fatalf("manual is offered as fitting a v2 pack:\n%s", d.View())
	}
	d.Keys("down", "enter") // manual
	if w.at.pg.id != "sign" || !strings.Contains(d.View(), "manual signs a v1 pack and this pack is v2") {
		t.Fatalf("manual for a v2 pack was taken (page %v):\n%s", w.at.pg.id, d.View())
	}

	// A v1 pack: manual is the default, v2 the one refused.
	a := newAnswers()
	a.Pack.Spec = "v1"
	a.SignMethod = "v2"
	w.a = a
	signGroups(w, pos{})
	if a.SignMethod != "manual" {
		t.Fatalf("default for a v1 pack: %q", a.SignMethod)
	}
}

// "Keep a draft?" answered n leaves no draft, also when the run resumed
// one: the draft kept earlier is dropped.
func TestQuitWithoutDraftDropsTheResumedOne(t *testing.T) {
	dir := t.TempDir()
	opts := Options{DraftDir: dir}
	a := newAnswers()
	a.What = whatNodes
	path := drafts.File(dir)
	if err := saveDraft(dir, a); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: opts})
	})
	d.Keys("esc")
	if _, ok := d.App.Top().(*tui.Confirm); !ok {
		t.Fatalf("esc did not ask about a draft:\n%s", d.View())
	}
	d.Keys("n")
	if !d.Quit {
		t.Fatal("n did not quit")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the resumed draft is still there after n: %v", err)
	}
}
