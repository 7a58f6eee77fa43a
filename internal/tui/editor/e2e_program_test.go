package editor

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
)

// TestProgramEditsAndSaves runs the editor as a real bubbletea program
// (teatest, 80x24): find a field, change it, save, quit; the file on disk
// has the change and the program ends.
func TestProgramEditsAndSaves(t *testing.T) {
	dir := copyPack(t)
	ctx := common.New(true)
	e, err := loadEditor(ctx, testValidator, dir)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, tui.NewApp(ctx, e), teatest.WithInitialTermSize(80, 24))
	waitFor := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	// Keys are handled in order and none waits for a command, so they can
	// be sent at once; only the save is asynchronous. (Waiting for text in
	// the output is fragile: the renderer writes only the cells that change.)
	tm.Type("/version")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	tm.Type("1.2.3")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	waitFor("saved ")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	b, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if !strings.Contains(string(b), `"version": "1.2.3",`) {
		t.Errorf("saved file:\n%s", b)
	}
}
