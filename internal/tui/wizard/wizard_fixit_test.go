package wizard

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// Issue 17, item 9: "fix it" opens the page and field the fix needs, the
// problem said there, and problems and hints use the labels on screen.

// reviewOf walks a wizard started on what (answers a) to its review and
// returns the review's text.
func reviewOf(t *testing.T, a *answers, what string) (*driver, *wizard, string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	a.SignMethod = "skip"
	d, w := wizardOn(t, a, Options{What: what, DraftDir: dir})
	d.Run(w.move(w.reviewPos())) // the review, as the review is reached
	if len(w.rev.Problems) == 0 {
		t.Fatalf("no problem:\n%s", d.View())
	}
	return d, w, strings.Join(strings.Fields(d.View()), " ") // words as on screen, whatever the wrapping
}

// noJSONWords fails when the screen names answers by their paths or the
// document's JSON names.
func noJSONWords(t *testing.T, screen string, words ...string) {
	t.Helper()
	for _, w := range append(words, "agents.0.", "prompts.0.", "cards.0.", `": [`) {
		if strings.Contains(screen, w) {
			t.Errorf("the screen says %q:\n%s", w, screen)
		}
	}
}

// An undeclared {{audience}} in a prompt's text opens the template's
// variables (where a variable is added), not its text field.
func TestFixItPromptVariable(t *testing.T) {
	a := newAnswers()
	a.Pack.Name = "community.acme.fixprompt"
	a.promptPack().Prompts[0].Text += " Write for {{audience}}."
	d, w, rev := reviewOf(t, a, scaffold.KindPrompt)
	if !strings.Contains(rev, "Prompt template 1 · template variables: the text uses {{audience}}") || !strings.Contains(rev, "add a variable named audience") {
		t.Errorf("the review does not say it in the wizard's words:\n%s", rev)
	}
	noJSONWords(t, rev, "variables[]", "declare it")
	d.Keys("enter")
	if w.at.pg.id != "variables" || w.at.i != 0 {
		t.Fatalf("fix it opened %s/%d, not the template's variables\n%s", w.at.pg.id, w.at.i, d.View())
	}
	if v := strings.Join(strings.Fields(d.View()), " "); !strings.Contains(v, "✗ Prompt template 1 · template variables: the text uses {{audience}}") {
		t.Errorf("the page does not show the problem:\n%s", v)
	}
	d.Keys("down", "enter", "type:audience", "enter") // add a variable named audience
	enterUntil(t, d, w, "review")
	if w.rev.Plan == nil {
		t.Fatalf("still: %v\n%s", w.rev.Problems, d.View())
	}
}

// A rubric task without criteria in a standalone suite: the hint is in the
// wizard's words and leads to the task's Rubric criteria.
func TestFixItStandaloneEval(t *testing.T) {
	a := newAnswers()
	e := a.suite(0)
	e.Modes = []string{"golden", "rubric"}
	e.Tasks[0].Kind, e.Tasks[0].Criteria = "rubric", nil
	d, w, rev := reviewOf(t, a, whatSoloEval)
	if !strings.Contains(rev, "Eval task 1 › Rubric criteria: task") || !strings.Contains(rev, "is a rubric task without criteria") ||
		!strings.Contains(rev, "give its rubric criteria") {
		t.Errorf("the review does not name the suite's own field in the wizard's words:\n%s", rev)
	}
	noJSONWords(t, rev, "expected.rubric", "criterion", ".kind")
	d.Keys("enter")
	if f := w.form.GetFocusedField(); w.at.pg.id != "task" || f.GetKey() != "agents.0.eval.tasks.0.criteria" {
		t.Fatalf("fix it opened %s at %s\n%s", w.at.pg.id, f.GetKey(), d.View())
	}
	if v := d.View(); !strings.Contains(v, "✗ Eval task 1 › Rubric criteria") {
		t.Errorf("the page does not show the problem:\n%s", v)
	}
}

// A card whose template uses a slot no input fills: the hint names the
// template and the inputs, not placeholderMapping.
func TestFixItCardSlot(t *testing.T) {
	a := newAnswers()
	a.Pack.Name = "community.acme.fixcard"
	c := &a.cardPack().Cards[0]
	c.Template = "Summarize {{source}} in a {{length}} form, in a {{tone}} tone."
	d, w, rev := reviewOf(t, a, scaffold.KindCard)
	if !strings.Contains(rev, "Card › Template: the template uses {{tone}}, but the card has no input tone") ||
		!strings.Contains(rev, "add an input with the id tone") {
		t.Errorf("the review does not say it in the wizard's words:\n%s", rev)
	}
	noJSONWords(t, rev, "placeholderMapping", "prompt.template")
	d.Keys("enter")
	if f := w.form.GetFocusedField(); w.at.pg.id != "card" || f.GetKey() != "cards.0.template" {
		t.Fatalf("fix it opened %s at %s", w.at.pg.id, f.GetKey())
	}
	if v := d.View(); !strings.Contains(v, "✗ Card › Template: the template uses {{tone}}") {
		t.Errorf("the page does not show the problem:\n%s", v)
	}
}

// A confidence above 1 is said with the field's label, not defaultThreshold.
func TestFixItSaysLabels(t *testing.T) {
	a := newAnswers()
	a.agent(0).Confidence = 3
	_, _, rev := reviewOf(t, a, whatSoloAgent)
	if !strings.Contains(rev, "Agent › Confidence threshold: Confidence threshold is 3") {
		t.Errorf("the review does not use the label:\n%s", rev)
	}
	noJSONWords(t, rev, "defaultThreshold", "confidence:")
}
