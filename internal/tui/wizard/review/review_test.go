package review

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/common"
)

// The review says how the pack compares with the version it follows in
// the registry checkout (semdiff.ReviewNote), under "no problems".
func TestReviewShowsComparison(t *testing.T) {
	t.Parallel()
	note := "version too low for its changes since acme.x@1.0.0 (publish would refuse it): 1.0.0 → 1.0.1 is a patch bump, but the changes need a major bump (2.0.0 or later)"
	r := &Review{Planned: Planned{Plan: &scaffold.Plan{}, Manifest: "{}", Compat: note}}
	out := ansi.Strip(r.View(common.New(true), 200, 30))
	if !strings.Contains(out, "no problems") || !strings.Contains(out, note) {
		t.Errorf("review:\n%s", out)
	}
	r.Compat = ""
	if out := ansi.Strip(r.View(common.New(true), 200, 30)); strings.Contains(out, "since") {
		t.Errorf("review without a comparison:\n%s", out)
	}
}
