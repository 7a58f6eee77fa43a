package wizard

import (
	"strings"
	"testing"
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
