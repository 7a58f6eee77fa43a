package wizard

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/guard"
)

// TestWizardHandlesOneProblemType: the wizard's pages and review know one
// kind of problem, the scaffold's FieldError (an answer, its place in the
// document, the message and hint). The create workflow's problems become
// FieldErrors where the wizard asks for them (preflight), and the
// validator's inside the scaffold; no other wizard file names them (its
// subpackages ask and drafts included). The editor, internal/tui/editor,
// shows the validator's own.
func TestWizardHandlesOneProblemType(t *testing.T) {
	const mod = "github.com/openwop/wopkit/internal/"
	found := guard.Find(t, ".", nil, map[string][]string{
		mod + "validate": {"Problem", "Problems"}, mod + "create": {"Problem", "Problems"}, mod + "scaffold": {"FieldError"}})
	fieldErrors := 0
	for where, uses := range found {
		for _, use := range uses {
			switch {
			case strings.HasSuffix(use, " scaffold.FieldError"):
				fieldErrors++
			case where != "run.go:preflight":
				t.Errorf("%s: the wizard handles %s: make it a scaffold.FieldError where the wizard asks for it (see preflight)", where, use)
			}
		}
	}
	if fieldErrors < 5 {
		t.Fatalf("scaffold.FieldError named %d times: the test no longer sees the wizard's problems", fieldErrors)
	}
}
