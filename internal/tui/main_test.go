package tui

import (
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestMain keeps the tests' keys out of the user's configuration folder
// and starts the real-terminal test's lanes first (startEarly).
func TestMain(m *testing.M) {
	// wopkit itself runs with GOGC=400 (internal/gctune). GOGC set in the
	// environment wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	dir, err := os.MkdirTemp("", "wopkit-tui-config-*")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state")) // drafts (userstate)
	flag.Parse()                                             // startEarly reads -run
	after := startEarly()                                    // the terminal test's lanes, beside the package's other tests
	code := m.Run()
	after()
	os.RemoveAll(dir)
	os.Exit(code)
}
