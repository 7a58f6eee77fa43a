package wizard

import (
	"os"
	"testing"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
)

// "Keep a draft?" answered n leaves no draft, also when the run resumed
// one: the draft kept earlier is dropped.
func TestQuitWithoutDraftDropsTheResumedOne(t *testing.T) {
	dir := t.TempDir()
	opts := Options{DraftDir: dir}
	a := newAnswers()
	a.What = whatNodes
	path := drafts.File(dir)
	if err := saveDraft(dir, a); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: opts})
	})
	d.Keys("esc")
	if _, ok := d.App.Top().(*tui.Confirm); !ok {
		t.Fatalf("esc did not ask about a draft:\n%s", d.View())
	}
	d.Keys("n")
	if !d.Quit {
		t.Fatal("n did not quit")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the resumed draft is still there after n: %v", err)
	}
}
