package wizard

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// The wizard's contract, continued (issue 35, item 4): checks that behave
// alike. For every text field of every page of every kind, answers the
// schemas and rules may refuse (an address where a host name goes, a name
// with a capital and a space, one letter, a negative number…) are typed in
// turn: one the field takes is one the review takes too, for that field
// (what the review would refuse is said on the field, as it is typed). And
// the review says each problem once, never pointing at a file not written
// yet.

// refusable are the answers each text field is tried with.
var refusable = []string{"https://api.acme.dev", "Not Valid Here!", "x", "-3", "acme"}

// fieldProblems are the review's problems about the value of the field
// with the key alone: what its schema refuses (a rule that compares it
// with other answers, such as an id another entry has, is said as the
// field is left, and on the review).
func fieldProblems(ps []scaffold.FieldError, key string) []string {
	var out []string
	for _, p := range ps {
		if (p.Field == key || strings.HasPrefix(p.Field, key+".")) && strings.HasPrefix(p.Rule, "schema/") {
			out = append(out, p.Field+": "+p.Message)
		}
	}
	return out
}

func TestWizardContractFieldChecks(t *testing.T) {
	for _, c := range offered() {
		t.Run(c.Value, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := newAnswers()
			a.SignMethod = "skip"
			d, w := wizardOn(t, a, Options{What: c.Value, Dir: filepath.Join(dir, "out"), DraftDir: dir})
			tried := 0
			for steps := 0; w.form != nil; steps++ {
				if steps > 600 {
					t.Fatalf("the walk does not reach the review (on %s/%d)", w.at.pg.id, w.at.i)
				}
				f := w.form.GetFocusedField()
				sh, isText := w.k.Suggest[f]
				key := f.GetKey()
				if isText && unwritten[key] == "" && !isNamed(key) {
					was := sh.Text()
					for _, bad := range refusable {
						if check := w.k.Live[f]; check != nil && check(bad) != nil {
							continue // refused on the field
						}
						sh.Set(bad)
						w.sync()
						tried++
						if ps := fieldProblems(checked(w.k.V, w.a, w.opts).Problems, key); len(ps) > 0 {
							t.Errorf("%s › %s takes %q, which the review refuses: %s", w.at.pg.id, key, bad, strings.Join(ps, "; "))
						}
						sh.Set(was)
						w.sync()
					}
				}
				d.Keys("enter")
			}
			if tried == 0 {
				t.Error("no answer was tried")
			}
		})
	}
}

// TestReviewSaysEachProblemOnce: an eval task's rubric left without
// criteria is refused on its field; given through the answers, the review
// lists it once, and names no file that is not written yet.
func TestReviewSaysEachProblemOnce(t *testing.T) {
	a := newAnswers()
	a.SignMethod = "skip"
	dir := t.TempDir()
	d, w := wizardOn(t, a, Options{What: whatMixed, Dir: filepath.Join(dir, "out"), DraftDir: dir})
	ta := &a.Pack.Agents[0].Eval.Tasks[0]
	ta.Kind, ta.Criteria = scaffold.TaskKinds[1].Value, nil
	ws := walk(a)
	d.Run(w.move(ws[len(ws)-1]))
	if w.at.pg.id != "review" {
		t.Fatalf("on %s, not the review", w.at.pg.id)
	}
	seen := map[string]bool{}
	for i := range w.rev.Problems {
		line := w.rev.ProblemLine(i)
		if seen[line] {
			t.Errorf("the review lists %q twice", line)
		}
		seen[line] = true
		p := w.rev.Problems[i]
		if strings.Contains(p.Message+p.Hint, "wopkit validate ") {
			t.Errorf("the review points at a file not written yet: %s (%s)", line, p.Hint)
		}
	}
	if len(w.rev.Problems) == 0 {
		t.Fatal("the review takes a rubric task without criteria")
	}
}

// TestReviewListsPlaceholders (issue 35, item 5): the review of a pack
// written with the suggestions lists, as warnings under "no problems",
// each value left to replace, named as its page asks it; the files are
// still written.
func TestReviewListsPlaceholders(t *testing.T) {
	t.Parallel()
	a := newAnswers()
	a.SignMethod = "skip"
	dir := t.TempDir()
	d, w := wizardOn(t, a, Options{What: whatMixed, Dir: filepath.Join(dir, "out"), DraftDir: dir})
	ws := walk(a)
	d.Run(w.move(ws[len(ws)-1]))
	if w.rev.Plan == nil {
		t.Fatalf("the review refuses the defaults: %v", w.rev.Problems)
	}
	v := strings.Join(strings.Fields(d.View()), " ")
	for _, want := range []string{"still a placeholder to replace", "Identity › Description:", "Tool manifest › Homepage:"} {
		if !strings.Contains(v, want) {
			t.Errorf("the review does not say %q:\n%s", want, d.View())
		}
	}
	if n := strings.Count(v, "Tool manifest › Homepage:"); n != 1 {
		t.Errorf("the homepage is listed %d times", n)
	}
}

// TestFixNoteGoesWithTheFix (issue 35, item 4): the problem "fix it" shows
// above the page goes once the field is fixed, not only when the page is
// left.
func TestFixNoteGoesWithTheFix(t *testing.T) {
	a := newAnswers()
	a.Pack.Name = "community.acme.fixnote"
	a.connectionPack().Provider.Server = "http://mcp.acme.example/mcp"
	d, w, _ := reviewOf(t, a, scaffold.KindConnection)
	d.Keys("enter")
	banner := "✗ How hosts reach it › MCP server address"
	if v := strings.Join(strings.Fields(d.View()), " "); w.at.pg.id != pageConnReach || !strings.Contains(v, banner) {
		t.Fatalf("fix it does not show the problem on %s:\n%s", w.at.pg.id, d.View())
	}
	d.Keys("ctrl+u", "type:https://mcp.acme.example/mcp", "enter")
	if v := strings.Join(strings.Fields(d.View()), " "); w.at.pg.id != pageConnReach || strings.Contains(v, banner) {
		t.Errorf("the problem is still shown after the fix (on %s):\n%s", w.at.pg.id, d.View())
	}
}
