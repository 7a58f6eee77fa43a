package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// Issue 17, item 10: a duplicate node id, a licence that is not an SPDX id
// and a key typed as acme for acme.key used to pass their pages and fail
// at the review. Leaving the field now says the problem, and goes on.
func TestChecksWhenLeavingTheField(t *testing.T) {
	cases := []struct {
		name, page, key, want string
		set                   func(a *answers, dir string)
	}{
		{"duplicate node id", "node", "nodes.1.id", "is already used at Node 1 › Node id", func(a *answers, _ string) {
			a.Pack.Nodes = append(a.Pack.Nodes, scaffold.NewNode(1))
			a.Pack.Nodes[1].ID = a.Pack.Nodes[0].ID
		}},
		{"licence not an SPDX id", pageIdentity, "license.other", "not an SPDX license identifier", func(a *answers, _ string) {
			a.Pack.License = "Apache-2"
		}},
		{"key typed without .key", "sign", "keyPath", "is not a private key file", func(a *answers, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "acme.key"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			a.KeyChoice, a.KeyPath = "existing", "acme" // short: the whole page fits, footer included
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			a := newAnswers()
			a.Pack.Name = "community.acme.cross"
			c.set(a, dir)
			d, w := wizardOn(t, a, Options{Dir: filepath.Join(dir, "out"), DraftDir: dir})
			found := false
			for _, at := range walk(w.a) {
				if at.pg.id == c.page {
					d.Run(w.move(at))
					if w.form != nil {
						if found, _ = ask.FocusKey(w.form, c.key); found {
							break
						}
					}
				}
			}
			if !found {
				t.Fatalf("no field %s on page %s\n%s", c.key, c.page, d.View())
			}
			// Issue 25, item 9: the problem is said as the field is left,
			// and the focus goes on (one rule for every field: a second
			// enter was needed, and the next answer typed went on the end
			// of the same field).
			d.Keys("enter")
			if w.form == nil || w.at.pg.id == c.page && w.form.GetFocusedField().GetKey() == c.key {
				t.Fatalf("leaving %s with a problem the review lists kept the focus:\n%s", c.key, d.View())
			}
			if w.form != nil && strings.Count(flat(d.View()), c.want) != 1 {
				t.Fatalf("leaving %s: the problem (%q) is not said once:\n%s", c.key, c.want, d.View())
			}
		})
	}
}

// flat joins a view's lines, so that a message wrapped over lines is found.
func flat(v string) string { return strings.Join(strings.Fields(v), " ") }

// Issue 17, item 13: the multi-line system prompt names the key that
// starts a new line (enter goes on to the next field).
func TestNewLineKeyNamed(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Name = "community.acme.lines"
	d, w := wizardOn(t, a, Options{Dir: filepath.Join(dir, "out"), DraftDir: dir})
	toPage(d, w, "agent")
	if found, _ := ask.FocusKey(w.form, "agents.0.systemPrompt"); !found {
		t.Fatalf("no system prompt field on the agent page:\n%s", d.View())
	}
	if v := flat(d.View()); !strings.Contains(v, "alt+enter (or ctrl+j) starts a new line") {
		t.Errorf("the multi-line field does not name the new-line key:\n%s", d.View())
	}
}

