// Package drafts keeps the wizard's drafts: a run's answers as JSON, in
// wopkit's own state folder (internal/userstate, "drafts"), one per folder
// `wopkit new` runs in, named after that folder's real path. A file in the
// working tree is never read for one: a stranger's unpacked download cannot
// plant a draft, and a read-only folder still keeps one. The wizard
// (internal/tui/wizard) encodes and decodes the answers; this package
// stores bytes.
package drafts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/userstate"
	"github.com/openwop/wopkit/internal/werr"
)

// Folder is the drafts' folder under wopkit's state folder.
const Folder = "drafts"

// name is the file name of the draft of the folder dir ("" is the current
// one): a hash of its real path.
func name(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	real, err := filepath.EvalSymlinks(dir)
	if errors.Is(err, fs.ErrNotExist) { // a folder not made yet (where the files go): its parent's real path
		var parent string
		if parent, err = filepath.EvalSymlinks(filepath.Dir(dir)); err == nil {
			real = filepath.Join(parent, filepath.Base(dir))
		}
	}
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return "", werr.Wrap(werr.Env, "draft_unwritable", err, "cannot resolve the folder %s, which a draft is kept for", dir)
	}
	sum := sha256.Sum256([]byte(real))
	return hex.EncodeToString(sum[:16]) + ".json", nil
}

// File is where the draft of the folder dir is kept, for messages and
// tests ("" when there is no state folder).
func File(dir string) string {
	base, err := userstate.Dir()
	n, err2 := name(dir)
	if err != nil || err2 != nil {
		return ""
	}
	return filepath.Join(base, Folder, n)
}

// Keep writes b as the draft of the folder dir, 0600 in a state folder
// private to this user. A failure says where it tried and what to do.
func Keep(dir string, b []byte) error {
	n, err := name(dir)
	if err != nil {
		return err
	}
	p, where, err := userstate.Open(Folder, true)
	if err != nil { // it says where and what to do
		return werr.Wrap(werr.Env, "draft_unwritable", err, "cannot keep a draft of your answers")
	}
	defer p.Close()
	if err := p.WriteFile(p.In(n), append(b, '\n'), 0o600); err != nil {
		return keepErr(err, filepath.Join(where, n))
	}
	return nil
}

// keepErr is a draft that could not be kept: where, why, what to do.
func keepErr(err error, where string) error {
	return werr.Wrap(werr.Env, "draft_unwritable", err, "cannot keep a draft of your answers in %s", where).
		WithHint("make %s yours and writable, or set %s to a folder you can write and run `wopkit new` again", filepath.Dir(where), userstate.Env)
}

// Load reads the draft of the folder dir, if this user's wopkit kept one.
func Load(dir string) ([]byte, bool) {
	n, err := name(dir)
	if err != nil {
		return nil, false
	}
	p, _, err := userstate.Open(Folder, false)
	if err != nil || p == nil {
		return nil, false
	}
	defer p.Close()
	b, err := p.ReadFile(p.In(n), untrusted.MaxDocument)
	if err != nil {
		return nil, false
	}
	return b, true
}

// Remove removes the draft of the folder dir ("" in a dry run: nothing).
func Remove(dir string) {
	if dir == "" {
		return
	}
	n, err := name(dir)
	if err != nil {
		return
	}
	p, _, err := userstate.Open(Folder, false)
	if err != nil || p == nil {
		return
	}
	defer p.Close()
	_ = p.Remove(p.In(n))
}

// Entry is a draft kept: its id (the name of its file, without .json),
// when it was last kept, and its bytes.
type Entry struct {
	ID   string
	Kept time.Time
	Data []byte
}

// List is every draft this user's wopkit keeps, the newest first (none
// when there is no state folder).
func List() ([]Entry, error) {
	p, _, err := userstate.Open(Folder, false)
	if err != nil || p == nil {
		return nil, err
	}
	defer p.Close()
	des, err := os.ReadDir(p.Dir())
	if err != nil {
		return nil, werr.Wrap(werr.Env, "draft_unreadable", err, "cannot list the drafts in %s", p.Dir())
	}
	var out []Entry
	for _, de := range des {
		id, ok := strings.CutSuffix(de.Name(), ".json")
		fi, err := de.Info()
		if !ok || err != nil || !fi.Mode().IsRegular() {
			continue
		}
		b, err := p.ReadFile(p.In(de.Name()), untrusted.MaxDocument)
		if err != nil {
			continue
		}
		out = append(out, Entry{ID: id, Kept: fi.ModTime(), Data: b})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kept.After(out[j].Kept) })
	return out, nil
}

// RemoveID removes the draft id (see List).
func RemoveID(id string) {
	if id == "" || strings.ContainsAny(id, `/\.`) {
		return
	}
	p, _, err := userstate.Open(Folder, false)
	if err != nil || p == nil {
		return
	}
	defer p.Close()
	_ = p.Remove(p.In(id + ".json"))
}

// Draft is a kept draft as `wopkit new --list-drafts` shows it: once,
// however many folders it is kept for.
type Draft struct {
	ID   string    // what --resume takes (the start of its first copy's id)
	Name string    // the pack's (or tool's) name, "" when none was given yet
	Kept time.Time // when it was last kept
	IDs  []string  // the ids of its copies, one per folder
	Data []byte
}

// Listed is every draft kept, once each (the copies kept for several
// folders are one), the newest first; name says a draft's pack name (false:
// not a draft this wopkit reads, left out).
func Listed(name func(data []byte) (string, bool)) ([]Draft, error) {
	es, err := List()
	if err != nil {
		return nil, err
	}
	var out []Draft
	for _, e := range es {
		if i := slices.IndexFunc(out, func(d Draft) bool { return bytes.Equal(d.Data, e.Data) }); i >= 0 {
			out[i].IDs = append(out[i].IDs, e.ID)
			continue
		}
		n, ok := name(e.Data)
		if !ok {
			continue
		}
		out = append(out, Draft{ID: e.ID[:min(len(e.ID), 12)], Name: n, Kept: e.Kept, IDs: []string{e.ID}, Data: e.Data})
	}
	return out, nil
}

// Print writes the drafts, one a line: the id --resume takes, the pack's
// name and how long before now it was kept.
func Print(w io.Writer, ds []Draft, now time.Time) error {
	if len(ds) == 0 {
		_, err := fmt.Fprintln(w, "no drafts kept (esc in `wopkit new` offers to keep one)")
		return err
	}
	for _, d := range ds {
		name := d.Name
		if name == "" {
			name = "(no name yet)"
		}
		if _, err := fmt.Fprintf(w, "%s  %s  kept %s\n", d.ID, name, age(now.Sub(d.Kept))); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, "resume one: wopkit new --resume ID (or its pack name)")
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

// Newest names the newest draft to Find.
const Newest = "-"

// Find is the draft --resume names: by its id (or the start of it, four
// characters at least), else by its pack's name (the newest of that
// name); Newest is the newest.
func Find(ds []Draft, name string) (Draft, error) {
	for _, d := range ds {
		if name == Newest || len(name) >= 4 && strings.HasPrefix(d.IDs[0], name) || d.Name == name {
			return d, nil
		}
	}
	what := fmt.Sprintf("no draft %q is kept", name)
	if name == Newest {
		what = "no draft is kept"
	}
	return Draft{}, werr.New(werr.Invalid, "draft_not_found", "%s", what).
		WithHint("`wopkit new --list-drafts` lists the drafts kept, with their ids and pack names")
}
