package wizard

import (
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
