package wizard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/userstate"
	"github.com/openwop/wopkit/internal/werr"
)

// Drafts: the answers as JSON, kept in wopkit's own state folder
// (internal/userstate, "drafts"), one per folder `wopkit new` runs in,
// named after that folder's real path. A file in the working tree is never
// read for one: a stranger's unpacked download cannot plant a draft, and a
// read-only folder still keeps one.

// draftFolder is the drafts' folder under wopkit's state folder.
const draftFolder = "drafts"

// draftName is the file name of the draft of the folder dir ("" is the
// current one): a hash of its real path.
func draftName(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	real, err := filepath.EvalSymlinks(dir)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return "", werr.Wrap(werr.Env, "draft_unwritable", err, "cannot resolve the folder %s, which a draft is kept for", dir)
	}
	sum := sha256.Sum256([]byte(real))
	return hex.EncodeToString(sum[:16]) + ".json", nil
}

// draftFile is where the draft of the folder dir is kept, for messages and
// tests ("" when there is no state folder).
func draftFile(dir string) string {
	base, err := userstate.Dir()
	name, err2 := draftName(dir)
	if err != nil || err2 != nil {
		return ""
	}
	return filepath.Join(base, draftFolder, name)
}

// saveDraft keeps a as the draft of the folder dir ("" in a dry run: an
// error that says none was kept), 0600 in a state folder private to this
// user. A failure says where it tried and what to do.
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
		return keepDraft(dir, b)
	}
}

// keepDraft writes the draft b of the folder dir.
func keepDraft(dir string, b []byte) error {
	name, err := draftName(dir)
	if err != nil {
		return err
	}
	p, where, err := userstate.Open(draftFolder, true)
	if err != nil { // it says where and what to do
		return werr.Wrap(werr.Env, "draft_unwritable", err, "cannot keep a draft of your answers")
	}
	defer p.Close()
	if err := p.WriteFile(p.In(name), append(b, '\n'), 0o600); err != nil {
		return draftErr(err, filepath.Join(where, name))
	}
	return nil
}

// draftErr is a draft that could not be kept: where, why, what to do.
func draftErr(err error, where string) error {
	return werr.Wrap(werr.Env, "draft_unwritable", err, "cannot keep a draft of your answers in %s", where).
		WithHint("make %s yours and writable, or set %s to a folder you can write and run `wopkit new` again", filepath.Dir(where), userstate.Env)
}

// loadDraft reads the draft of the folder dir, if this user's wopkit kept
// one.
func loadDraft(dir string) (*answers, bool) {
	name, err := draftName(dir)
	if err != nil {
		return nil, false
	}
	p, _, err := userstate.Open(draftFolder, false)
	if err != nil || p == nil {
		return nil, false
	}
	defer p.Close()
	b, err := p.ReadFile(p.In(name), untrusted.MaxDocument)
	if err != nil {
		return nil, false
	}
	a := newAnswers()
	if json.Unmarshal(upgradeDraft(b), a) != nil {
		return nil, false
	}
	return a, true
}

// removeDraft removes the draft of the folder dir ("" in a dry run:
// nothing).
func removeDraft(dir string) {
	if dir == "" {
		return
	}
	name, err := draftName(dir)
	if err != nil {
		return
	}
	p, _, err := userstate.Open(draftFolder, false)
	if err != nil || p == nil {
		return
	}
	defer p.Close()
	_ = p.Remove(p.In(name))
}
