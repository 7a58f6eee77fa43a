package main

import (
	"fmt"
	"testing"

	"github.com/openwop/wopkit/internal/guard"
)

// TestOneJSONEncoder: every --json (and SARIF) output goes through
// termsafe.WriteJSON (writeJSON here), which writes the characters a
// terminal acts on as \u escapes; a new encoder of output fails this test.
func TestOneJSONEncoder(t *testing.T) {
	t.Parallel()
	encoders := map[string][]string{"encoding/json": {"NewEncoder", "Marshal", "MarshalIndent"}}
	listed := map[string]map[string]string{
		".":                     {"new.go:dropNodeKind": "re-encodes the author's --values object (an input to the scaffold, not output)"},
		"../../internal/report": {},
	}
	for root, ok := range listed {
		guard.Check(t, guard.Find(t, root, nil, encoders), ok, func(k, where string) string {
			return fmt.Sprintf("%s: %s encodes JSON itself (%s): print --json output with writeJSON (termsafe.WriteJSON)", root, k, where)
		})
	}
}
