package wizard

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
	"github.com/openwop/wopkit/internal/werr"
)

const testPassphrase = "zq-Secret-Passphrase-42"

// encryptedKey writes an encrypted Ed25519 key pair PREFIX.key/.pub in dir
// (a quick KDF: the real count is sign's tests') and returns the .key.
func encryptedKey(t *testing.T, dir, name string) string {
	t.Helper()
	old := sign.KDFIterations
	sign.KDFIterations = 1000
	t.Cleanup(func() { sign.KDFIterations = old })
	key, err := sign.GenerateKey(sign.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	path, _, err := sign.WriteKeyPair(filepath.Join(dir, name), key, []byte(testPassphrase), false)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// passSignPage is the sign page of an agent pack signed v2 with the
// existing key file keyPath.
func passSignPage(t *testing.T, dir, keyPath string) (*driver, *wizard) {
	t.Helper()
	a := newAnswers()
	a.What, a.Pack.Name = whatAgent, "community.acme.passed"
	a.SignMethod, a.KeyChoice, a.KeyPath, a.KeyID = sign.MethodV2, "existing", keyPath, "acme-1"
	opts := Options{Dir: filepath.Join(dir, "pack"), Output: filepath.Join(dir, "out.tgz"), DraftDir: dir}
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: opts})
	})
	w := d.App.Top().(*wizard)
	toPage(d, w, "sign")
	return d, w
}

// Issue 25, item 8: an encrypted key file is usable in the wizard. The
// sign page asks its passphrase, masked; a wrong one is said there and
// asked again; the right one signs. It is never on the screen nor in a
// draft.
func TestWizardAsksAnEncryptedKeysPassphrase(t *testing.T) {
	t.Setenv(sign.PassphraseEnv, "")
	os.Unsetenv(sign.PassphraseEnv)
	dir := t.TempDir()
	keyPath := encryptedKey(t, dir, "acme")
	d, w := passSignPage(t, dir, keyPath)
	d.Keys("enter", "enter", "enter", "enter") // method, key, key file, key id
	if strings.Contains(d.View(), "start again") {
		t.Fatalf("the sign page says to start again for an encrypted key:\n%s", d.View())
	}
	if w.at.pg.id != "sign" || !strings.Contains(d.View(), "Key passphrase") {
		t.Fatalf("the passphrase is not asked (page %s):\n%s", w.at.pg.id, d.View())
	}
	d.Keys("type:wrong-one", "enter")
	if w.at.pg.id != "sign" || !strings.Contains(strings.Join(strings.Fields(d.View()), " "), "wrong passphrase: type it again") {
		t.Fatalf("a wrong passphrase is not said on the sign page (page %s):\n%s", w.at.pg.id, d.View())
	}
	if strings.Contains(d.View(), "wrong-one") {
		t.Fatalf("the passphrase typed is shown:\n%s", d.View())
	}
	d.Keys("ctrl+u", "type:"+testPassphrase)
	if strings.Contains(d.View(), testPassphrase) {
		t.Fatalf("the passphrase is shown:\n%s", d.View())
	}
	d.Keys("enter")
	if w.at.pg.id != "review" || w.rev.Plan == nil {
		t.Fatalf("after the passphrase: page %s, problems %+v\n%s", w.at.pg.id, w.rev.Problems, d.View())
	}
	// a draft kept now holds no passphrase
	if err := saveDraft(dir, w.a); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(drafts.File(dir))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(testPassphrase)) || bytes.Contains(b, []byte("wrong-one")) {
		t.Fatalf("the draft holds the passphrase:\n%s", b)
	}
	d.Keys("enter") // write, pack and sign
	if !w.finished || w.err != "" {
		t.Fatalf("not signed: %q\n%s", w.err, d.View())
	}
	if _, err := os.Stat(filepath.Join(dir, "out"+sign.DetachedSigExt)); err != nil {
		t.Fatalf("no signature: %v", err)
	}
	if strings.Contains(d.View()+strings.Join(w.done, "\n"), testPassphrase) {
		t.Fatal("the summary shows the passphrase")
	}
}

// WOPKIT_KEY_PASSPHRASE still works and skips the question.
func TestWizardPassphraseFromTheEnvironmentIsNotAsked(t *testing.T) {
	t.Setenv(sign.PassphraseEnv, testPassphrase)
	dir := t.TempDir()
	d, w := passSignPage(t, dir, encryptedKey(t, dir, "acme"))
	d.Keys("enter", "enter", "enter", "enter")
	if w.at.pg.id != "review" || w.rev.Plan == nil {
		t.Fatalf("page %s, problems %+v\n%s", w.at.pg.id, w.rev.Problems, d.View())
	}
	d.Keys("enter")
	if !w.finished || w.err != "" {
		t.Fatalf("not signed: %q\n%s", w.err, d.View())
	}
}

