package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/verify"
)

// One test per wizard bug of issue 17, each failing on the wizard before it.

type envDoc struct {
	Name, Prompt string
	Secret       bool
}

func toolEnv(t *testing.T, path string) []envDoc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Env []envDoc }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Env
}

// checkWeatherEnv: WEATHER_UNITS is a setting, WEATHER_API_KEY a secret,
// each prompt names its own variable.
func checkWeatherEnv(t *testing.T, env []envDoc) {
	t.Helper()
	if len(env) != 2 {
		t.Fatalf("env: %+v", env)
	}
	for i, want := range []envDoc{{Name: "WEATHER_UNITS"}, {Name: "WEATHER_API_KEY", Secret: true}} {
		e := env[i]
		if e.Name != want.Name || e.Secret != want.Secret || !strings.HasPrefix(e.Prompt, "The value of "+want.Name+":") {
			t.Errorf("env %d: %+v, want %s secret %v with a prompt naming it", i, e, want.Name, want.Secret)
		}
	}
}

// Bug 1: an API key added after a setting, enter for the rest, is a
// secret, and its prompt names it (not API_KEY or SETTING_2, from its
// place in the list).
func TestSecretFollowsName(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatTool, Dir: dir, DraftDir: dir})
	enterUntil(t, d, w, "envs")
	d.Keys("down", "enter", "type:WEATHER_UNITS", "enter")
	if v := d.View(); !strings.Contains(v, "The value of WEATHER_UNITS") {
		t.Errorf("the prompt suggested does not follow the name:\n%s", v)
	}
	d.Keys("enter", "n", "enter") // the prompt suggested, not a secret, required
	d.Keys("down", "enter", "type:WEATHER_API_KEY", "enter")
	if v := d.View(); !strings.Contains(v, "The value of WEATHER_API_KEY") || strings.Contains(v, "SETTING_2") {
		t.Errorf("the prompt suggested does not follow the name:\n%s", v)
	}
	d.Keys("enter") // the prompt suggested: the secret flag is focused, on yes
	if !strings.Contains(d.View(), "[Yes]") {
		t.Errorf("an API key is not offered as a secret:\n%s", d.View())
	}
	d.Keys("enter", "enter")
	if v := d.View(); !strings.Contains(v, "2 environment variables: WEATHER_UNITS, WEATHER_API_KEY (secret)") {
		t.Fatalf("the list:\n%s", v)
	}
	enterUntil(t, d, w, "review")
	d.Keys("enter")
	if !w.finished {
		t.Fatalf("not written: %q %v\n%s", w.err, w.rev.Problems, d.View())
	}
	path := filepath.Join(dir, "my-tool.tool.json")
	strictValid(t, path)
	checkWeatherEnv(t, toolEnv(t, path))
}

// Bug 1 in accessible mode: the prompt's question names the suggestion of
// the name just given, the secret question offers yes for an API key.
func TestSecretFollowsNameAccessible(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		"", "", "", "", "", "", "", "", "", // tool id, version, name, summary, homepage, licence, runtime kind, install method, package
		"2", "WEATHER_UNITS", "", "n", "", // a setting
		"2", "WEATHER_API_KEY", "", "", "", // an API key, enter for the rest
		"1", "1", // continue; no scope
		"", "", "", "", "1", // the action kept
		"", "", // smoke test, kill switch
	}
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	opts := Options{What: whatTool, Dir: dir, DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	if err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts}); err != nil {
		t.Fatalf("accessible run: %v\n%s", err, out.String())
	}
	s := out.String()
	if !strings.Contains(s, "Prompt [The value of WEATHER_API_KEY") || strings.Contains(s, "The value of SETTING_2") {
		t.Errorf("the prompt's question does not follow the name:\n%s", s)
	}
	i := strings.LastIndex(s, "Is it a secret?")
	if i < 0 || !strings.HasPrefix(s[i:], "Is it a secret? [Y/n]") {
		t.Errorf("the API key is not offered as a secret:\n%s", s)
	}
	path := filepath.Join(dir, "my-tool.tool.json")
	strictValid(t, path)
	checkWeatherEnv(t, toolEnv(t, path))
}

