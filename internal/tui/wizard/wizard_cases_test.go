package wizard

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sandbox"
)

// TestWizardRunsTheNewCases (issue 41, item 3): the summary of a new node
// pack offers t, which runs its stored cases and shows each node's
// outputs; the lines stay in the printed summary.
func TestWizardRunsTheNewCases(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the cases need node 20 or later")
	}
	if err := sandbox.Supported(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	dir := t.TempDir()
	t.Chdir(dir) // the release is written beside the pack's folder
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a := newAnswers()
	a.Pack.Name = "community.acme.cased"
	d, w := wizardOn(t, a, Options{What: whatNodes, Dir: filepath.Join(dir, "cased"), DraftDir: dir})
	enterUntil(t, d, w, "review")
	if w.rev.Plan == nil {
		t.Fatalf("review: %v %v\n%s", w.rev.Err, w.rev.Problems, d.View())
	}
	d.Keys("enter")
	if !w.finished || w.err != "" || w.cases == "" {
		t.Fatalf("finished %v, cases %q, err %q\n%s", w.finished, w.cases, w.err, d.View())
	}
	if v := d.View(); !strings.Contains(v, "t run the cases") {
		t.Fatalf("the summary does not offer the cases:\n%s", v)
	}
	d.Keys("t")
	sum := strings.Join(w.out.summary, "\n")
	if !strings.Contains(sum, "pass community.acme.cased.") || !strings.Contains(sum, `outputs {"text":"HELLO"}`) || !strings.Contains(sum, "1 passed") {
		t.Fatalf("the cases' result is not in the summary:\n%s\n%s", sum, d.View())
	}
	if strings.Contains(d.View(), "t run the cases") {
		t.Errorf("the offer stays once the cases ran:\n%s", d.View())
	}
}
