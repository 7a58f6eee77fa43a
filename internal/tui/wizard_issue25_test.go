package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// One test per "what was seen" item of issue 25, each failing on the
// wizard before it.

// Item 1: the agent's System prompt is replaced by what is typed or
// pasted, never kept with the typing after it.
func TestIssue25SystemPromptReplaced(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"typed", "pasted"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := newAnswers()
			d, w := wizardOn(t, a, NewOptions{What: whatAgent, Dir: dir, DraftDir: dir})
			pageOf(t, d, w, "agent", 0)
			focusKeyOf(t, d, w, "agents.0.systemPrompt")
			const want = "You write short briefs."
			if how == "typed" {
				d.keys("type:" + want)
			} else {
				d.send(tea.PasteMsg{Content: want})
			}
			d.keys("enter")
			if got := a.Pack.Agents[0].SystemPrompt; got != want {
				t.Errorf("the system prompt is %q, not what was %s", got, how)
			}
			if !strings.Contains(d.view(), "Tool allowlist") {
				t.Errorf("enter did not go on:\n%s", d.view())
			}
		})
	}
}