// Bug 4: the action-call smoke test calls an action without side effects
// of the current answers (it had no target: always a problem); the
// default one never calls an action with side effects.
func TestSmokeTestCallsASafeAction(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Tool.Runtime.Kind = "python-module"
	a.Tool.Actions = []scaffold.ActionAnswer{
		{Name: "send_mail", Summary: "Sends a message.", SideEffects: "write", Inputs: []string{"to"}, ScopesUsed: []string{}},
		{Name: "list_mail", Summary: "Lists the inbox.", SideEffects: "read", Inputs: []string{}, ScopesUsed: []string{}},
	}
	d, w := wizardOn(t, a, Options{What: whatTool, Dir: dir, DraftDir: dir})
	toPage(d, w, "safety")
	if v := d.View(); !strings.Contains(v, "action-call: call the action list_mail (no side effects)") {
		t.Errorf("the choice does not say what it calls:\n%s", v)
	}
	d.Keys("down", "enter") // action-call
	if a.Tool.Smoke.Kind != "action-call" {
		t.Fatalf("smoke kind %q", a.Tool.Smoke.Kind)
	}
	d.Keys("enter")
	if w.at.pg.id != "review" || w.rev.Plan == nil {
		t.Fatalf("action-call: %v\n%s", w.rev.Problems, d.View())
	}
	var doc struct {
		Smoke struct {
			Kind, Action string
			ToolName     string `json:"tool_name"`
		} `json:"smoke"`
	}
	if err := json.Unmarshal([]byte(w.rev.Manifest), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Smoke.Kind != "action-call" || doc.Smoke.Action != "list_mail" {
		t.Errorf("smoke test: %+v", doc.Smoke)
	}

	// the default mixed pack (an MCP server) whose only action sends mail
	a = newAnswers()
	a.Tool.Actions[0] = scaffold.ActionAnswer{Name: "send_mail", Summary: "Sends a message.", SideEffects: "write", Inputs: []string{"to"}, ScopesUsed: []string{}}
	p := makePlan(testValidator, a)
	if p.Plan == nil {
		t.Fatalf("plan: %v %v", p.Err, p.Problems)
	}
	tool := p.Plan.File("tools/my-tool.tool.json")
	if err := json.Unmarshal(tool.Data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Smoke.Kind != "shell" {
		t.Errorf("the smoke test of a tool whose only action sends mail: %+v", doc.Smoke)
	}
}

func sum(t *testing.T, paths ...string) string {
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

// Bug 5: a signed release in the folder (the pack's folder moved away) is
// not replaced: the review lists where everything goes, the tarball and
// its sidecars already there are a problem with its fix, and the key the
// folder holds is the default, so the next release verifies with the same
// public key.
func TestReleaseNotReplaced(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	first := func() *answers {
		a := newAnswers()
		a.Pack.Name = "community.acme.weather"
		return a
	}
	d, w := wizardOn(t, first(), Options{DraftDir: dir})
	toPage(d, w, "review")
	if w.rev.Plan == nil || w.a.KeyChoice != "new" || w.a.KeyPath != "acme" {
		t.Fatalf("first run: key %s %s, problems %v", w.a.KeyChoice, w.a.KeyPath, w.rev.Problems)
	}
	d.Keys("enter")
	if !w.finished {
		t.Fatalf("first run: %q %v", w.err, w.rev.Problems)
	}
	release := []string{"community.acme.weather-0.1.0.tgz", "community.acme.weather-0.1.0.sig", "community.acme.weather-0.1.0.json", "acme.key", "acme.pub"}
	before := sum(t, release...)
	if err := os.Rename("weather", filepath.Join(t.TempDir(), "weather")); err != nil {
		t.Fatal(err)
	}

	a := first()
	d, w = wizardOn(t, a, Options{DraftDir: dir})
	toPage(d, w, "review")
	if a.KeyChoice != "existing" || a.KeyPath != "acme.key" || a.KeyID != "acme-1" {
		t.Errorf("the key default is not the key in the folder: %s %s %s", a.KeyChoice, a.KeyPath, a.KeyID)
	}
	if len(w.rev.Problems) != 1 {
		t.Fatalf("problems: %v", w.rev.Problems)
	}
	p := w.rev.Problems[0]
	if p.Field != "version" || !strings.Contains(p.Message, "community.acme.weather-0.1.0.tgz, community.acme.weather-0.1.0.sig and community.acme.weather-0.1.0.json already exist") ||
		!strings.Contains(p.Hint, "another version") {
		t.Errorf("the release in the folder: %+v", p)
	}
	if owner(a, p).pg.id != pageIdentity {
		t.Errorf("the problem leads to %s", owner(a, p).pg.id)
	}
	if sum(t, release...) != before {
		t.Fatal("the release was changed by the review")
	}

	a.Pack.Version = "0.2.0" // the fix: another version
	toPage(d, w, "review")
	if w.rev.Plan == nil {
		t.Fatalf("problems: %v", w.rev.Problems)
	}
	v := d.View()
	// (the paths are whole: issue 35, item 3)
	for _, want := range []string{"/weather: pack.json", "/acme.key (key id acme-1)",
		"/community.acme.weather-0.2.0.tgz, with its .sig and .json beside it"} {
		if !strings.Contains(strings.ReplaceAll(v, "\n", " "), want) {
			t.Errorf("the review does not say %q:\n%s", want, v)
		}
	}
	d.Keys("enter")
	if !w.finished {
		t.Fatalf("second run: %q %v", w.err, w.rev.Problems)
	}
	if sum(t, release...) != before {
		t.Error("the first release or the key was replaced")
	}
	if _, err := os.Stat("acme-2.key"); err == nil {
		t.Error("a new key was made although acme.key was there")
	}
	pub, err := sign.LoadPublicKey("acme.pub")
	if err != nil {
		t.Fatal(err)
	}
	if res := verify.File(context.Background(), "community.acme.weather-0.2.0.tgz", verify.Policy{Key: pub}); !res.Verified {
		t.Errorf("the second release does not verify with acme.pub: %+v", res.Error)
	}

	// the key in the folder cannot make a Sigstore bundle: it is not the
	// default then (issue 25, item 7), and chosen anyway it is a problem on
	// the review, not a failed write
	a = first()
	a.Pack.Version, a.SignMethod = "0.3.0", sign.MethodSigstore
	a.keyDefaults()
	if a.KeyChoice != "new" {
		t.Errorf("the folder's Ed25519 key is the default for a Sigstore bundle: %s %s", a.KeyChoice, a.KeyPath)
	}
	a = first()
	a.Pack.Version, a.SignMethod, a.KeyChoice, a.KeyPath = "0.3.0", sign.MethodSigstore, "existing", "acme.key"
	d, w = wizardOn(t, a, Options{Dir: "three", DraftDir: dir})
	toPage(d, w, "review")
	if len(w.rev.Problems) != 1 || w.rev.Problems[0].Field != "keyPath" || !strings.Contains(w.rev.Problems[0].Hint, "create a new key pair") {
		t.Errorf("an Ed25519 key for a Sigstore bundle: %+v", w.rev.Problems)
	}
}

// gitRepo makes dir a git work tree (skipping without git).
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the checkout test needs it")
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
}

func porcelain(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v %s", err, out)
	}
	return string(out)
}

// Bug 6: a wizard run inside a git checkout that does not ignore keys
// keeps the new private key out of it, in the user's configuration
// folder (0700, the key 0600), and says so on the review and in the
// summary; a key the checkout ignores stays in the folder.
func TestKeyOutsideCheckout(t *testing.T) {
	repo := t.TempDir()
	gitRepo(t, repo)
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Chdir(repo)
	a := newAnswers()
	a.Pack.Name = "community.acme.gitted"
	d, w := wizardOn(t, a, Options{DraftDir: t.TempDir()})
	toPage(d, w, "review")
	keys := filepath.Join(config, "wopkit", "keys")
	if a.KeyChoice != "new" || a.KeyPath != filepath.Join(keys, "acme") {
		t.Fatalf("key %s %s, problems %v", a.KeyChoice, a.KeyPath, w.rev.Problems)
	}
	if v := strings.ReplaceAll(d.View(), "\n", " "); !strings.Contains(v, "not in the git checkout") {
		t.Errorf("the review does not say where the key goes:\n%s", d.View())
	}
	d.Keys("enter")
	if !w.finished {
		t.Fatalf("not written: %q %v", w.err, w.rev.Problems)
	}
	if s := strings.Join(w.done, "\n"); !strings.Contains(s, filepath.Join(keys, "acme.key")) || !strings.Contains(s, "not in the git checkout") {
		t.Errorf("the summary does not say where the key went:\n%s", s)
	}
	st := porcelain(t, repo)
	if strings.Contains(st, ".key") || !strings.Contains(st, "gitted/pack.json") {
		t.Errorf("git status:\n%s", st)
	}
	if fi, err := os.Stat(filepath.Join(keys, "acme.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key: %v %v", err, fi)
	}
	if fi, _ := os.Stat(keys); fi.Mode().Perm() != 0o700 {
		t.Errorf("key folder mode %v", fi.Mode().Perm())
	}

	// a key typed into the checkout is a problem; one the checkout ignores is not
	a = newAnswers()
	a.Pack.Name, a.Pack.Version = "community.acme.gitted", "0.2.0"
	a.KeyChoice, a.KeyPath = "new", "local"
	d, w = wizardOn(t, a, Options{Dir: "two", DraftDir: t.TempDir()})
	toPage(d, w, "review")
	if len(w.rev.Problems) != 1 || w.rev.Problems[0].Field != "keyPath" || !strings.Contains(w.rev.Problems[0].Message, "into the git checkout") {
		t.Fatalf("a key typed into the checkout: %v", w.rev.Problems)
	}
	os.WriteFile(".gitignore", []byte("*.key\n"), 0o644)
	toPage(d, w, "review")
	if w.rev.Plan == nil {
		t.Fatalf("an ignored key: %v", w.rev.Problems)
	}
	d.Keys("enter")
	if st := porcelain(t, repo); !w.finished || strings.Contains(st, ".key") {
		t.Errorf("finished %v, git status:\n%s", w.finished, st)
	}
}
