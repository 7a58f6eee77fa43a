package gctune

import (
	"os"
	"runtime/debug"
	"testing"
)

func TestSettingsApplied(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set in the environment, which wins over gctune")
	}
	prev := debug.SetGCPercent(Percent)
	if prev != Percent {
		t.Errorf("GC percent at start was %d, want %d", prev, Percent)
	}
	if lim := debug.SetMemoryLimit(-1); lim != Limit {
		t.Errorf("memory limit %d, want %d", lim, Limit)
	}
}