// Accessible mode asks it too: from a pipe one line, never echoed in the
// transcript; a wrong one stops the run (exit 1) without its text.
func TestAccessibleAsksAnEncryptedKeysPassphrase(t *testing.T) {
	t.Setenv(sign.PassphraseEnv, "")
	os.Unsetenv(sign.PassphraseEnv)
	for _, tc := range []struct {
		pass string
		ok   bool
	}{{testPassphrase, true}, {"wrong-one", false}} {
		dir := t.TempDir()
		t.Chdir(dir)
		encryptedKey(t, dir, "acme") // the folder's key: the default
		lines := append(nodeLines("acme")[:len(nodeLines("acme"))-1], "1", "", "", "", tc.pass)
		var out bytes.Buffer
		opts := Options{DraftDir: dir, Accessible: true, Input: strings.NewReader(strings.Join(lines, "\n") + "\n"), Screen: &out}
		err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts})
		s := out.String()
		if !strings.Contains(s, "Key passphrase") {
			t.Fatalf("the passphrase is not asked:\n%s", s)
		}
		if strings.Contains(s, tc.pass) || (err != nil && strings.Contains(err.Error(), tc.pass)) {
			t.Fatalf("the passphrase is echoed:\n%s\n%v", s, err)
		}
		if tc.ok {
			if err != nil {
				t.Fatalf("with the right passphrase: %v\n%s", err, s)
			}
			if _, err := os.Stat(filepath.Join(dir, "community.acme.piped-0.1.0"+sign.DetachedSigExt)); err != nil {
				t.Fatalf("not signed: %v\n%s", err, s)
			}
			continue
		}
		if werr.CodeOf(err) != "key_passphrase_wrong" || werr.ExitCode(err) != 1 {
			t.Fatalf("a wrong passphrase: %v (exit %d)\n%s", err, werr.ExitCode(err), s)
		}
		if b, _ := os.ReadFile(drafts.File(dir)); bytes.Contains(b, []byte(tc.pass)) {
			t.Fatal("the draft kept holds the passphrase")
		}
	}
}

// newKeySignPage is the sign page of an agent pack signed v2 with a new
// key pair at dir/acme.
func newKeySignPage(t *testing.T, dir string) (*driver, *wizard) {
	t.Helper()
	old := sign.KDFIterations
	sign.KDFIterations = 1000
	t.Cleanup(func() { sign.KDFIterations = old })
	a := newAnswers()
	a.What, a.Pack.Name = whatAgent, "community.acme.newpass"
	a.SignMethod, a.KeyChoice, a.KeyPath, a.KeyID = sign.MethodV2, "new", filepath.Join(dir, "acme"), "acme-1"
	opts := Options{Dir: filepath.Join(dir, "pack"), Output: filepath.Join(dir, "out.tgz"), DraftDir: dir}
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: opts})
	})
	w := d.App.Top().(*wizard)
	toPage(d, w, "sign")
	return d, w
}

// Issue 44, item 5: the wizard asks, as keygen does, the passphrase a new
// key pair's private key is encrypted with: twice, masked, the two refused
// when they differ, never on the screen nor in a draft; the key written is
// encrypted with it, and the summary says so.
func TestWizardAsksANewKeysPassphrase(t *testing.T) {
	t.Setenv(sign.PassphraseEnv, "")
	os.Unsetenv(sign.PassphraseEnv)
	dir := t.TempDir()
	d, w := newKeySignPage(t, dir)
	d.Keys("enter", "enter", "enter", "enter") // method, key, key file, key id
	if v := flat(d.View()); w.at.pg.id != "sign" || !strings.Contains(v, "New key passphrase") || !strings.Contains(v, "empty: the key is written") {
		t.Fatalf("the new key's passphrase is not asked (page %s):\n%s", w.at.pg.id, d.View())
	}
	d.Keys("type:"+testPassphrase, "enter", "type:not-the-same", "enter")
	if w.at.pg.id != "sign" || !strings.Contains(flat(d.View()), "the two passphrases differ") {
		t.Fatalf("two passphrases that differ are taken (page %s):\n%s", w.at.pg.id, d.View())
	}
	d.Keys("ctrl+u", "type:"+testPassphrase, "enter")
	if w.at.pg.id != "review" || w.rev.Plan == nil || !strings.Contains(flat(d.View()), "encrypted with your passphrase") {
		t.Fatalf("after the passphrase: page %s, problems %+v\n%s", w.at.pg.id, w.rev.Problems, d.View())
	}
	if err := saveDraft(dir, w.a); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(drafts.File(dir)); bytes.Contains(b, []byte(testPassphrase)) {
		t.Fatalf("the draft holds the new key's passphrase:\n%s", b)
	}
	d.Keys("enter") // write, pack and sign
	if !w.finished || w.err != "" {
		t.Fatalf("not signed: %q\n%s", w.err, d.View())
	}
	key := filepath.Join(dir, "acme.key")
	if err := create.CheckPassphrase(key, []byte(testPassphrase)); err != nil || !create.KeyEncrypted(key) {
		t.Fatalf("the new key is not encrypted with the passphrase typed: %v", err)
	}
	if sum := strings.Join(w.out.summary, "\n"); !strings.Contains(sum, "encrypted with your passphrase") || strings.Contains(sum+d.View(), testPassphrase) {
		t.Errorf("the summary:\n%s", sum)
	}
}

