package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
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
	d, w := wizardOn(t, a, NewOptions{What: scaffold.KindFormContent, DraftDir: dir, Dir: filepath.Join(dir, "out")})
	toPage(d, w, "field")
	if found, _ := focusKey(w.form, "templates.0.fields.0.format"); !found {
		t.Fatalf("no format field:\n%s", d.view())
	}
	for range len(scaffold.FormFieldFormats()) + 1 {
		d.keys("down")
	}
	d.keys("enter", "enter")
	v := flat(d.view())
	if strings.Count(v, "✗") != 1 || strings.Contains(v, `"x-"`) || strings.Contains(v, `""`) || !strings.Contains(v, "no host format typed") {
		t.Fatalf("an empty host format is not said once in words:\n%s", d.view())
	}
	d.keys("type:x-phone")
	if v := flat(d.view()); strings.Contains(v, "✗") || w.live != "" {
		t.Fatalf("the problem outlives its fix:\n%s", d.view())
	}
	d.keys("enter")
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
	if len(p.problems) == 0 {
		t.Fatal("a bare x- format is not a problem")
	}
	for _, fe := range p.problems {
		if s := fe.Message + " " + fe.Hint; strings.Contains(s, "regular expression") || strings.Contains(s, "^(") {
			t.Errorf("the problem names a regular expression: %s", s)
		}
	}
}
