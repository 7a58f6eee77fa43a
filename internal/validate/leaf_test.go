package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"strings"
	"testing"
)

// TestWizardPatternsInWords (issue 35, item 4): the forms the wizard's
// fields hit that the review once told as a raw regular expression or "see
// the JSON Schema hostname format" (a chain step's typeId, a connection's
// API hosts) are said in words.
func TestWizardPatternsInWords(t *testing.T) {
	t.Parallel()
	v := newV(t)
	for _, tt := range []struct {
		kind  kinds.Kind
		ptr   string
		value any
	}{
		{kinds.WorkflowChainPack, "/chains/0/dag/nodes/0/typeId", "Acme"},
		{kinds.ConnectionPack, "/provider/apiHosts", []any{"https://api.acme.dev"}},
	} {
		probs := v.CheckValueFor(kinds.V2, tt.kind, tt.ptr, tt.value)
		if len(probs) == 0 {
			t.Errorf("%s %v: taken", tt.ptr, tt.value)
		}
		for _, p := range probs {
			if strings.Contains(p.Message+p.Hint, "^") || strings.Contains(p.Hint, "see the JSON Schema") {
				t.Errorf("%s: not in words: %s (%s)", tt.ptr, p.Message, p.Hint)
			}
		}
	}
}

// Issue 44 item 9: a name error says which character is wrong.
func TestNameErrorSaysWhichCharacter(t *testing.T) {
	t.Parallel()
	const pat = `^(core|vendor|community|private)\.[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`
	for name, want := range map[string]string{
		"vendor.acme.Hel_lo": "character 13, 'H'",
		"vendor.ac!me.x":     "character 10, '!'",
		"vendor..x":          "character 8: an empty part",
		"acme.x.y":           `starts with "acme", not a scope`,
		"vendor.acme":        "at least two more",
	} {
		if got := nameBadChar(pat, name); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if got := nameBadChar(pat, "vendor.acme.hello"); got != "" {
		t.Errorf("a good name: %q", got)
	}
}
