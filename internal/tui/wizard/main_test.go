package wizard

import (
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestMain keeps the tests' keys and drafts out of the user's folders: a
// wizard run inside a git checkout (this one) keeps a new key there.
func TestMain(m *testing.M) {
	// The tests allocate like the wizard does, a draw for every key, and
	// with Go's default GOGC=100 a fifth of their CPU went to the collector;
	// wopkit itself runs with GOGC=400 (internal/gctune). GOGC set in the
	// environment wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	dir, err := os.MkdirTemp("", "wopkit-wizard-config-*")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state")) // drafts (userstate)
	flag.Parse()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
