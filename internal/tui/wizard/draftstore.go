package wizard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
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
	a := newAnswers()
	if json.Unmarshal(upgradeDraft(b), a) != nil {
		return nil, false
	}
	return a, true
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

// Draft is a kept draft as `wopkit new --list-drafts` shows it.
type Draft struct {
	ID   string    // what --resume takes (a pack name does too)
	Pack string    // the pack's (or tool's) name, "" when none was given yet
	Kept time.Time // when it was last kept
	data []byte
	a    *answers
}

// Drafts are the drafts this user's wopkit keeps, the newest first, one
// per draft (a draft kept for several folders is listed once).
func Drafts() ([]Draft, error) {
	es, err := drafts.List()
	if err != nil {
		return nil, err
	}
	var out []Draft
	for _, e := range es {
		if slices.ContainsFunc(out, func(d Draft) bool { return bytes.Equal(d.data, e.Data) }) {
			continue
		}
		a := newAnswers()
		if json.Unmarshal(upgradeDraft(e.Data), a) != nil {
			continue
		}
		out = append(out, Draft{ID: e.ID[:min(len(e.ID), 12)], Pack: a.name(), Kept: e.Kept, data: e.Data, a: a})
	}
	return out, nil
}

// ListDrafts prints the kept drafts, one a line: the id --resume takes,
// the pack's name and how long ago it was kept.
func ListDrafts(w io.Writer, now time.Time) error {
	ds, err := Drafts()
	if err != nil {
		return err
	}
	if len(ds) == 0 {
		_, err := fmt.Fprintln(w, "no drafts kept (esc in `wopkit new` offers to keep one)")
		return err
	}
	for _, d := range ds {
		name := d.Pack
		if name == "" {
			name = "(no name yet)"
		}
		if _, err := fmt.Fprintf(w, "%s  %s  kept %s\n", d.ID, name, age(now.Sub(d.Kept))); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintln(w, "resume one: wopkit new --resume ID (or its pack name)")
	return err
}

// age says how long ago, in the largest whole unit.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute") + " ago"
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour") + " ago"
	}
	return plural(int(d/(24*time.Hour)), "day") + " ago"
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprint(n, " ", unit, "s")
}

// ResumeNewest is Options.Resume for the newest draft.
const ResumeNewest = "-"

// findDraft is the draft --resume names: by its id (or the start of it),
// else by its pack's name (the newest of that name); ResumeNewest is the
// newest. The ids are those of every copy of it.
func findDraft(name string) (*answers, []string, error) {
	ds, err := Drafts()
	if err != nil {
		return nil, nil, err
	}
	es, _ := drafts.List()
	copies := func(d Draft) []string {
		var ids []string
		for _, e := range es {
			if bytes.Equal(e.Data, d.data) {
				ids = append(ids, e.ID)
			}
		}
		return ids
	}
	for _, d := range ds {
		if name == ResumeNewest || len(name) >= 4 && strings.HasPrefix(d.ID, name) || d.Pack == name {
			return d.a, copies(d), nil
		}
	}
	what := fmt.Sprintf("no draft %q is kept", name)
	if name == ResumeNewest {
		what = "no draft is kept"
	}
	return nil, nil, werr.New(werr.Invalid, "draft_not_found", "%s", what).
		WithHint("`wopkit new --list-drafts` lists the drafts kept, with their ids and pack names")
}