// An empty passphrase writes the new key unencrypted, and the summary
// says so plainly.
func TestWizardNewKeyWithoutPassphraseSaysSo(t *testing.T) {
	t.Setenv(sign.PassphraseEnv, "")
	os.Unsetenv(sign.PassphraseEnv)
	dir := t.TempDir()
	d, w := newKeySignPage(t, dir)
	d.Keys("enter", "enter", "enter", "enter", "enter", "enter", "enter") // the two passphrases empty, then write
	if !w.finished || w.err != "" {
		t.Fatalf("not signed (page %s): %q\n%s", w.at.pg.id, w.err, d.View())
	}
	if create.KeyEncrypted(filepath.Join(dir, "acme.key")) {
		t.Fatal("an empty passphrase encrypted the key")
	}
	if sum := strings.Join(w.out.summary, "\n"); !strings.Contains(sum, "unencrypted (no passphrase)") {
		t.Errorf("the summary does not say the key is unencrypted:\n%s", sum)
	}
}

// Accessible mode asks the new key's passphrase on a terminal, twice and
// not echoed, again when the two differ; from a pipe it asks nothing, as
// keygen does: the key is unencrypted and the summary says so.
func TestAccessibleAsksANewKeysPassphrase(t *testing.T) {
	t.Setenv(sign.PassphraseEnv, "")
	os.Unsetenv(sign.PassphraseEnv)
	old := sign.KDFIterations
	sign.KDFIterations = 1000
	t.Cleanup(func() { sign.KDFIterations = old })
	for _, terminal := range []bool{true, false} {
		dir := t.TempDir()
		t.Chdir(dir)
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
		lines := append(nodeLines("acme")[:len(nodeLines("acme"))-1], "1", "", filepath.Join(dir, "acme"), "")
		if terminal {
			lines = append(lines, testPassphrase, "not-the-same", testPassphrase, testPassphrase, "y")
		}
		oldTerm := ask.IsTerminal
		ask.IsTerminal = func(io.Reader) bool { return terminal }
		var out bytes.Buffer
		opts := Options{DraftDir: dir, Accessible: true, Input: strings.NewReader(strings.Join(lines, "\n") + "\n"), Screen: &out}
		err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts})
		ask.IsTerminal = oldTerm
		s := out.String()
		if err != nil {
			t.Fatalf("terminal %v: %v\n%s", terminal, err, s)
		}
		key := filepath.Join(dir, "acme.key")
		if !terminal {
			if strings.Contains(s, "New key passphrase") || create.KeyEncrypted(key) || !strings.Contains(s, "unencrypted (no passphrase)") {
				t.Fatalf("from a pipe: asked, or encrypted, or not said:\n%s", s)
			}
			continue
		}
		if strings.Count(s, "New key passphrase") != 2 || !strings.Contains(s, "the two passphrases differ") || strings.Contains(s, testPassphrase) {
			t.Fatalf("on a terminal the new key's passphrase is not asked twice, again after a mismatch, unechoed:\n%s", s)
		}
		if err := create.CheckPassphrase(key, []byte(testPassphrase)); err != nil || !strings.Contains(s, "encrypted with your passphrase") {
			t.Fatalf("the new key is not encrypted with the passphrase typed (%v):\n%s", err, s)
		}
	}
}
