package wizard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/validate"
)

// One test per bug of issue 11, each failing on the wizard before it.

func strictValid(t *testing.T, path string) {
	t.Helper()
	v, _ := validate.New(validate.Options{Strict: true})
	rep, err := v.Path(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, pr := range rep.Problems() {
		t.Error(pr.String())
	}
}

func wizardOn(t *testing.T, a *answers, opts Options) (*driver, *wizard) {
	t.Helper()
	return wizardIn(t, a, session{Options: opts})
}

// wizardIn is wizardOn with the run's own state given too.
func wizardIn(t *testing.T, a *answers, s session) (*driver, *wizard) {
	t.Helper()
	d := newDriver(t, func(ctx *common.Context) tui.Screen { return newWizard(ctx, ask.Asker{V: testValidator}, a, s) })
	return d, d.App.Top().(*wizard)
}

// enterUntil presses enter until the wizard is on page id.
func enterUntil(t *testing.T, d *driver, w *wizard, id string) {
	t.Helper()
	for i := 0; i < 80 && w.at.pg.id != id; i++ {
		d.Keys("enter")
	}
	if w.at.pg.id != id {
		t.Fatalf("enter did not reach %s (on %s/%d)\n%s", id, w.at.pg.id, w.at.i, d.View())
	}
}

// Bug 1: a tool manifest with environment variables (one secret), two
// scopes and two actions is finished in the full-screen wizard: each
// variable's prompt is asked, every entry reaches the file, and the kill
// switch offered first is the one the answers call for.
func TestWizardToolWithEnvScopesActions(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatTool, Dir: dir, DraftDir: dir})
	enterUntil(t, d, w, "envs")
	d.Keys("down", "enter") // add a variable
	if w.at.pg.id != "env" || !strings.Contains(d.View(), "Prompt") {
		t.Fatalf("the variable's page does not ask its prompt:\n%s", d.View())
	}
	d.Keys("type:ACME_API_KEY", "enter", "type:Your Acme API key, from acme.example/settings", "enter", "y", "enter")
	if w.at.pg.id != "envs" {
		t.Fatalf("after the variable: %s\n%s", w.at.pg.id, d.View())
	}
	d.Keys("down", "enter", "type:ACME_REGION", "enter", "enter", "n", "enter")
	if !strings.Contains(d.View(), "2 environment variables: ACME_API_KEY (secret), ACME_REGION") {
		t.Fatalf("the list does not show both:\n%s", d.View())
	}
	d.Keys("enter") // continue
	if w.at.pg.id != "scopes" {
		t.Fatalf("on %s", w.at.pg.id)
	}
	d.Keys("down", "enter")
	enterUntil(t, d, w, "scopes")
	d.Keys("down", "enter", "type:gmail.messages")
	enterUntil(t, d, w, "scopes")
	d.Keys("enter") // continue: the first action's page
	enterUntil(t, d, w, "actions")
	d.Keys("down", "enter", "type:list_mail")
	enterUntil(t, d, w, "actions")
	d.Keys("enter")
	if w.at.pg.id != "safety" {
		t.Fatalf("on %s", w.at.pg.id)
	}
	d.Keys("enter") // smoke test kept; the kill switch is focused
	if v := d.View(); !strings.Contains(v, "> from the answers: manual") {
		t.Errorf("the kill switch does not offer the honest choice first:\n%s", v)
	}
	d.Keys("enter")
	if w.at.pg.id != "review" || w.rev.Plan == nil {
		t.Fatalf("review: %v %v\n%s", w.rev.Err, w.rev.Problems, d.View())
	}
	d.Keys("enter")
	if !w.finished || w.err != "" {
		t.Fatalf("not written: %q\n%s", w.err, d.View())
	}
	path := filepath.Join(dir, "my-tool.tool.json")
	strictValid(t, path)
	var doc struct {
		Env     []struct{ Name, Prompt string } `json:"env"`
		Scopes  []struct{ Resource string }     `json:"scopes"`
		Actions []struct{ Name string }         `json:"actions"`
		Kill    struct{ Kind string }           `json:"kill_switch"`
	}
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Env) != 2 || doc.Env[0].Prompt != "Your Acme API key, from acme.example/settings" || len(doc.Scopes) != 2 ||
		len(doc.Actions) != 2 || doc.Actions[1].Name != "list_mail" || doc.Kill.Kind != "manual" {
		t.Errorf("manifest:\n%s", b)
	}
}

