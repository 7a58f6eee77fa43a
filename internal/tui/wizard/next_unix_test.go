//go:build unix

package wizard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/toward"
)

// towardRegistry is a registry root whose discovery document advertises
// v2 (the real v2 registry's, from ../shared/spec-v2/registry), and a
// wopkit binary built from this module; the test skips without ../shared.
func towardRegistry(t *testing.T, dir string) (reg, bin string) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(fixtures.SpecV2(t), "registry", ".well-known", "openwop-registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	reg = filepath.Join(dir, "openwop-registry")
	if err := os.MkdirAll(filepath.Join(reg, ".well-known"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(reg, ".well-known", "openwop-registry.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	binDir := filepath.Join(dir, "bin")
	os.MkdirAll(binDir, 0o755)
	if out, err := fixtures.BuildWopkit(".", filepath.Join(binDir, "wopkit")); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return reg, binDir
}

// runToward runs each command after the summary's "toward the pull
// request:" exactly as printed, with the shell, in dir, the wopkit built
// first on PATH; each must exit 0. It returns the commands run.
func runToward(t *testing.T, sum []string, dir, binDir string) []string {
	t.Helper()
	i := -1
	for n, l := range sum {
		if l == toward.Head {
			i = n
		}
	}
	if i < 0 {
		t.Fatalf("the summary does not end toward the pull request:\n%s", strings.Join(sum, "\n"))
	}
	var ran []string
	for _, l := range sum[i+1:] {
		c := strings.TrimSpace(l)
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s (in %s): %v\n%s", c, dir, err, out)
		}
		ran = append(ran, c)
	}
	return ran
}

// towardRun runs the wizard headlessly from the page at (sign or review)
// to the write, with keys, for a pack named community.acme.NAME whose
// answers set sets, the registry checkout reg named (WOPKIT_REGISTRY's);
// it returns the summary.
func towardRun(t *testing.T, dir, reg, name, at string, set func(*answers), keys ...string) []string {
	t.Helper()
	old := sign.KDFIterations
	sign.KDFIterations = 1000
	t.Cleanup(func() { sign.KDFIterations = old })
	a := newAnswers()
	a.What, a.Pack.Name = whatAgent, "community.acme."+name
	set(a)
	opts := Options{Dir: filepath.Join(dir, name), Output: filepath.Join(dir, "out.tgz"), DraftDir: dir, Registry: reg}
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: opts})
	})
	w := d.App.Top().(*wizard)
	toPage(d, w, at)
	d.Keys(keys...)
	if !w.finished || w.err != "" {
		t.Fatalf("not written (page %s): %q\n%s", w.at.pg.id, w.err, d.View())
	}
	return w.out.summary
}

// Issue 44, item 7: every command the wizard's summary prints toward the
// pull request runs as printed. A pack signed with a new key: its public
// key added to the registry's keychain, the release published into the
// checkout named (WOPKIT_REGISTRY's).
// Not parallel: it changes the environment (no passphrase).
func TestTowardCommandsRunAsPrinted(t *testing.T) {
	t.Setenv(sign.PassphraseEnv, "")
	os.Unsetenv(sign.PassphraseEnv)
	dir := t.TempDir()
	reg, binDir := towardRegistry(t, dir)
	t.Setenv("WOPKIT_REGISTRY", reg)
	sum := towardRun(t, dir, reg, "toward", "sign", func(a *answers) {
		a.SignMethod, a.KeyChoice, a.KeyPath, a.KeyID = sign.MethodV2, "new", filepath.Join(dir, "acme"), "acme-1"
	}, "enter", "enter", "enter", "enter", "enter", "enter", "enter") // the two passphrases empty, then write
	ran := runToward(t, sum, dir, binDir)
	if len(ran) != 2 || !strings.HasPrefix(ran[0], "wopkit keychain add ") || !strings.HasPrefix(ran[1], "wopkit publish ") {
		t.Errorf("ran %q, want keychain add then publish", ran)
	}
	if _, err := os.Stat(filepath.Join(reg, "v2", "packs", "community.acme.toward", "-", "0.1.0.tgz")); err != nil {
		t.Errorf("not published: %v", err)
	}

	// Only the files written: a key, the pack signed with it, its public
	// key added, the release published (a new author: a folder and a
	// checkout of their own).
	dir = t.TempDir()
	reg, binDir = towardRegistry(t, dir)
	t.Setenv("WOPKIT_REGISTRY", reg)
	sum = towardRun(t, dir, reg, "later", "review", func(a *answers) { a.SignMethod = "skip" }, "enter")
	ran = runToward(t, sum, dir, binDir)
	if len(ran) != 4 || !strings.HasPrefix(ran[0], "wopkit keygen ") || !strings.HasPrefix(ran[3], "wopkit publish ") {
		t.Errorf("ran %q, want keygen, pack, keychain add, publish", ran)
	}
	if _, err := os.Stat(filepath.Join(reg, "v2", "packs", "community.acme.later", "-", "0.1.0.tgz")); err != nil {
		t.Errorf("not published: %v", err)
	}
}
