package wizard

import (
	"testing"

	"github.com/openwop/wopkit/internal/sign"
)

// Issue 25, item 2, for every kind of signing choice the machine offers
// (a key the ssh-agent holds, an existing key file, a Sigstore bundle with
// a new ECDSA pair): the choice is the same after the review's "fix it"
// leads to another page and back, and after a kept draft is resumed and
// walked to the review again.
func TestSigningChoicesSurviveFixItAndDraft(t *testing.T) {
	_, ref := serveTestAgent(t)
	dir := t.TempDir()
	t.Chdir(dir)
	key, _ := sign.GenerateKey(sign.Ed25519)
	if _, _, err := sign.WriteKeyPair("acme-prod", key, nil, false); err != nil {
		t.Fatal(err)
	}
	type choice struct{ method, choice, path, id string }
	for name, want := range map[string]choice{
		"ssh-agent": {sign.MethodV2, ref, ref, "acme-1"},
		"key file":  {sign.MethodV2, "existing", "acme-prod.key", "acme-prod"},
		"sigstore":  {sign.MethodSigstore, "new", "sig-new", "sig-1"},
	} {
		t.Run(name, func(t *testing.T) {
			a := newAnswers()
			a.Pack.Name = "community.acme.weather"
			a.Pack.Version = "1.0" // a problem for the review to lead to
			a.SignMethod, a.KeyChoice, a.KeyPath, a.KeyID = want.method, want.choice, want.path, want.id
			got := func(a *answers) choice { return choice{a.SignMethod, a.KeyChoice, a.KeyPath, a.KeyID} }
			drafts := t.TempDir()
			d, w := wizardOn(t, a, Options{DraftDir: drafts})
			toPage(d, w, "sign")
			enterUntil(t, d, w, "review")
			if got(a) != want {
				t.Fatalf("walked to the review: %+v, want %+v", got(a), want)
			}
			d.Keys("enter") // fix it: the version
			if w.at.pg.id != pageIdentity {
				t.Fatalf("fix it went to %s: %+v", w.at.pg.id, w.rev.Problems)
			}
			d.Keys("backspace", "backspace", "backspace", "type:1.0.0")
			enterUntil(t, d, w, "review")
			if got(a) != want {
				t.Fatalf("after fix it: %+v, want %+v", got(a), want)
			}
			if err := saveDraft(drafts, a); err != nil {
				t.Fatal(err)
			}
			b, ok := loadDraft(drafts)
			if !ok {
				t.Fatal("the draft does not load")
			}
			d, w = wizardOn(t, b, Options{DraftDir: drafts})
			toPage(d, w, "sign")
			enterUntil(t, d, w, "review")
			if got(b) != want {
				t.Fatalf("after a draft resumed: %+v, want %+v", got(b), want)
			}
			if w.rev.Plan == nil {
				t.Errorf("the resumed answers have problems: %+v", w.rev.Problems)
			}
		})
	}
}
