package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/userstate"
)

func TestMain(m *testing.M) {
	// internal/gctune gives wopkit a 40 MiB soft memory limit, sized for
	// one command per process; the tests run dozens of commands at once in
	// this one, and past 40 MiB the collector ran all the time (a tenth of
	// the package's CPU). GOMEMLIMIT set in the environment wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(math.MaxInt64)
	}
	// The tests' temporary folders in memory where /dev/shm allows
	// (fixtures.UseMemoryTemp: on the disk every write's syncs cost a third
	// of the package's CPU).
	doneTemp := fixtures.UseMemoryTemp("wopkit-cmd-tests-")
	// wopkit's own state (the transaction journals) goes to a folder of
	// the tests'.
	state, _ := os.MkdirTemp("", "wopkit-cmd-state-")
	os.Setenv(userstate.Env, state)
	code := m.Run()
	os.RemoveAll(state)
	doneTemp()
	os.Exit(code)
}
