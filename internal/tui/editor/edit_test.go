package editor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
)

// Issue 44, item 6: the editor lists the placeholders `wopkit new` writes
// to be replaced (PH001) with the other problems, as `validate --strict`
// shows them: the checks Run uses when the caller gives none (wopkit edit).
func TestEditorListsPlaceholders(t *testing.T) {
	t.Parallel()
	v, err := validator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pack.json")
	src := `{"name": "community.tester.demo", "version": "0.1.0", "description": "A new OpenWOP node pack.",
  "license": "MIT", "engines": {"openwop": ">=1.1.0 <2.0.0"}, "runtime": {"language": "remote", "entry": "pack.json"}}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		e, err := loadEditor(ctx, v, path)
		if err != nil {
			t.Fatal(err)
		}
		return e
	})
	e := d.App.Top().(*editor)
	for _, p := range e.problems.Items {
		if p.Rule == "PH001" && p.Pointer == "/description" {
			return
		}
	}
	t.Errorf("no PH001 at /description among the editor's problems: %v\n%s", e.problems.Items, d.View())
}
