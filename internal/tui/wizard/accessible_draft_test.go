package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// TestAccessibleOffersTheDraft (issue 25): accessible mode offers the draft
// kept for the folder, as the full-screen wizard's first screen does. On a
// terminal, yes resumes it (its answers are the defaults each question
// offers), no starts again and drops it. From a pipe nothing is asked (the
// first line answers the first question): the run starts afresh, says so,
// and neither replaces nor removes the draft, even when it fails.
func TestAccessibleOffersTheDraft(t *testing.T) {
	const drafted = "community.acme.drafted"
	for _, c := range []struct {
		name     string
		terminal bool
		reply    string
		asked    bool
		said     string
		keptName string // the folder's draft after the run (ended early, so kept)
	}{
		{"yes on a terminal", true, "y", true, "", drafted},
		{"no on a terminal", true, "n", true, "", ""},
		{"from a pipe", false, "", false, "answers read from a pipe start afresh", drafted},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			d := newAnswersFor(whatMixed)
			d.Pack.Name = drafted
			if err := saveDraft(dir, d); err != nil {
				t.Fatal(err)
			}
			old := ask.IsTerminal
			ask.IsTerminal = func(io.Reader) bool { return c.terminal }
			t.Cleanup(func() { ask.IsTerminal = old })
			var out bytes.Buffer
			const target = "Pack name"
			in := &scripted{out: &out, target: target, replies: map[string][]string{"Resume it?": {c.reply}}}
			if !c.asked {
				in.replies = map[string][]string{}
			}
			err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: Options{DraftDir: dir, Accessible: true, Input: in, Screen: &out}})
			if err == nil {
				t.Fatal("the input ended early, and the run did not fail")
			}
			shown := out.String()
			if strings.Contains(shown, "Resume it?") != c.asked {
				t.Errorf("asked whether to resume: %v, want %v:\n%s", !c.asked, c.asked, shown)
			}
			if !strings.Contains(shown, c.said) {
				t.Errorf("does not say %q:\n%s", c.said, shown)
			}
			if c.asked && c.reply == "y" && !strings.Contains(shown, "drafted") {
				t.Errorf("the resumed draft's name is not offered:\n%s", shown)
			}
			kept, ok := loadDraft(dir)
			if !ok {
				t.Fatal("no draft is kept after the run")
			}
			want := c.keptName
			if want == "" {
				want = scaffold.PackAnswers{}.Defaults().Name
			}
			if kept.Pack.Name != want {
				t.Errorf("the folder's draft after the run is of %q, want %q", kept.Pack.Name, want)
			}
		})
	}
}
