package ignore

import (
	"os"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// TestMain puts the tests' temporary folders in memory where /dev/shm
// allows (fixtures.UseMemoryTemp): the differential test makes thousands of
// files, which on a busy disk costs twenty times the rest of it.
func TestMain(m *testing.M) {
	os.Exit(fixtures.MainInMemoryTemp(m, "wopkit-ignore-tests-"))
}
