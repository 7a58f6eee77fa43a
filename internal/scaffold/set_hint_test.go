package scaffold

import (
	"errors"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// TestSetHintByCode: the known-keys hint is chosen by the error's code, not
// by its text: an unknown key gets it; a bad value that merely quotes the
// words "unknown key" does not (issue 10 item 15).
func TestSetHintByCode(t *testing.T) {
	t.Parallel()
	var we *werr.Error
	err := Set(&PackAnswers{}, "no.such", "x")
	if !errors.As(err, &we) || !strings.Contains(we.Hint, "known keys") || werr.ExitCode(err) != 2 {
		t.Fatalf("unknown key: %v (hint %q)", err, we.Hint)
	}
	err = Set(&AgentAnswers{}, "systemPromptInline", "unknown key")
	if err == nil {
		t.Skip("the value was accepted; nothing to check")
	}
	if errors.As(err, &we) && strings.Contains(we.Hint, "known keys") {
		t.Fatalf("a bad value got the unknown-key hint: %v", err)
	}
}
