package editor

import (
	"testing"

	"github.com/openwop/wopkit/internal/tui/tuitest"
)

// TestMain keeps the tests' keys and drafts out of the user's folders
// (tuitest.Main).
func TestMain(m *testing.M) { tuitest.Main(m, nil) }
