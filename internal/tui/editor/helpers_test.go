package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/tuitest"
	"github.com/openwop/wopkit/internal/validate"
)

// driver runs the app headlessly (internal/tui/tuitest).
type driver = tuitest.Driver

func newDriver(t *testing.T, s func(*common.Context) tui.Screen) *driver {
	t.Helper()
	return tuitest.New(t, s)
}

// keyMsg is the key press a name says.
func keyMsg(name string) tea.KeyPressMsg { return tuitest.Key(name) }

var testValidator = func() *validate.Validator {
	v, err := validate.New(validate.Options{Placeholders: true})
	if err != nil {
		panic(err)
	}
	return v
}()

// copyPack copies testdata/pack into a temporary directory.
func copyPack(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "pack", "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func editorOn(t *testing.T, path string) func(*common.Context) tui.Screen {
	return func(ctx *common.Context) tui.Screen {
		e, err := loadEditor(ctx, testValidator, path)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

// flat is v with its runs of blanks and line ends as one space.
func flat(v string) string { return strings.Join(strings.Fields(v), " ") }
