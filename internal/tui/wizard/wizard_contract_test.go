package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// The wizard's contract (issue 25), checked over every field of every page
// of every kind the first page offers: a distinct valid answer typed into
// each text field lands in the written files; every answer is the same
// after going back through every page (^b), after shift+tab through every
// field, and after a kept draft is resumed.

// unwritten are the text fields whose answer is not in the written files,
// by key, with the document place it feeds and why it is not written.
var unwritten = map[string]string{
	// the license list's "another SPDX identifier" is hidden while a
	// listed license is chosen: its answer is /license, asked by the list.
	"license.other": "/license: asked by the list unless another identifier is chosen",
}

// named are the text fields that name something another answer uses (a
// template's {{slot}}, a step's {{params.x}}): typing another name would
// leave that use dangling, so the contract keeps the suggestion and checks
// that it lands; renaming both has tests of its own.
var named = map[string]string{
	"prompts.%d.variables.%d.name":   "the template text asked before uses {{name}}",
	"cards.%d.inputs.%d.id":          "the card's template asked before uses {{id}}",
	"chains.%d.parameters.%d.name":   "a step's config asked after uses {{params.name}}",
	"templates.%d.fields.%d.name":    "the form's layout uses the field name",
	"chains.%d.steps.%d.id":          "the chain's edges and outputs name the step",
	"chains.%d.outputs.%d.fromStep":  "names a step",
	"artifactTypes.%d.requiredProps": "names properties of the schema",
}

// isNamed reports whether key is one of named's.
func isNamed(key string) bool {
	for pat := range named {
		re := "^" + strings.ReplaceAll(regexp.QuoteMeta(pat), "%d", `\d+`) + "$"
		if regexp.MustCompile(re).MatchString(key) {
			return true
		}
	}
	return false
}

// answered is a text field's answer as the contract typed it.
type answered struct{ page, key, value string }

// candidates are the answers tried in a text field, in order, the first
// its check accepts typed: each carries the token tok, so that it can be
// found in the written files and differs from every other field's.
func candidates(sugg string, n int, before []string) []string {
	tok := fmt.Sprintf("zq%d", n)
	var out []string
	if strings.Contains(sugg, "{{") { // a template: keep what it uses
		out = append(out, sugg+" "+tok)
	}
	return append(append(out, tok,
		fmt.Sprintf("0.%d", 10+n%89),
		fmt.Sprintf("%d", 10+n),
		fmt.Sprintf("1.%d.0", n),
		"Zq"+tok[2:]+" words for this field.",
		fmt.Sprintf("https://%s.openwop.dev/x", tok),
		"x-"+tok,
		"ZQ"+tok[2:]+"_VALUE",
		"community.acme."+tok,
		"acme."+tok,
		"community.acme.evals."+tok,
		"mcp:"+tok,
		sugg+"-"+tok,
		sugg+"_"+tok,
		scaffold.ArtifactSyncOn()[len(scaffold.ArtifactSyncOn())-1],
	), before...) // one of the answers before it (a default among the options)
}

// contractWalk enters every page of the run from the current one to the
// review, typing into each text field not answered yet (seen) the first
// candidate its check accepts, and keeping every other choice.
func contractWalk(t *testing.T, d *driver, w *wizard, got *[]answered, seen map[string]bool) {
	t.Helper()
	for steps := 0; w.form != nil; steps++ {
		if steps > 600 {
			t.Fatalf("the walk does not reach the review (on %s/%d):\n%s", w.at.pg.id, w.at.i, d.View())
		}
		f := w.form.GetFocusedField()
		id := fmt.Sprintf("%s/%d/%d/%s", w.at.pg.id, w.at.i, w.at.j, f.GetKey())
		sh, isText := w.k.Suggest[f]
		switch f.(type) {
		case *huh.Input, *huh.Text:
			if !isText {
				t.Fatalf("%s: a text field not made by the asker (its suggestion and check are unknown):\n%s", id, d.View())
			}
		}
		if !isText || seen[id] || unwritten[f.GetKey()] != "" {
			seen[id] = true
			d.Keys("enter")
			continue
		}
		seen[id] = true
		if isNamed(f.GetKey()) && sh.Offered() != "" {
			*got = append(*got, answered{id, f.GetKey(), sh.Suggestion()})
			d.Keys("enter")
			continue
		}
		ok := false
		var before []string
		for _, g := range *got {
			before = append(before, g.value)
		}
		for _, c := range candidates(sh.Suggestion(), len(seen), before) {
			if check := w.k.Live[f]; check != nil && check(c) != nil || crossed(w, f, sh, c) {
				continue
			}
			form := w.form
			clearField(d, f)
			d.Keys("type:"+c, "enter")
			if w.form != form || w.form == nil || w.form.GetFocusedField() != f {
				*got = append(*got, answered{id, f.GetKey(), c})
				ok = true
				break
			}
		}
		if !ok {
			t.Fatalf("%s: no candidate answer is accepted:\n%s", id, d.View())
		}
	}
}

