package wizard

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// A host's own format chosen and left empty is said once, in words (it
// said `"x-" is not a host's own format` about a value the author never
// typed, next to a second message about ""), and the problem goes as soon
// as a format is typed.
func TestHostFormatEmptySaidInWords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Name = "community.acme.formats"
	d, w := wizardOn(t, a, Options{What: scaffold.KindFormContent, DraftDir: dir, Dir: filepath.Join(dir, "out")})
	toPage(d, w, "field")
	if found, _ := ask.FocusKey(w.form, "templates.0.fields.0.format"); !found {
		t.Fatalf("no format field:\n%s", d.View())
	}
	for range len(scaffold.FormFieldFormats()) + 1 {
		d.Keys("down")
	}
	d.Keys("enter", "enter")
	v := flat(d.View())
	if strings.Count(v, "✗") != 1 || strings.Contains(v, `"x-"`) || strings.Contains(v, `""`) || !strings.Contains(v, "no host format typed") {
		t.Fatalf("an empty host format is not said once in words:\n%s", d.View())
	}
	d.Keys("type:x-phone")
	if v := flat(d.View()); strings.Contains(v, "✗") || w.live != "" {
		t.Fatalf("the problem outlives its fix:\n%s", d.View())
	}
	d.Keys("enter")
	if got := w.a.formPack().Templates[0].Fields[0].Format; got != "x-phone" {
		t.Errorf("format answer: %q", got)
	}
}

// The review's problem for a host format left as "x-" says the form in
// words, not the schema's regular expression.
func TestReviewFormatProblemInWords(t *testing.T) {
	a := newAnswers()
	a.What = scaffold.KindFormContent
	a.Pack.Name = "community.acme.formats"
	a.formPack().Templates[0].Fields[0].Format = scaffold.FormFormatOther
	p := makePlan(testValidator, a)
	if len(p.Problems) == 0 {
		t.Fatal("a bare x- format is not a problem")
	}
	for _, fe := range p.Problems {
		if s := fe.Message + " " + fe.Hint; strings.Contains(s, "regular expression") || strings.Contains(s, "^(") {
			t.Errorf("the problem names a regular expression: %s", s)
		}
	}
}

// A step given the id of the step before is said as the id is left (the
// duplicate and the cycle it makes); renamed, both problems go at once.
func TestRenamedDuplicateStepDropsItsProblems(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatChain, DraftDir: dir, Dir: filepath.Join(dir, "out")})
	first := a.chainPack().Chains[0].Steps[0].ID
	for _, at := range walk(w.a) {
		if at.pg.id == "step" && at.j == 1 {
			d.Run(w.move(at))
		}
	}
	clearField(d, w.form.GetFocusedField())
	d.Keys("type:"+first, "enter")
	if !strings.Contains(w.warn, "already used") || !strings.Contains(w.warn, "cycle") {
		t.Fatalf("a duplicate step id is not said as it is left: %q\n%s", w.warn, d.View())
	}
	d.Send(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	clearField(d, w.form.GetFocusedField())
	d.Keys("type:parse", "enter")
	if v := flat(d.View()); w.warn != "" || strings.Contains(v, "cycle") || strings.Contains(v, "already used") {
		t.Errorf("the problems outlive the rename: %q\n%s", w.warn, d.View())
	}
}

// shift+tab on a page's first field goes back to the last field of the
// page before (it landed on its first); ^b lands on the first.
func TestShiftTabBackLandsOnLastField(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatNodes, DraftDir: dir, Dir: filepath.Join(dir, "out")})
	d.Keys("enter")
	for i := 0; i < 40 && w.at.pg.id == pageIdentity; i++ {
		d.Keys("enter")
	}
	if w.at.pg.id == pageIdentity || w.form.GetFocusedField() != w.first {
		t.Fatalf("not on the next page's first field:\n%s", d.View())
	}
	next := w.at
	d.Send(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	if w.at.pg.id != pageIdentity {
		t.Fatalf("shift+tab did not go back a page (on %s)", w.at.pg.id)
	}
	last := w.form.GetFocusedField()
	if last == w.first {
		t.Fatalf("shift+tab landed on the first field of the page before:\n%s", d.View())
	}
	d.Keys("enter")
	if !w.at.is(next) {
		t.Errorf("enter on the field shift+tab landed on does not lead to the page after (on %s): it is not the last", w.at.pg.id)
	}
	d.Send(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, keyMsg("ctrl+b"))
	if w.form.GetFocusedField() != w.first {
		t.Errorf("^b does not land on the page's first field:\n%s", d.View())
	}
}
