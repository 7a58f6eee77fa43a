package wizard

import (
	"encoding/json"
	"io"
	"slices"
	"time"

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
	return decodeDraft(b)
}

// draftDirs are the folders the run's draft is kept for (none in a dry run,
// or for a draft of the folder this run did not resume): the folder the
// message names (DraftDir: where wopkit new was run), the current folder
// and the folder the files go to, so that `wopkit new` run in any of them
// offers it (issue 44, item 1: a draft kept from wopkit's source tree was
// offered only from ~/openwop-packs, where the files were going).
func (o session) draftDirs(a *answers) []string {
	first := o.draftOut()
	if first == "" {
		return nil
	}
	dirs := []string{first}
	for _, d := range []string{".", targetDir(a, o)} {
		if d != "" && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// keepIn keeps a draft with save for each of dirs; the first folder's
// failure is the one said (the others are where it is offered too). No
// folder at all is a dry run's: save says none was kept.
func keepIn(dirs []string, save func(dir string) error) error {
	if len(dirs) == 0 {
		return save("")
	}
	err := save(dirs[0])
	for _, d := range dirs[1:] {
		_ = save(d)
	}
	return err
}

// keepDrafts keeps a as the run's draft, for each of its folders (in
// place of the draft it resumed by name).
func (o session) keepDrafts(a *answers) error {
	o.dropResumed()
	return keepIn(o.draftDirs(a), draftOf(a))
}

// dropResumed removes the copies of the draft this run resumed by name:
// a draft kept now replaces it.
func (o session) dropResumed() {
	for _, id := range o.resumed {
		drafts.RemoveID(id)
	}
}

// removeDrafts removes the drafts of dirs and the copies of the draft
// this run resumed by name (--resume).
func (o session) removeDrafts(dirs []string) {
	for _, d := range dirs {
		drafts.Remove(d)
	}
	o.dropResumed()
}

// Drafts are the drafts this user's wopkit keeps, the newest first, one
// per draft (a draft kept for several folders is listed once).
func Drafts() ([]drafts.Draft, error) {
	return drafts.Listed(func(b []byte) (string, bool) {
		a, ok := decodeDraft(b)
		if !ok {
			return "", false
		}
		return a.name(), true
	})
}

// ListDrafts prints the kept drafts, one a line: the id --resume takes,
// the pack's name and how long ago it was kept.
func ListDrafts(w io.Writer, now time.Time) error {
	ds, err := Drafts()
	if err != nil {
		return err
	}
	return drafts.Print(w, ds, now)
}

// ResumeNewest is Options.Resume for the newest draft.
const ResumeNewest = drafts.Newest

// findDraft is the draft --resume names (see drafts.Find), and the ids
// of its copies.
func findDraft(name string) (*answers, []string, error) {
	ds, err := Drafts()
	if err != nil {
		return nil, nil, err
	}
	d, err := drafts.Find(ds, name)
	if err != nil {
		return nil, nil, err
	}
	a, _ := decodeDraft(d.Data)
	return a, d.IDs, nil
}

// decodeDraft is a kept draft's answers.
func decodeDraft(b []byte) (*answers, bool) {
	a := newAnswers()
	if json.Unmarshal(upgradeDraft(b), a) != nil {
		return nil, false
	}
	return a, true
}
