package wizard

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
)

// downURL is the address of a server that was closed: nothing listens
// there, as with no network (the CLI's sigstore tests do the same).
func downURL(t *testing.T) string {
	s := httptest.NewServer(nil)
	s.Close()
	return s.URL
}

// TestSignOfflineKeyless (issue 17, item 7): keyless signing with Fulcio
// out of reach fails after the review; the failure is about the sign page's
// signing method (not the pack's name), says to retry or choose another
// method, and "fix it" opens the sign page on that question. Quitting and
// answering n to "Keep a draft?" leaves no draft; y keeps one.
func TestSignOfflineKeyless(t *testing.T) {
	v := sigstoretest.New(t)
	t.Setenv(sigstore.TokenEnv, v.Token(keylessSigner, time.Hour))
	t.Setenv(sigstore.FulcioEnv, downURL(t))
	t.Setenv(sigstore.RekorEnv, v.RekorURL)
	for _, keep := range []string{"n", "y"} {
		t.Run("keep "+keep, func(t *testing.T) {
			dir := t.TempDir()
			d, w := signPage(t, dir)
			d.Keys("down", "down", "down", "enter") // keyless
			if w.at.pg.id != "review" || w.rev.Plan == nil {
				t.Fatalf("page %v, problems %v", w.at.pg.id, w.rev.Problems)
			}
			d.Keys("enter") // write, pack and sign: Fulcio is out of reach
			if w.finished || len(w.rev.Problems) != 1 {
				t.Fatalf("finished %v, problems %v\n%s", w.finished, w.rev.Problems, d.View())
			}
			p := w.rev.Problems[0]
			view := d.View()
			if p.Field != "signMethod" || strings.Contains(view, "name: could not finish") {
				t.Errorf("the failure is about %q:\n%s", p.Field, view)
			}
			for _, want := range []string{"Fulcio", "choose another way to sign"} {
				if !strings.Contains(p.Message+" "+p.Hint, want) {
					t.Errorf("the failure does not say %q: %s / %s", want, p.Message, p.Hint)
				}
			}
			if _, err := os.Stat(drafts.File(dir)); err != nil {
				t.Errorf("no draft kept after the failure: %v", err)
			}
			d.Keys("enter") // fix it
			if w.at.pg.id != "sign" || w.form.GetFocusedField().GetKey() != "signMethod" {
				t.Fatalf("fix it opened %s at %s", w.at.pg.id, w.form.GetFocusedField().GetKey())
			}
			d.Keys("enter") // keyless again: a retry
			if w.at.pg.id != "review" || w.rev.Plan == nil {
				t.Fatalf("after the retry's choice: page %v, problems %v", w.at.pg.id, w.rev.Problems)
			}
			d.Keys("enter")
			if len(w.rev.Problems) != 1 || w.rev.Problems[0].Field != "signMethod" {
				t.Fatalf("the retry: %v", w.rev.Problems)
			}
			d.Keys("q")
			if !strings.Contains(d.View(), "Keep a draft") {
				t.Fatalf("q did not ask about a draft:\n%s", d.View())
			}
			d.Keys(keep)
			_, err := os.Stat(drafts.File(dir))
			if kept := err == nil; kept != (keep == "y") {
				t.Errorf("answered %s to Keep a draft: the draft kept %v", keep, kept)
			}
			if _, err := os.Stat(filepath.Join(dir, "pack")); err == nil {
				t.Error("the failed run left the pack's folder")
			}
		})
	}
}

// TestSignOfflineLeaveFromPage: after a failure, "fix it" and then esc on
// the sign page with n leaves no draft either.
func TestSignOfflineLeaveFromPage(t *testing.T) {
	v := sigstoretest.New(t)
	t.Setenv(sigstore.TokenEnv, v.Token(keylessSigner, time.Hour))
	t.Setenv(sigstore.FulcioEnv, downURL(t))
	t.Setenv(sigstore.RekorEnv, v.RekorURL)
	dir := t.TempDir()
	d, w := signPage(t, dir)
	d.Keys("down", "down", "down", "enter", "enter", "enter") // keyless, write: fails, fix it
	if w.at.pg.id != "sign" {
		t.Fatalf("fix it opened %s", w.at.pg.id)
	}
	d.Keys("esc")
	if !strings.Contains(d.View(), "Keep a draft") {
		t.Fatalf("esc did not ask about a draft:\n%s", d.View())
	}
	d.Keys("n")
	if _, err := os.Stat(drafts.File(dir)); err == nil {
		t.Error("n to Keep a draft left the draft")
	}
}

// TestSignUnverifiedEmailToken: a token whose email is not verified
// (no email_verified claim) is the token's problem, on the sign page and
// on the review, with what to do; never the network's.
func TestSignUnverifiedEmailToken(t *testing.T) {
	tok := unverifiedToken(t)
	t.Setenv(sigstore.TokenEnv, tok)
	t.Setenv(sigstore.FulcioEnv, downURL(t))
	t.Setenv(sigstore.RekorEnv, downURL(t))
	d, w := signPage(t, t.TempDir())
	if !strings.Contains(d.View(), "Sigstore keyless: unavailable, the token is refused; choose it for why") {
		t.Errorf("the sign page does not say why keyless is unavailable:\n%s", d.View())
	}
	d.Keys("down", "down", "down", "enter")
	view := d.View()
	if w.at.pg.id != "sign" || !strings.Contains(view, "email_verified") || strings.Contains(view, "network") {
		t.Errorf("choosing keyless with an unverified email: page %v\n%s", w.at.pg.id, view)
	}
	if strings.Contains(view, tok) {
		t.Error("the token is shown")
	}
}

// unverifiedToken is a well-formed identity token whose email claim has no
// email_verified beside it.
func unverifiedToken(t *testing.T) string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return sigstoretest.SignJWT(t, key, map[string]any{"iss": sigstoretest.Issuer, "sub": "u-1", "aud": "sigstore",
		"email": keylessSigner, "exp": time.Now().Add(time.Hour).Unix()})
}
