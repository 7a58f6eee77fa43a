package wizard

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/verify"
)

const keylessSigner = "dev@acme.test"

// signPage drives a new wizard for an agent-only pack to its sign page.
func signPage(t *testing.T, dir string) (*driver, *wizard) {
	t.Helper()
	a := newAnswers()
	a.What, a.Pack.Name = whatAgent, "community.acme.keyless"
	opts := Options{Dir: filepath.Join(dir, "pack"), Output: filepath.Join(dir, "out.tgz"), DraftDir: dir}
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: opts})
	})
	w := d.App.Top().(*wizard)
	toPage(d, w, "sign")
	return d, w
}

// TestWizardSignsKeyless picks keyless Sigstore on the sign page with a
// token in SIGSTORE_ID_TOKEN and loopback Fulcio and Rekor (through
// WOPKIT_FULCIO_URL and WOPKIT_REKOR_URL): no key is asked or made, and
// verification pinned to the token's identity and issuer against the
// offline trusted root (what `verify --trusted-root --certificate-identity
// --certificate-oidc-issuer` runs) accepts the tarball; another identity
// does not. The token shows nowhere.
func TestWizardSignsKeyless(t *testing.T) {
	v := sigstoretest.New(t)
	tr := v.TrustedRoot()
	token := v.Token(keylessSigner, time.Hour)
	t.Setenv(sigstore.TokenEnv, token)
	t.Setenv(sigstore.FulcioEnv, v.FulcioURL)
	t.Setenv(sigstore.RekorEnv, v.RekorURL)
	dir := t.TempDir()
	d, w := signPage(t, dir)
	if !strings.Contains(d.View(), "Sigstore keyless (OIDC token from SIGSTORE_ID_TOKEN)") {
		t.Fatalf("keyless is not offered:\n%s", d.View())
	}
	d.Keys("down", "down", "down", "enter") // v2, manual, keyed sigstore, keyless
	if w.a.SignMethod != signKeyless {
		t.Fatalf("chose %q", w.a.SignMethod)
	}
	if w.at.pg.id != "review" || w.rev.Plan == nil {
		t.Fatalf("after choosing keyless: page %v, problems %v\n%s", w.at.pg.id, w.rev.Problems, d.View())
	}
	d.Keys("enter") // write, pack and sign
	if !w.finished || w.err != "" || len(w.done) == 0 {
		t.Fatalf("after the review: err %q, summary %q\n%s", w.err, w.done, d.View())
	}
	sum := strings.Join(w.done, "\n")
	tgz := filepath.Join(dir, "out.tgz")
	wantVerify := "wopkit verify " + tgz + " --certificate-identity " + keylessSigner + " --certificate-oidc-issuer " + sigstoretest.Issuer
	if !strings.Contains(sum, "sigstore keyless as "+keylessSigner) || !strings.Contains(sum, wantVerify) {
		t.Errorf("summary does not name the signer and the verify command:\n%s", sum)
	}
	if v.FulcioCalls.Load() == 0 || v.RekorCalls.Load() == 0 {
		t.Errorf("Fulcio called %d times, Rekor %d", v.FulcioCalls.Load(), v.RekorCalls.Load())
	}

	for _, tt := range []struct {
		identity string
		ok       bool
	}{{keylessSigner, true}, {"mallory@evil.test", false}} {
		bv, err := sigstore.NewVerifier(sigstore.VerifyOptions{TrustedRoot: tr, CertIdentity: tt.identity, CertOIDCIssuer: sigstoretest.Issuer})
		if err != nil {
			t.Fatal(err)
		}
		res := verify.File(context.Background(), tgz, verify.Policy{Bundles: bv})
		if res.Verified != tt.ok || res.Method != "sigstore" {
			t.Errorf("verify as %s: verified %v, method %q (%+v), want %v", tt.identity, res.Verified, res.Method, res.Error, tt.ok)
		}
	}

	if strings.Contains(d.View()+sum, token) {
		t.Error("the wizard showed the identity token")
	}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if strings.HasSuffix(p, ".key") {
			t.Errorf("keyless signing made a key file %s", p)
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), token) {
			t.Errorf("%s contains the identity token", p)
		}
		return nil
	})
}

// TestWizardKeylessUnavailable: without SIGSTORE_ID_TOKEN the choice is
// listed as unavailable with the reason, and choosing it says why and
// stays on the page.
func TestWizardKeylessUnavailable(t *testing.T) {
	t.Setenv(sigstore.TokenEnv, "")
	d, w := signPage(t, t.TempDir())
	if !strings.Contains(d.View(), "Sigstore keyless: unavailable, SIGSTORE_ID_TOKEN is not set") {
		t.Fatalf("the unavailable choice is not shown with its reason:\n%s", d.View())
	}
	d.Keys("down", "down", "down", "enter")
	if w.at.pg.id != "sign" || !strings.Contains(d.View(), "keyless signing needs an OIDC identity token") {
		t.Errorf("choosing keyless without a token: page %v\n%s", w.at.pg.id, d.View())
	}
	d.Keys("up", "up", "up", "enter") // v2 (manual is for v1 packs): the key group follows
	if w.at.pg.id != "sign" || !strings.Contains(d.View(), "Key file") {
		t.Errorf("v2 did not ask for the key:\n%s", d.View())
	}
}