// Bug 1 and 6, accessible mode: the same manifest from answers piped on
// stdin, lists included; the prompt is asked and nothing is asked twice.
func TestAccessibleToolFromStdin(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		"", "", "", "", "", "", "", "", "", // tool id, version, name, summary, homepage, licence, runtime kind, install method, package
		"2", "ACME_API_KEY", "Your Acme API key", "y", "", // add a variable
		"2", "ACME_REGION", "The region", "n", "", // and another
		"1",
		"2", "net.outbound", "", "", // a scope (no sensitivity: asked for private data only)
		"2", "gmail.messages", "read", "reads the inbox", "3", // a private-data scope, high sensitivity
		"1",
		"", "", "", "", "net.outbound", // the first action
		"2", "list_mail", "Lists mail.", "2", "", "gmail.messages", // another, reading
		"1",
		"", "", // smoke test, kill switch
	}
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	opts := Options{What: whatTool, Dir: dir, DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	if err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts}); err != nil {
		t.Fatalf("accessible run: %v\n%s", err, out.String())
	}
	strictValid(t, filepath.Join(dir, "my-tool.tool.json"))
	b, _ := os.ReadFile(filepath.Join(dir, "my-tool.tool.json"))
	for _, want := range []string{`"ACME_REGION"`, `"Your Acme API key"`, `"gmail.messages"`, `"list_mail"`, `"manual"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s missing:\n%s", want, b)
		}
	}
	if strings.Contains(out.String(), "problem") {
		t.Errorf("the review found problems:\n%s", out.String())
	}
}

// Bug 2: with problems in three sections, enter on each opens its own
// page; shift+tab on a page's first field goes to the page before; b on
// the review goes back without typing into a field.
func TestReviewSectionsAndBack(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Version = "1.0"
	a.Pack.Agents[0].Persona = strings.Repeat("p", 201)
	a.Tool.Env = []scaffold.EnvAnswers{{Name: "ACME_KEY", Prompt: strings.Repeat("p", 801), Required: true}} // a prompt too long
	d, w := wizardOn(t, a, Options{Dir: filepath.Join(dir, "out"), DraftDir: dir})
	toPage(d, w, "review")
	want := map[string]string{"version": pageIdentity, "agents.0.persona": "agent", "env.0.prompt": "env"}
	if len(w.rev.Problems) != 3 {
		t.Fatalf("problems: %v", w.rev.Problems)
	}
	for n, p := range w.rev.Problems {
		toPage(d, w, "review")
		for range n {
			d.Keys("down")
		}
		d.Keys("enter")
		if w.at.pg.id != want[p.Field] || w.form.GetFocusedField().GetKey() != p.Field {
			t.Errorf("problem %s opened %s at %s", p.Field, w.at.pg.id, w.form.GetFocusedField().GetKey())
		}
	}
	toPage(d, w, "runtime")
	d.Keys("shift+tab")
	if w.at.pg.id != pageIdentity {
		t.Errorf("shift+tab on the first field went to %s", w.at.pg.id)
	}
	toPage(d, w, "sign")
	d.Keys("enter", "enter", "enter", "enter", "enter", "enter") // v2, new key, key file, key id, passphrase twice (empty): the review
	if w.at.pg.id != "review" {
		t.Fatalf("on %s", w.at.pg.id)
	}
	before := a.KeyID
	d.Keys("b")
	if w.at.pg.id != "sign" || a.KeyID != before || strings.Contains(a.KeyPath, "b") && !strings.Contains(before, "b") {
		t.Errorf("b on the review: page %s, key %q %q", w.at.pg.id, a.KeyPath, a.KeyID)
	}
}

// Bug 3: what would fail after the review is a problem on the review,
// before anything is written: files already in the target, an existing
// key pair, an existing key that does not load. A failure while writing
// leaves nothing behind, keeps the draft and is reported.
func TestReviewChecksBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := newAnswers()
	a.Pack.Name = "community.acme.twice"
	os.MkdirAll("twice", 0o755)
	os.WriteFile(filepath.Join("twice", "pack.json"), []byte("{}"), 0o644)
	os.WriteFile("acme.key", []byte("x"), 0o600)
	a.KeyPath = "acme" // typed: a free name is only the suggestion
	d, w := wizardOn(t, a, Options{DraftDir: dir})
	toPage(d, w, "review")
	got := map[string]string{}
	for _, p := range w.rev.Problems {
		got[p.Field] = p.Message + " / " + p.Hint
	}
	if !strings.Contains(got["name.part"], "twice already holds pack.json") || !strings.Contains(got["keyPath"], "acme.key already exists") ||
		!strings.Contains(got["keyPath"], "e.g. acme-2") {
		t.Fatalf("problems: %v", got)
	}
	for _, p := range w.rev.Problems {
		if strings.Contains(p.Hint, "--") {
			t.Errorf("hint names a flag: %s", p.Hint)
		}
	}
	if _, err := os.Stat("acme.pub"); err == nil {
		t.Error("something was written")
	}
	// the folder is named after the name's last part: enter on its problem
	// focuses that field (not the organisation)
	for n, p := range w.rev.Problems {
		if p.Field != "name.part" {
			continue
		}
		toPage(d, w, "review")
		for range n {
			d.Keys("down")
		}
		d.Keys("enter")
		if w.at.pg.id != pageIdentity || w.form.GetFocusedField().GetKey() != "name.part" {
			t.Errorf("the folder problem opened %s at %s", w.at.pg.id, w.form.GetFocusedField().GetKey())
		}
	}
	a.KeyChoice, a.KeyPath = "existing", "acme"
	toPage(d, w, "review")
	if p := owner(a, w.rev.Problems[len(w.rev.Problems)-1]); p.pg.id != "sign" {
		t.Errorf("a key that does not load leads to %s: %v", p.pg.id, w.rev.Problems)
	}

	// a failure while packing (the tarball's folder is a file): nothing
	// stays, the draft is kept, the outcome is a failure
	os.RemoveAll("twice")
	os.Remove("acme.key")
	a.KeyChoice, a.KeyPath = "new", "acme"
	os.WriteFile("blocker", []byte("x"), 0o644)
	d, w = wizardOn(t, a, Options{DraftDir: dir, Output: filepath.Join("blocker", "out.tgz")})
	toPage(d, w, "review")
	if w.rev.Plan == nil {
		t.Fatalf("problems: %v", w.rev.Problems)
	}
	d.Keys("enter")
	if w.finished || w.out.err == nil || len(w.rev.Problems) != 1 || !strings.Contains(w.rev.Problems[0].Message, "draft") {
		t.Fatalf("a failed run: finished %v, err %v, problems %v", w.finished, w.out.err, w.rev.Problems)
	}
	for _, f := range []string{"twice", "acme.key", "acme.pub"} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s left behind", f)
		}
	}
	if _, ok := loadDraft(dir); !ok {
		t.Error("no draft kept")
	}
}

// Bug 4: a key sent right after enter lands in the next field, even before
// the commands enter returned have run.
func TestKeysAfterEnterLandInNextField(t *testing.T) {
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatNodes, DraftDir: t.TempDir()})
	d.Keys("enter") // scope
	w.Update(keyMsg("enter"))
	w.Update(tea.KeyPressMsg{Code: 'z', Text: "z"})
	if a.Pack.Name != "community.example.z" {
		t.Errorf("the key after enter went elsewhere: name %q", a.Pack.Name)
	}
}

// Bug 6: with NO_COLOR, the focused Yes/No button is marked.
func TestPlainButtonsMarkTheChoice(t *testing.T) {
	a := newAnswers()
	d, w := wizardOn(t, a, Options{DraftDir: t.TempDir()})
	toPage(d, w, "agent")
	for i := 0; i < 20 && !strings.Contains(d.View(), "Add an eval suite"); i++ {
		d.Keys("enter")
	}
	if !strings.Contains(d.View(), "[Yes]") || strings.Contains(d.View(), "[No]") {
		t.Errorf("the chosen button is not marked:\n%s", d.View())
	}
	d.Keys("right") // → is the right option, No (issue 25, item 5)
	if !strings.Contains(d.View(), "[No]") {
		t.Errorf("the chosen button is not marked:\n%s", d.View())
	}
}

// Bug 7: suggestions are placeholders: typing replaces them; the help names
// ctrl+u.
func TestSuggestionsArePlaceholders(t *testing.T) {
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatNodes, DraftDir: t.TempDir()})
	d.Keys("enter", "type:acme", "enter", "enter")
	if a.Pack.Name != "community.acme.my-pack" {
		t.Errorf("typing did not replace the suggestion: %q", a.Pack.Name)
	}
	if !strings.Contains(d.View(), "→ edit suggestion") { // the field is empty: → takes the suggestion (issue 17)
		t.Errorf("the help does not name →:\n%s", d.View())
	}
	d.Keys("type:0.2.0")
	if !strings.Contains(d.View(), "^u clear") {
		t.Errorf("the help does not name ctrl+u:\n%s", d.View())
	}
	d.Keys("enter")
	if a.Pack.Version != "0.2.0" || w.at.pg.id != pageIdentity {
		t.Errorf("version %q", a.Pack.Version)
	}
}

// Bug 8: esc while searching the license list stops the search; ctrl+e
// without $EDITOR says so; the quit dialog's text and help agree on esc.
func TestEscStopsSearchAndEditorNamed(t *testing.T) {
	t.Setenv("EDITOR", "")
	t.Setenv("VISUAL", "")
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatNodes, DraftDir: t.TempDir()})
	for i := 0; i < 8 && w.form.GetFocusedField().GetKey() != "license"; i++ {
		d.Keys("enter")
	}
	d.Keys("/", "type:MI", "esc")
	if _, ok := d.App.Top().(*wizard); !ok || w.filtering {
		t.Fatalf("esc in the license search left the page:\n%s", d.View())
	}
	answered := newAnswers()
	answered.Pack.Author = "Acme" // an answer to keep: esc asks about a draft
	d, w = wizardOn(t, answered, Options{DraftDir: t.TempDir()})
	toPage(d, w, "agent")
	for i := 0; i < 8 && !strings.Contains(d.View(), "┃ System prompt"); i++ {
		d.Keys("enter")
	}
	d.Keys("ctrl+e")
	if !strings.Contains(d.View(), "$EDITOR is not set") {
		t.Errorf("ctrl+e without $EDITOR is silent:\n%s", d.View())
	}
	d.Keys("esc")
	v := d.View()
	if strings.Count(v, "esc go back") != 2 {
		t.Errorf("the dialog and its help disagree on esc:\n%s", v)
	}
}

// Bug 9: a draft resumes on the page it was left on; leaving with a draft
// leaves a note; the review shows the selected problem whole.
func TestDraftResumesWhereLeft(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	d, w := wizardOn(t, a, Options{DraftDir: dir})
	toPage(d, w, "tool")
	d.Keys("esc", "y")
	if len(w.out.notes) != 1 || !strings.Contains(w.out.notes[0], "kept a draft") {
		t.Errorf("notes %q", w.out.notes)
	}
	got, ok := loadDraft(dir)
	if !ok {
		t.Fatal("no draft")
	}
	d2, w2 := wizardOn(t, got, Options{DraftDir: dir})
	if w2.at.pg.id != "tool" {
		t.Errorf("resumed on %s", w2.at.pg.id)
	}
	_ = d2
}

// Bug 10: help texts do not cite the spec's documents; counts agree with
// their nouns.
func TestHelpInPlainWords(t *testing.T) {
	a := newAnswers()
	a.Pack.Agents = append(a.Pack.Agents, scaffold.NewAgent(1))
	a.Tool.Env = []scaffold.EnvAnswers{scaffold.NewEnv(0)}
	a.Tool.Scopes = []scaffold.ScopeAnswers{scaffold.NewScope(0)}
	d, w := wizardOn(t, a, Options{DraftDir: t.TempDir()})
	for _, at := range walk(a) {
		if at.pg.groups == nil {
			continue
		}
		d.Run(w.move(at))
		for _, never := range []string{"RFC", "§", "`"} {
			if v := d.View(); strings.Contains(v, never) {
				t.Errorf("page %s shows %q:\n%s", at.pg.id, never, v)
			}
		}
	}
	a.Pack.Version = "1"
	toPage(d, w, "review")
	if !strings.Contains(d.View(), "1 problem stops") {
		t.Errorf("count:\n%s", d.View())
	}
}