// Issue 17, item 13: "remove" on a list page used to delete at once, with
// no way back. The page now says what was removed and offers, once, to put
// it back as it was.
func TestRemoveCanBeUndone(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Tool.Env = []scaffold.EnvAnswers{scaffold.NewEnv(0), scaffold.NewEnv(1)}
	a.Tool.Env[0].Name, a.Tool.Env[1].Name = "WEATHER_UNITS", "WEATHER_API_KEY"
	yes := true
	a.Tool.Env[1].Prompt, a.Tool.Env[1].Secret = "Your key from weather.example", &yes
	d, w := wizardOn(t, a, Options{What: whatTool, Dir: dir, DraftDir: dir})
	enterUntil(t, d, w, "envs")
	// continue, add, edit ×2, remove WEATHER_UNITS, remove WEATHER_API_KEY
	d.Keys("down", "down", "down", "down", "down", "enter")
	if len(w.a.Tool.Env) != 1 {
		t.Fatalf("remove did not remove: %+v\n%s", w.a.Tool.Env, d.View())
	}
	v := d.View()
	if !strings.Contains(v, "removed WEATHER_API_KEY (secret)") || !strings.Contains(v, "undo: put WEATHER_API_KEY (secret) back") {
		t.Fatalf("the list page does not offer the removed entry back:\n%s", v)
	}
	d.Keys("down", "enter")
	if len(w.a.Tool.Env) != 2 || w.a.Tool.Env[1].Name != "WEATHER_API_KEY" || w.a.Tool.Env[1].Secret == nil || !*w.a.Tool.Env[1].Secret ||
		w.a.Tool.Env[1].Prompt != "Your key from weather.example" {
		t.Fatalf("undo did not put the entry back as it was: %+v", w.a.Tool.Env)
	}
	if strings.Contains(d.View(), "undo:") {
		t.Errorf("undo is still offered after it was used:\n%s", d.View())
	}
}

// Issue 17, item 13: a standalone tool manifest asks its homepage and
// licence (it used to write example.com and no licence, unasked).
func TestToolAsksHomepageAndLicence(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		"", "", "", "", "https://acme.example/weather", "MPL-2.0", "", "", "", // id, version, name, summary, homepage, licence, runtime, install, package
		"1", "1", // no variable, no scope
		"", "", "", "", "1", // the action kept
		"", "",
	}
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	opts := Options{What: whatTool, Dir: dir, DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	if err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts}); err != nil {
		t.Fatalf("accessible run: %v\n%s", err, out.String())
	}
	if s := out.String(); !strings.Contains(s, "Homepage") || !strings.Contains(s, "License (SPDX)") {
		t.Errorf("homepage and licence are not asked:\n%s", s)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.tool.json"))
	if len(paths) != 1 {
		t.Fatalf("tool manifests written: %v", paths)
	}
	strictValid(t, paths[0])
	var doc struct {
		Tool struct{ Homepage, License string }
	}
	b, _ := os.ReadFile(paths[0])
	if err := json.Unmarshal(b, &doc); err != nil || doc.Tool.Homepage != "https://acme.example/weather" || doc.Tool.License != "MPL-2.0" {
		t.Errorf("written: %+v (%v)", doc.Tool, err)
	}
}

// A draft kept by the wizard before the kinds had one place ("prompt":
// {...} at the top) resumes with its answers: nothing the author typed is
// lost to the new shape ("kinds": {"prompt": {...}}).
func TestDraftOfTheOldShapeResumes(t *testing.T) {
	p := scaffold.PromptPackAnswers{}.Defaults()
	p.Prompts[0].ID = "kept-template"
	old, err := json.Marshal(map[string]any{"what": scaffold.KindPrompt, "pack": scaffold.PackAnswers{}.Defaults(), "prompt": p,
		"signMethod": "skip", "page": pageIdentity})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plantStateDraft(t, dir, old)
	a, ok := loadDraft(dir)
	if !ok {
		t.Fatal("the old draft is not read")
	}
	if got := declaredOf[scaffold.PromptPackAnswers](a, scaffold.KindPrompt); len(got.Prompts) == 0 || got.Prompts[0].ID != "kept-template" {
		t.Errorf("the prompt answers of the old draft are lost: %+v", got.Prompts)
	}
}

