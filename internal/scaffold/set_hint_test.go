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

// Issue 25, item 13: an unknown --set key suggests its near miss (the hint
// listed every key and left the author to find it).
func TestSetSuggestsNearMiss(t *testing.T) {
	t.Parallel()
	a := ToolAnswers{}.Defaults()
	for key, want := range map[string]string{"killswitch.kind": "killSwitch.kind", "tool.idd": "tool.id", "scopes.0.resorce": "scopes.N.resource"} {
		var we *werr.Error
		if err := Set(&a, key, "x"); !errors.As(err, &we) || !strings.Contains(we.Hint, "did you mean "+want+"?") {
			t.Errorf("--set %s: %v, want a near miss %s", key, err, want)
		}
	}
	var we *werr.Error
	if err := Set(&a, "zzzz.qqqq", "x"); !errors.As(err, &we) || strings.Contains(we.Hint, "did you mean") {
		t.Errorf("a key near nothing suggests one: %v", err)
	}
}

// TestSetHintNamesTheNearestKeys (issue 35, item 8): a mistyped key is
// answered with the few nearest keys, not all of them, and where to find
// the rest.
func TestSetHintNamesTheNearestKeys(t *testing.T) {
	t.Parallel()
	var we *werr.Error
	err := Set(&PackAnswers{}, "nmae", "x")
	if !errors.As(err, &we) {
		t.Fatalf("unknown key: %v", err)
	}
	near := strings.TrimSuffix(we.Hint[strings.Index(we.Hint, "known keys: ")+len("known keys: "):], ")")
	names := strings.Split(near[:strings.Index(near, " (")], ", ")
	if len(names) > 5 || names[0] != "name" || !strings.Contains(we.Hint, "did you mean name?") || !strings.Contains(we.Hint, "wopkit new --list-keys") {
		t.Errorf("hint %q", we.Hint)
	}
	if all := Keys(&PackAnswers{}); len(all) <= 5 {
		t.Fatalf("only %d keys: the test needs more", len(all))
	}
}
