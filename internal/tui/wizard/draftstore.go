package wizard

import (
	"encoding/json"

	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
	"github.com/openwop/wopkit/internal/werr"
)

// saveDraft keeps a as the draft of the folder dir ("" in a dry run: an
// error that says none was kept; see internal/tui/wizard/drafts).
func saveDraft(dir string, a *answers) error {
	return draftOf(a)(dir)
}

// draftOf is the draft of the answers as they are now, kept by the
// function it returns (which may run beside the screen: it holds a copy).
func draftOf(a *answers) func(dir string) error {
	b, err := json.MarshalIndent(a, "", "  ")
	return func(dir string) error {
		if dir == "" {
			return werr.New(werr.Usage, "dry_run", "--dry-run: no draft was kept (a dry run writes nothing)").
				WithHint("run `wopkit new` without --dry-run to keep a draft")
		}
		if err != nil {
			return err
		}
		return drafts.Keep(dir, b)
	}
}

// loadDraft reads the draft of the folder dir, if this user's wopkit kept
// one.
func loadDraft(dir string) (*answers, bool) {
	b, ok := drafts.Load(dir)
	if !ok {
		return nil, false
	}
	a := newAnswers()
	if json.Unmarshal(upgradeDraft(b), a) != nil {
		return nil, false
	}
	return a, true
}
