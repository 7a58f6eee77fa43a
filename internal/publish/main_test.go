package publish

import (
	"os"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/userstate"
)

func TestMain(m *testing.M) {
	// The temporary folders (t.TempDir, and those of the programs the
	// tests run) go to memory where the system has it
	// (fixtures.UseMemoryTemp); diskTemp stays the system's.
	diskTemp = os.TempDir()
	memDone := fixtures.UseMemoryTemp("wopkit-publish-tests-")
	// wopkit's own state (the transaction journals) goes to a folder of
	// the tests', inherited by the wopkit binaries the kill tests run.
	state, _ := os.MkdirTemp("", "wopkit-publish-state-")
	oracleHome, _ = os.MkdirTemp("", "wopkit-publish-oracle-")
	os.Setenv(userstate.Env, state)
	code := m.Run()
	rvm.close()
	os.RemoveAll(state)
	os.RemoveAll(oracleHome)
	memDone()
	os.Exit(code)
}

// diskTemp is the system's folder for temporary files, on the disk where
// the tests' own are in memory (TestMain).
var diskTemp string

// diskTempDir is a new folder in diskTemp, removed when the test ends: for
// a program the test runs (a tmpfs may be mounted noexec), and for the
// checkouts the random kills publish into, where the transaction's syncs
// take the time that lets a kill at a random moment land inside it.
func diskTempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp(diskTemp, "wopkit-publish-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