// crossed reports whether the whole answers have a problem at the field
// with text as its answer (the warning said as it is left, see crossCheck).
func crossed(w *wizard, f huh.Field, sh ask.Shown, text string) bool {
	was := sh.Text()
	sh.Set(text)
	w.sync()
	bad := w.crossProblem(f.GetKey()) != ""
	sh.Set(was)
	w.sync()
	return bad
}

// clearField empties a text field (backspaces over its text).
func clearField(d *driver, f huh.Field) {
	s, _ := f.GetValue().(string)
	for range []rune(s) {
		d.Keys("backspace")
	}
}

// snapshot is the answers without the page the author is on.
func snapshot(t *testing.T, a *answers) string {
	t.Helper()
	c := a.clone()
	c.Page, c.Entry, c.Sub = "", 0, 0
	b, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameAnswers fails with the first differing line when two snapshots differ.
func sameAnswers(t *testing.T, how, want, got string) {
	t.Helper()
	if want == got {
		return
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(wl), len(gl)) {
		if wl[i] != gl[i] {
			t.Errorf("%s changed an answer at line %d: %q became %q", how, i+1, wl[i], gl[i])
			return
		}
	}
	t.Errorf("%s changed the answers' length", how)
}

// backToStart presses key until the wizard is on its first page.
func backToStart(t *testing.T, d *driver, w *wizard, k tea.KeyPressMsg) {
	t.Helper()
	first := walk(w.a)[0]
	for i := 0; i < 800 && !(w.at.is(first) && w.form.GetFocusedField() == w.first); i++ {
		d.Send(k)
	}
	if !w.at.is(first) {
		t.Fatalf("%s does not lead back to the first page (on %s):\n%s", k, w.at.pg.id, d.View())
	}
}

// enterToReview presses enter until the review.
func enterToReview(t *testing.T, d *driver, w *wizard) {
	t.Helper()
	for i := 0; i < 800 && w.form != nil; i++ {
		d.Keys("enter")
	}
	if w.form != nil {
		t.Fatalf("enter does not reach the review (on %s):\n%s", w.at.pg.id, d.View())
	}
}

func TestWizardContract(t *testing.T) {
	for _, c := range offered() {
		t.Run(c.Value, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			a := newAnswers()
			a.SignMethod = "skip" // only write the files: the signing has tests of its own
			d, w := wizardOn(t, a, Options{What: c.Value, Dir: out, DraftDir: dir})
			var got []answered
			contractWalk(t, d, w, &got, map[string]bool{})
			if len(w.rev.Problems) > 0 || w.rev.Plan == nil {
				t.Fatalf("the review refuses the contract's answers:\n%s", d.View())
			}
			want := snapshot(t, a)

			backToStart(t, d, w, keyMsg("ctrl+b"))
			enterToReview(t, d, w)
			sameAnswers(t, "^b back through every page", want, snapshot(t, a))

			backToStart(t, d, w, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
			enterToReview(t, d, w)
			sameAnswers(t, "shift+tab back through every field", want, snapshot(t, a))

			if err := saveDraft(dir, a); err != nil {
				t.Fatal(err)
			}
			b, ok := loadDraft(dir)
			if !ok {
				t.Fatal("the draft does not load")
			}
			d, w = wizardOn(t, b, Options{Dir: out, DraftDir: dir})
			enterToReview(t, d, w)
			sameAnswers(t, "a kept draft resumed", want, snapshot(t, b))

			d.Keys("enter")
			if !w.finished || w.err != "" {
				t.Fatalf("not written: %q\n%s", w.err, d.View())
			}
			var written strings.Builder
			filepath.WalkDir(out, func(p string, e fs.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					data, _ := os.ReadFile(p)
					written.Write(data)
				}
				return nil
			})
			for _, g := range got {
				quoted, _ := json.Marshal(g.value)
				if !strings.Contains(written.String(), g.value) && !strings.Contains(written.String(), string(quoted[1:len(quoted)-1])) {
					t.Errorf("%s › %s: the answer %q is in no written file", g.page, g.key, g.value)
				}
			}
			if len(got) == 0 {
				t.Error("no text field was answered")
			}
		})
	}
}