// Issue 17, item 13: a message that names another place of the document
// ("already used at /nodes/0/typeId (line 16)") names it as the pages
// do, in the review and on the field.
func TestPlacesInWords(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Name = "community.acme.places"
	a.Pack.Nodes = append(a.Pack.Nodes, scaffold.NewNode(1))
	a.Pack.Nodes[1].ID = a.Pack.Nodes[0].ID
	d, w := wizardOn(t, a, Options{Dir: filepath.Join(dir, "out"), DraftDir: dir})
	got := w.placesInWords(w.a, "node typeId \"x\" is already used at /nodes/0/typeId (line 16)")
	if strings.Contains(got, "/nodes/0") || strings.Contains(got, "line 16") || !strings.Contains(got, "Node id") {
		t.Errorf("placesInWords: %q", got)
	}
	toPage(d, w, "review")
	d.Keys("down") // the selected problem is shown whole
	v := flat(d.View())
	if strings.Contains(v, "/nodes/0/typeId") || !strings.Contains(v, "is already used at Node 1 › Node id") {
		t.Errorf("the review names a place by its pointer:\n%s", d.View())
	}
}

// Issue 17, item 13: a form field's Format was typed, and a wrong one was
// refused with the schema's regular expression. It is now a choice; a
// host's own format is typed apart and refused in words.
func TestFormFormatIsAChoice(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Name = "community.acme.formats"
	d, w := wizardOn(t, a, Options{What: scaffold.KindFormContent, DraftDir: dir, Dir: filepath.Join(dir, "out")})
	toPage(d, w, "field")
	key := "templates.0.fields.0.format"
	if found, _ := ask.FocusKey(w.form, key); !found {
		t.Fatalf("no format field:\n%s", d.View())
	}
	v := d.View()
	for _, want := range []string{"none", "email", "date-time", "a host's own format (x-…)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the format choice does not offer %q:\n%s", want, v)
		}
	}
	n := len(scaffold.FormFieldFormats()) + 1
	for range n {
		d.Keys("down")
	}
	d.Keys("enter")
	if f := w.form.GetFocusedField(); f == nil || f.GetKey() != key+".other" {
		t.Fatalf("choosing a host's own format does not ask it:\n%s", d.View())
	}
	d.Keys("type:X Phone", "enter")
	v = flat(d.View())
	if !strings.Contains(v, "is not a host's own format") || strings.Contains(v, "^(") || strings.Contains(v, "[a-z]") {
		t.Fatalf("a wrong host format is not refused in words:\n%s", d.View())
	}
	d.Keys("ctrl+u", "type:x-phone", "enter")
	if got := w.a.formPack().Templates[0].Fields[0].Format; got != "x-phone" {
		t.Errorf("format answer: %q", got)
	}
}

// Issue 17, item 13: a field's own check names it by its title on screen,
// not by the document's JSON name (`version`, `typeId`).
func TestFieldChecksSayTheTitle(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Name = "community.acme.titles"
	d, w := wizardOn(t, a, Options{Dir: filepath.Join(dir, "out"), DraftDir: dir})
	toPage(d, w, pageIdentity)
	if found, _ := ask.FocusKey(w.form, "version"); !found {
		t.Fatal("no version field")
	}
	d.Keys("ctrl+u", "type:1.0", "enter")
	v := flat(d.View())
	if !strings.Contains(v, "does not have the form Version needs") || strings.Contains(v, "`version`") {
		t.Errorf("the version's refusal does not say its title:\n%s", d.View())
	}
}

// The host format in accessible mode from a pipe: the page is built again
// after each question, and choosing a host's own format still asks it.
func TestFormHostFormatAccessible(t *testing.T) {
	dir := t.TempDir()
	lines := make([]string, 19) // the identity and form pages' suggestions, then the first field's id, type, label
	lines = append(lines, "7", "x-phone")
	for range 60 {
		lines = append(lines, "")
	}
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	opts := Options{What: scaffold.KindFormContent, Dir: filepath.Join(dir, "forms"), DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	a := newAnswers()
	a.SignMethod = "skip"
	if err := runAccessible(context.Background(), ask.Asker{V: testValidator}, a, session{Options: opts}); err != nil {
		t.Fatalf("accessible run: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "Host format") {
		t.Fatalf("choosing a host's own format does not ask it:\n%s", out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "forms", "pack.json"))
	if err != nil || !strings.Contains(string(b), `"format": "x-phone"`) {
		t.Errorf("the host format is not written (%v):\n%s", err, b)
	}
}
