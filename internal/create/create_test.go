package create

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/verify"
	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/internal/words"
)

// packPlan is the plan of a default pack named name.
func packPlan(t *testing.T, name string) *scaffold.Plan {
	t.Helper()
	a := scaffold.PackAnswers{}.Defaults()
	a.Name = name
	p, err := scaffold.PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tree lists every file and folder under dir, relative to it.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func digest(t *testing.T, paths ...string) string {
	t.Helper()
	h := sha256.New()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	return string(h.Sum(nil))
}

// failingSigner refuses to sign, as a token or a card that fails would.
type failingSigner struct{}

func (failingSigner) Method() string { return sign.MethodV2 }
func (failingSigner) Block() map[string]any {
	return map[string]any{"method": "ed25519-canonical-json", "keyId": "acme-1"}
}
func (failingSigner) Sign(context.Context, []byte) (*sign.Signature, error) {
	return nil, errors.New("the signing device was unplugged")
}

// TestRunRollsBackAFailedSign: when the sign step fails, nothing the run
// wrote is left (the pack folder, its subfolders, the tarball, the
// sidecars), and files --force was replacing are put back as they were.
func TestRunRollsBackAFailedSign(t *testing.T) {
	work := t.TempDir()
	opts := Options{Plan: packPlan(t, "community.acme.rollback"), Dir: filepath.Join(work, "rollback"),
		Release: &Release{Name: "community.acme.rollback", Version: "0.1.0", Output: filepath.Join(work, "out.tgz"), Sign: sign.MethodV2, Signer: failingSigner{}}}
	_, err := Run(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "unplugged") {
		t.Fatalf("Run with a failing signer: %v", err)
	}
	if left := tree(t, work); len(left) > 0 {
		t.Errorf("a failed run left %v", left)
	}

	// --force over an earlier pack and release: the failure puts them back
	os.MkdirAll(filepath.Join(work, "rollback"), 0o755)
	old := map[string]string{"rollback/pack.json": `{"old": true}`, "rollback/mine.txt": "kept", "out.tgz": "old tarball", "out.sig": "old sig"}
	for p, c := range old {
		os.WriteFile(filepath.Join(work, p), []byte(c), 0o644)
	}
	opts.Force = true
	if _, err := Run(context.Background(), opts); err == nil {
		t.Fatal("Run with a failing signer succeeded")
	}
	got := tree(t, work)
	want := []string{"out.sig", "out.tgz", "rollback", "rollback/mine.txt", "rollback/pack.json"}
	if !slices.Equal(got, want) {
		t.Errorf("after a failed --force run: %v, want %v", got, want)
	}
	for p, c := range old {
		if b, _ := os.ReadFile(filepath.Join(work, p)); string(b) != c {
			t.Errorf("%s is %q, not put back as %q", p, b, c)
		}
	}
}

// TestExistingReleaseIsAProblem (issue 17, item 5): a tarball, .sig and
// version manifest already there are a problem Preflight reports, Run
// refuses without --force (nothing changed), and replaces with it; the
// key already there signs the new release, which GNU tar reads and the
// verifier accepts with the same public key.
func TestExistingReleaseIsAProblem(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	const name = "community.acme.weather"
	opts := func(dir string, key Key) Options {
		return Options{Plan: packPlan(t, name), Dir: dir,
			Release: &Release{Name: name, Version: "0.1.0", Sign: sign.MethodV2, Key: key}}
	}
	first, err := Run(context.Background(), opts("weather", Key{New: true, Path: "acme", ID: "acme-1"}))
	if err != nil {
		t.Fatal(err)
	}
	release := []string{name + "-0.1.0.tgz", name + "-0.1.0.sig", name + "-0.1.0.json"}
	if first.Tarball != release[0] || first.Signature != release[1] || first.VersionManifest != release[2] || first.NewKey != "acme.key" {
		t.Fatalf("first release: %+v", first)
	}
	before, keyBefore := digest(t, append(release, "acme.key", "acme.pub")...), digest(t, "acme.key", "acme.pub")

	again := opts("moved", Key{Path: "acme.key", ID: "acme-1"}) // the pack folder moved away, the key kept
	ps := Preflight(again)
	if len(ps) != 1 || ps[0].Subject != Tarball || !strings.Contains(ps[0].Message, strings.Join(release[:2], ", ")+" and "+release[2]+" already exist") {
		t.Fatalf("Preflight: %+v", ps)
	}
	_, err = Run(context.Background(), again)
	var blocked Problems
	if !errors.As(err, &blocked) || werr.CodeOf(err) != "release_exists" || werr.ExitCode(err) != 1 {
		t.Fatalf("Run over a release: %v", err)
	}
	if _, err := os.Stat("moved"); err == nil {
		t.Error("a refused run wrote the pack folder")
	}
	if digest(t, append(release, "acme.key", "acme.pub")...) != before {
		t.Fatal("a refused run changed the release or the key")
	}

	again.Force = true
	res, err := Run(context.Background(), again)
	if err != nil {
		t.Fatal(err)
	}
	if res.NewKey != "" || res.PublicKey != "acme.pub" || digest(t, "acme.key", "acme.pub") != keyBefore {
		t.Errorf("the second release: %+v", res)
	}
	if _, err := exec.LookPath("tar"); err == nil {
		out, err := exec.Command("tar", "-tzf", res.Tarball).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "pack.json") {
			t.Errorf("GNU tar cannot list the tarball: %v %s", err, out)
		}
	}
	pub, err := sign.LoadPublicKey("acme.pub")
	if err != nil {
		t.Fatal(err)
	}
	if v := verify.File(context.Background(), res.Tarball, verify.Policy{Key: pub}); !v.Verified {
		t.Errorf("the release made with --force does not verify with acme.pub: %+v", v.Error)
	}
	if left, _ := filepath.Glob(".wopkit-undo-*"); len(left) > 0 {
		t.Errorf("the copies kept for a rollback are left: %v", left)
	}
}

