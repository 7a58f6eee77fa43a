package scaffold

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/validate"
)

// TestDefaultKey (issue 17, bugs 5 and 6): the key already in the folder
// is the default; a new pair is named after the organisation and kept out
// of a git checkout that does not ignore it.
func TestDefaultKey(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	dir := t.TempDir()
	t.Chdir(dir)
	const name = "community.acme.weather"
	if d := DefaultKey(name); d != (KeyDefault{New: "acme"}) {
		t.Errorf("an empty folder: %+v", d)
	}
	os.WriteFile("acme.pub", []byte("x"), 0o644)
	os.WriteFile("other.key", []byte("x"), 0o600)
	if d := DefaultKey(name); d != (KeyDefault{Existing: "other.key", New: "acme-2"}) {
		t.Errorf("the only key in the folder: %+v", d)
	}
	os.WriteFile("acme.key", []byte("x"), 0o600)
	if d := DefaultKey(name); d.Existing != "acme.key" || d.Path(true) != "acme.key" || d.Path(false) != "acme-2" {
		t.Errorf("the organisation's key: %+v", d)
	}
	os.Remove("acme.key")
	os.WriteFile("third.key", []byte("x"), 0o600)
	if d := DefaultKey(name); d.Existing != "" || d.Path(true) != "acme-2" {
		t.Errorf("two keys, neither the organisation's: %+v", d)
	}

	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the checkout cases need it")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	sub := filepath.Join(repo, "packs")
	os.Mkdir(sub, 0o755)
	t.Chdir(sub)
	keys := filepath.Join(config, "wopkit", "keys")
	if d := DefaultKey(name); d != (KeyDefault{New: filepath.Join(keys, "acme"), Checkout: repo}) {
		t.Errorf("in a checkout: %+v", d)
	}
	if got := KeyCheckout("elsewhere/acme"); got != repo {
		t.Errorf("KeyCheckout of a key typed into the checkout: %q", got)
	}
	os.MkdirAll(keys, 0o700)
	os.WriteFile(filepath.Join(keys, "acme.key"), []byte("x"), 0o600)
	if d := DefaultKey(name); d.Existing != filepath.Join(keys, "acme.key") || d.New != filepath.Join(keys, "acme-2") {
		t.Errorf("a key kept outside the checkout: %+v", d)
	}
	os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("*.key\n"), 0o644)
	if d := DefaultKey(name); d != (KeyDefault{New: "acme"}) || KeyCheckout("acme") != "" {
		t.Errorf("a checkout that ignores keys: %+v", d)
	}
	t.Setenv("PATH", t.TempDir()) // no git: the ignore files decide all the same
	if got := KeyCheckout("acme"); got != "" {
		t.Errorf("without git: %q", got)
	}
}

// TestReleaseFilesAsPackNamesThem: the files the review checks are the
// ones `wopkit pack` writes.
func TestReleaseFilesAsPackNamesThem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := PackAnswers{}.Defaults()
	a.Name = "community.acme.release"
	p, err := PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(filepath.Join(dir, "pack"), false); err != nil {
		t.Fatal(err)
	}
	k, err := sign.GenerateKey(sign.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sign.NewEd25519Signer(sign.MethodV2, k, "acme-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"", filepath.Join(dir, "out", "x.tgz")} {
		res, err := pack.Pack(context.Background(), pack.Options{Dir: filepath.Join(dir, "pack"), Output: out, Signer: s, DryRun: true, Validate: validate.BeforePack})
		if err != nil {
			t.Fatal(err)
		}
		got := ReleaseFiles(a.Name, a.Version, out, sign.DetachedSigExt)
		if want := []string{res.Output, *res.Signature, res.VersionManifest}; !slices.Equal(got, want) {
			t.Errorf("ReleaseFiles = %v, pack writes %v", got, want)
		}
	}
	if got := ReleaseFiles("a.b.c", "1.0.0", "", ""); !slices.Equal(got, []string{"a.b.c-1.0.0.tgz", "a.b.c-1.0.0.json"}) {
		t.Errorf("unsigned: %v", got)
	}
}
