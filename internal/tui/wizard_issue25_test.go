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

// Item 2: the ssh-agent key chosen on the sign page is still the choice
// after the review's "fix it" leads to another page and back (it became
// "a new key pair: example.key", and the next enter made one).
func TestIssue25AgentKeySurvivesFixIt(t *testing.T) {
	_, ref := serveTestAgent(t)
	t.Chdir(t.TempDir())
	a := newAnswers()
	a.Pack.Name = "community.acme.weather"
	a.Pack.Version = "1.0" // a problem for the review to lead to
	d, w := wizardOn(t, a, NewOptions{DraftDir: t.TempDir()})
	toPage(d, w, "sign")
	d.keys("enter", "down", "down", "enter") // v2, then the agent's key
	if a.KeyChoice != ref {
		t.Fatalf("key choice %q, want %q:\n%s", a.KeyChoice, ref, d.view())
	}
	enterUntil(t, d, w, "review")
	if len(w.rev.problems) == 0 {
		t.Fatalf("no problem to fix:\n%s", d.view())
	}
	d.keys("enter") // fix it: the version
	if w.at.pg.id != pageIdentity {
		t.Fatalf("fix it went to %s", w.at.pg.id)
	}
	d.keys("backspace", "backspace", "backspace", "type:1.0.0")
	enterUntil(t, d, w, "review")
	if a.KeyChoice != ref || a.KeyPath != ref {
		t.Fatalf("after fix it the key is %q (%q), not the agent's %q", a.KeyChoice, a.KeyPath, ref)
	}
	toPage(d, w, "sign")
	if v := d.view(); strings.Contains(v, "example.key") || strings.Contains(v, "a new key pair") {
		t.Errorf("the sign page offers a new key pair again:\n%s", v)
	}
}