// Bug 5: a mixed pack's tool manifest is part of the pack: its agents allow
// the tool, validate of the pack checks the manifest (OW018), pack packs it
// and the README lists it.
func TestMixedPackShipsItsTool(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Name = "community.acme.mixed"
	p := makePlan(testValidator, a)
	if p.Plan == nil {
		t.Fatalf("plan: %v %v", p.Err, p.Problems)
	}
	if !strings.Contains(p.Manifest, `"mcp:my-tool"`) {
		t.Errorf("the agent does not allow the tool:\n%s", p.Manifest)
	}
	if f := p.Plan.File("README.md"); f == nil || !strings.Contains(string(f.Data), "tools/my-tool.tool.json") {
		t.Error("the README does not list the tool")
	}
	pdir := filepath.Join(dir, "mixed")
	if err := p.Plan.Write(pdir, false); err != nil {
		t.Fatal(err)
	}
	rep, err := testValidator.Path(pdir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range rep.Files {
		paths = append(paths, f.Path)
	}
	if !strings.Contains(strings.Join(paths, " "), "tools/my-tool.tool.json") || !rep.Valid {
		t.Errorf("validate of the pack: valid %v, files %v", rep.Valid, paths)
	}
	res, err := pack.Pack(context.Background(), pack.Options{Dir: pdir, DryRun: true, Validate: validate.BeforePack})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range res.Files {
		found = found || f.Path == "tools/my-tool.tool.json"
	}
	if !found {
		t.Errorf("not packed: %v", res.Files)
	}
	// a broken shipped manifest is a problem of the pack
	os.WriteFile(filepath.Join(pdir, "tools", "my-tool.tool.json"), []byte(`{"manifest_version": "0.4"}`), 0o644)
	rep, _ = testValidator.Path(pdir)
	if rep.Valid || !strings.Contains(fmt.Sprint(rep.Files[0].Errors), "OW018") {
		t.Errorf("a broken tool manifest is not reported: %+v", rep.Files[0].Errors)
	}
}

// A new key pair in a folder that does not exist yet is written there (the
// folder made 0700, as keygen --out does); a key path under a file is a
// problem on the review, naming the key file, before anything is written.
func TestKeyInANewFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := newAnswers()
	a.Pack.Name = "community.acme.keyed"
	os.WriteFile("blocker", []byte("x"), 0o644)
	a.KeyChoice, a.KeyPath = "new", filepath.Join("blocker", "acme")
	d, w := wizardOn(t, a, Options{DraftDir: dir})
	toPage(d, w, "review")
	var msgs []string
	for _, p := range w.rev.Problems {
		msgs = append(msgs, p.Field+": "+p.Message)
	}
	if len(w.rev.Problems) != 1 || w.rev.Problems[0].Field != "keyPath" || !strings.Contains(w.rev.Problems[0].Message, "blocker is not a folder") {
		t.Fatalf("a key path under a file: %v", msgs)
	}

	a.KeyPath = filepath.Join("keys", "new", "acme")
	toPage(d, w, "review")
	if w.rev.Plan == nil || len(w.rev.Problems) != 0 {
		t.Fatalf("a key in a folder still to make: %v", w.rev.Problems)
	}
	d.Keys("enter")
	if !w.finished || w.out.err != nil {
		t.Fatalf("write: finished %v err %v problems %v", w.finished, w.out.err, w.rev.Problems)
	}
	fi, err := os.Stat(filepath.Join("keys", "new", "acme.key"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", err, fi)
	}
	if di, _ := os.Stat(filepath.Join("keys", "new")); di.Mode().Perm() != 0o700 {
		t.Errorf("key folder mode %v", di.Mode().Perm())
	}
}