// TestNewKeyNotIntoCheckout (issue 17, item 6): a new private key typed
// into a git work tree that does not ignore it is a problem and is not
// written; the derived default keeps it in the user's config folder, and
// the summary says so; git status shows no key file either way.
func TestNewKeyNotIntoCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the checkout test needs it")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Chdir(repo)
	const name = "community.acme.gitted"
	status := func() string {
		out, err := exec.Command("git", "-C", repo, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
		if err != nil {
			t.Fatalf("git status: %v %s", err, out)
		}
		return string(out)
	}
	typed := Options{Plan: packPlan(t, name), Dir: "gitted",
		Release: &Release{Name: name, Version: "0.1.0", Sign: sign.MethodV2, Key: Key{New: true, Path: "acme", ID: "acme-1"}}}
	ps := Preflight(typed)
	if len(ps) != 1 || ps[0].Subject != KeyFile || !strings.Contains(ps[0].Message, "acme.key would be written into the git checkout") {
		t.Fatalf("Preflight of a key typed into the checkout: %+v", ps)
	}
	if _, err := Run(context.Background(), typed); werr.CodeOf(err) != "key_unusable" {
		t.Fatalf("Run with a key into the checkout: %v", err)
	}
	if st := status(); st != "" {
		t.Fatalf("a refused run left: %s", st)
	}

	d := scaffold.DefaultKey(name)
	opts := typed
	opts.Release.Key = Key{New: true, Path: d.New, ID: "acme-1", Default: d}
	where := strings.Join(Where(opts), "\n")
	if !strings.Contains(where, "kept in your config folder, not in the git checkout "+repo) {
		t.Errorf("Where does not say where the key goes:\n%s", where)
	}
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(config, "wopkit", "keys")
	if res.NewKey != filepath.Join(keys, "acme.key") || res.KeptOut != repo {
		t.Errorf("result: %+v", res)
	}
	if s := strings.Join(res.Summary(), "\n"); !strings.Contains(s, "not in the git checkout "+repo) {
		t.Errorf("the summary does not say where the key went:\n%s", s)
	}
	if fi, err := os.Stat(res.NewKey); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key: %v %v", err, fi)
	}
	if st := status(); strings.Contains(st, ".key") || !strings.Contains(st, "gitted/pack.json") {
		t.Errorf("git status:\n%s", st)
	}
}

