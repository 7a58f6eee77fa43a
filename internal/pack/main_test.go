package pack

import (
	"os"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// TestMain puts the tests' temporary folders in memory where /dev/shm
// allows (fixtures.UseMemoryTemp: on the disk, the syncs of wopkit's
// writes cost more system time than most of what the tests do).
func TestMain(m *testing.M) {
	os.Exit(fixtures.MainInMemoryTemp(m, "wopkit-pack-tests-"))
}