// TestWhereListsWhatRunWrites: Where names the folder and its files, the
// key and the tarball with its sidecars before the run, for every signing
// choice, and the files it names are the ones the run writes.
func TestWhereListsWhatRunWrites(t *testing.T) {
	for _, c := range []struct {
		method, key, beside string
		pass                string // the new key's passphrase (issue 44, item 5)
	}{
		{sign.MethodV2, "a new key pair: ~/k.key (keep it secret) and ~/k.pub, unencrypted (no passphrase)", ".sig and .json", ""},
		{sign.MethodSigstore, "a new key pair: ~/k.key (keep it secret) and ~/k.pub, unencrypted (no passphrase)", ".sigstore.json and .json", ""},
		{sign.MethodV2 + " encrypted", "a new key pair: ~/k.key (keep it secret) and ~/k.pub, encrypted with your passphrase", ".sig and .json", "zq-new-pass"},
		{sign.MethodNone, "not signed: no key", ".json", ""},
		{"", "not packed: no tarball, no key", "", ""},
	} {
		t.Run(c.method, func(t *testing.T) {
			work := t.TempDir()
			t.Chdir(work)
			// the folder is the home folder: the paths are shown ~/… (issue
			// 35, item 3: where things go, whatever folder the author is in)
			t.Setenv("HOME", work)
			t.Setenv("USERPROFILE", work)
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			opts := Options{Plan: packPlan(t, "community.acme.where"), Dir: "where", PackLater: true}
			method, _, _ := strings.Cut(c.method, " ")
			if c.method != "" {
				opts.Release = &Release{Name: "community.acme.where", Version: "0.1.0", Sign: method, Key: Key{New: true, Path: "k", ID: "acme-1", NewPassphrase: []byte(c.pass)}}
			}
			w := Where(opts)
			files := opts.Plan.Paths()
			if w[0] != words.Count(len(files), "file", "files")+" will be written in ~/where: "+strings.Join(files, ", ") || w[1] != c.key {
				t.Errorf("Where: %q", w)
			}
			res, err := Run(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.method != sign.MethodNone && c.method != "" {
				if enc := KeyEncrypted(filepath.Join(work, "k.key")); enc != (c.pass != "") {
					t.Errorf("the new key encrypted: %v, with passphrase %q", enc, c.pass)
				}
				if sum := strings.Join(res.Summary(), "\n"); !strings.Contains(sum, map[bool]string{true: "encrypted with your passphrase", false: "unencrypted (no passphrase)"}[c.pass != ""]) {
					t.Errorf("the summary does not say whether the key is encrypted:\n%s", sum)
				}
			}
			written := tree(t, work)
			for _, f := range files {
				if !slices.Contains(written, "where/"+f) {
					t.Errorf("%s listed, not written", f)
				}
			}
			if c.method == "" {
				if len(w) != 2 || slices.ContainsFunc(written, func(f string) bool { return strings.HasSuffix(f, ".tgz") }) {
					t.Errorf("not packed: %q, wrote %v", w, written)
				}
				return
			}
			want := "packed to ~/community.acme.where-0.1.0.tgz, with its " + c.beside + " beside it"
			if w[2] != want {
				t.Errorf("Where's tarball: %q, want %q", w[2], want)
			}
			outside := slices.DeleteFunc(written, func(f string) bool { return f == "where" || strings.HasPrefix(f, "where/") })
			var listed []string
			for _, ext := range append([]string{".tgz"}, strings.Split(c.beside, " and ")...) {
				listed = append(listed, "community.acme.where-0.1.0"+ext)
			}
			if method != sign.MethodNone {
				listed = append(listed, "k.key", "k.pub")
			}
			slices.Sort(listed)
			if !slices.Equal(outside, listed) {
				t.Errorf("written outside the folder: %v, listed %v", outside, listed)
			}
			if res.Tarball != "community.acme.where-0.1.0.tgz" {
				t.Errorf("result tarball %s", res.Tarball)
			}
		})
	}
}

// TestSummaryWords: counts agree with their nouns and lists are words.
func TestSummaryWords(t *testing.T) {
	dir := t.TempDir()
	one := &scaffold.Plan{Files: []scaffold.File{{Path: "a.tool.json", Data: []byte("{}\n")}}, Notes: []string{"set install.sha256"}}
	res, err := Run(context.Background(), Options{Plan: one, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Join(res.Summary(), "\n")
	if !strings.Contains(s, "wrote 1 file in "+filepath.ToSlash(dir)+": a.tool.json") || strings.Contains(s, "1 files") || strings.Contains(s, "[") ||
		!strings.HasSuffix(s, "next:\n  wopkit validate --strict "+filepath.Join(dir, "a.tool.json")+"\n  wopkit edit "+filepath.Join(dir, "a.tool.json")+"\n  set install.sha256") {
		t.Errorf("summary:\n%s", s)
	}
	if w := Where(Options{Plan: one, Dir: dir}); len(w) != 1 || w[0] != "1 file will be written in "+filepath.ToSlash(dir)+": a.tool.json" {
		t.Errorf("Where: %q", w)
	}
	ps := Problems{{Subject: Folder, Message: "x already holds a"}, {Subject: KeyID, Message: "a key id is needed to sign"}}
	if e := ps.Error(); !strings.HasPrefix(e, "nothing was written: 2 problems:\n") {
		t.Errorf("Problems: %q", e)
	}
	if e := ps[:1].Error(); e != "nothing was written: x already holds a" {
		t.Errorf("one problem: %q", e)
	}
}

// TestPreflightKeyProblems: every key problem is found before writing,
// about the answer that resolves it, with the hint in the caller's words.
func TestPreflightKeyProblems(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("SIGSTORE_ID_TOKEN", "")
	k, err := sign.GenerateKey(sign.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := sign.WriteKeyPair("acme", k, nil, false); err != nil {
		t.Fatal(err)
	}
	os.WriteFile("junk.key", []byte("not a key"), 0o600)
	os.WriteFile("plain", []byte("a file"), 0o644)
	wizard := Labels{UseExisting: `choose "use an existing private key file" with`, NewPair: `choose "create a new key pair"`, OtherSigning: "choose another way to sign"}
	for _, c := range []struct {
		name    string
		method  string
		key     Key
		labels  Labels
		subject Subject
		message string
		hint    string
	}{
		{"a new pair over a key", sign.MethodV2, Key{New: true, Path: "acme", ID: "acme-1"}, Labels{}, KeyFile,
			"acme.key already exists: a new key pair would replace it", "use another name, e.g. acme-2, or sign with the existing key acme.key"},
		{"the same, the wizard's words", sign.MethodV2, Key{New: true, Path: "acme", ID: "acme-1"}, wizard, KeyFile,
			"acme.key already exists", `or choose "use an existing private key file" with acme.key`},
		{"a file in the way", sign.MethodV2, Key{New: true, Path: "plain/acme", ID: "acme-1"}, Labels{}, KeyFile,
			"plain is not a folder", "e.g. acme"},
		{"a key that does not load", sign.MethodV2, Key{Path: "junk.key", ID: "acme-1"}, Labels{}, KeyFile, "junk.key", ""},
		{"an Ed25519 key for a Sigstore bundle", sign.MethodSigstore, Key{Path: "acme.key", ID: "acme-1"}, wizard, KeyFile,
			"", `choose "create a new key pair", or choose another way to sign`},
		{"no key id", sign.MethodV2, Key{Path: "acme.key"}, Labels{}, KeyID, "a key id is needed to sign", ""},
		{"keyless without a token", Keyless, Key{}, Labels{}, SignMethod, "SIGSTORE_ID_TOKEN is not set", "choose another way to sign"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{Plan: packPlan(t, "community.acme.keys"), Dir: "keys", Labels: c.labels,
				Release: &Release{Name: "community.acme.keys", Version: "0.1.0", Sign: c.method, Key: c.key}}
			ps := Preflight(opts)
			if len(ps) != 1 || ps[0].Subject != c.subject || !strings.Contains(ps[0].Message, c.message) || !strings.Contains(ps[0].Hint, c.hint) {
				t.Fatalf("Preflight: %+v", ps)
			}
			if _, err := Run(context.Background(), opts); err == nil {
				t.Error("Run went ahead")
			}
			if _, err := os.Stat("keys"); err == nil {
				t.Error("Run wrote the folder")
			}
		})
	}
}
