package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/userstate"
	"github.com/openwop/wopkit/internal/werr"
)

// A plan is written into the tree as one transaction, so that a kill at any
// moment (kill -9, a crash, a full disk) leaves the tree as it was or as the
// plan makes it, never a mix (a version's files without its index entries):
//
//  1. the journal, in state "staging", is written into this user's state
//     folder (internal/userstate), under a name derived from the registry
//     root's real path, with the root's identity (device and inode);
//  2. every new content, and a copy of every file it replaces, is written
//     into the transaction directory .wopkit-transaction at the registry
//     root, and synced;
//  3. the journal, now in state "forward" and listing the directories to
//     create and the renames in phase order, replaces the first (written,
//     synced and renamed into place): this is the commit point;
//  4. the directories are created and the new files renamed over their
//     targets, the directories synced;
//  5. the transaction directory, then the journal, are removed.
//
// A transaction a kill left behind is resolved the next time a publish,
// yank or deprecate opens the tree (OpenTree, under the registry lock),
// before anything is read, and only from this user's journal for this
// checkout: in state "staging" nothing in the tree was touched and the
// transaction directory is removed (rolled back); in state "forward" the
// renames are completed (every new file is already in the directory); in
// state "back" (a failure after the commit point, whose undoing was cut
// short) the copies of the replaced files are put back and the created files
// and directories removed. Each step can be repeated, so a kill during the
// recovery is recovered the same way.
//
// The journal is wopkit's own state, so it is never read from the tree: a
// .wopkit-transaction directory (or a journal.json in it) that a clone of
// someone else's checkout brings is refused (transaction_not_ours) and left
// as it is, as is one this user's journal does not describe (another
// directory put in its place). No journal names a path inside .git, and
// every path stays inside the registry root (os.Root).

// txnDir is the transaction directory, relative to the registry root.
const txnDir = ".wopkit-transaction"

const (
	journalFormat = "wopkit-registry-transaction/2"
	stateStaging  = "staging"
	stateForward  = "forward"
	stateBack     = "back"
	// journalFolder is the folder of the journals in the state folder.
	journalFolder = "transactions"
)

// Codes of the transaction refusals.
const (
	// CodeNotOurs: the tree holds a transaction this user's wopkit did not
	// write on this machine for this checkout.
	CodeNotOurs = "transaction_not_ours"
	// CodePending: --dry-run found an interrupted transaction of this
	// user's, which only a run that writes may complete or undo.
	CodePending = "transaction_pending"
)

// journal is the record of one transaction.
type journal struct {
	Format string         `json:"format"`
	State  string         `json:"state"`  // stateStaging, stateForward or stateBack
	What   string         `json:"what"`   // name@version, for messages
	Root   string         `json:"root"`   // the registry root's real path
	RootID string         `json:"rootId"` // its identity (userstate.ID)
	TxnID  string         `json:"txnId"`  // the transaction directory's identity, once made
	Dirs   []string       `json:"dirs"`   // directories the transaction creates, outermost first
	Files  []journalEntry `json:"files"`  // in rename order
}

// journalEntry is one file of a transaction.
type journalEntry struct {
	Path string `json:"path"`          // the target, relative to the registry root
	New  string `json:"new"`           // the new content's name in txnDir
	Old  string `json:"old,omitempty"` // the replaced content's name in txnDir; "" for a new file
}

// txn is a registry root and its journal in the state folder.
type txn struct {
	d      *untrusted.Dir
	pl     *atomicfile.Place // the tree, for writes
	real   string            // the root's real path
	rootID string            // its identity
	state  *atomicfile.Place // the journals' folder; nil when it does not exist (no journal)
	where  string            // its path, for messages
	name   string            // the journal's file name in it
}

// crashPoint is called after every step of a transaction that a kill could
// follow; the wopkit_crashtest build makes it kill the process at the n-th
// call (WOPKIT_TEST_CRASH_AFTER=n), for the tests of the recovery.
var crashPoint = atomicfile.CrashPoint

// failBeforeRename, when >= 0, makes Apply fail before its n-th rename
// (tests of the rollback of a failure after the commit point).
var failBeforeRename = -1

// openTxn finds the journal of the registry root d (creating the journals'
// folder when create is set). A root inside a .git directory is refused.
func openTxn(d *untrusted.Dir, create bool) (*txn, error) {
	real, err := filepath.EvalSymlinks(d.Path())
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot resolve the registry root %s", d.Path())
	}
	for _, part := range strings.Split(filepath.ToSlash(real), "/") {
		if gitName(part) {
			return nil, werr.New(werr.Invalid, "registry_invalid", "the registry root %s is inside a .git folder (%s); wopkit never writes there", d.Path(), real).
				WithHint("give the checkout's work tree (the folder holding .well-known/ or registry/)")
		}
	}
	fi, err := d.Stat(".")
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot open the registry root %s", d.Path())
	}
	state, where, err := userstate.Open(journalFolder, create)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(real))
	return &txn{d: d, pl: atomicfile.InDir(d), real: real, rootID: userstate.ID(fi), state: state, where: where, name: hex.EncodeToString(sum[:16]) + ".json"}, nil
}

func (t *txn) close() {
	if t.state != nil {
		t.state.Close()
	}
}

func (t *txn) journalPath() string { return filepath.Join(t.where, t.name) }

// load reads this root's journal; nil when there is none.
func (t *txn) load() (*journal, error) {
	if t.state == nil {
		return nil, nil
	}
	data, err := t.state.ReadFile(t.state.In(t.name), untrusted.MaxDocument)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_invalid", err, "cannot read wopkit's journal of an interrupted transaction, %s", t.journalPath())
	}
	var j journal
	if err := untrusted.DecodeJSON(data, &j); err != nil {
		return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "cannot read wopkit's journal of an interrupted transaction, %s", t.journalPath()).
			WithHint("inspect the tree (git status); remove %s and %s once it is as it should be", t.journalPath(), t.d.Join(txnDir))
	}
	return &j, nil
}

// save writes j as this root's journal, replacing the one there atomically
// (synced).
func (t *txn) save(j *journal) error {
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return t.state.WriteFile(t.state.In(t.name), append(b, '\n'), 0o600)
}

// drop removes this root's journal (the transaction is resolved).
func (t *txn) drop() error {
	if t.state == nil {
		return nil
	}
	if err := t.state.Remove(t.state.In(t.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return werr.Wrap(werr.Env, "write_failed", err, "cannot remove wopkit's journal %s", t.journalPath())
	}
	return t.state.Sync(t.state.Dir())
}

// Apply writes the plan's changes as one transaction (see txnDir): all
// together or not at all, under a failure or a kill. A failure before the
// commit point leaves the tree untouched; one after it puts back the old
// content of every file already replaced and removes what was created.
func (p *Plan) Apply() (err error) {
	if p.NoOp || len(p.Changes) == 0 {
		return nil
	}
	d := p.dir
	if note, err := recoverTree(d, false); err != nil || note != "" {
		if err != nil {
			return err
		}
		return werr.New(werr.Env, "registry_changed", "%s changed since the plan was made (%s); nothing was written", p.Registry, note).
			WithHint("run the command again: it plans from the tree as it is now")
	}
	t, err := openTxn(d, true)
	if err != nil {
		return err
	}
	defer t.close()
	j := &journal{Format: journalFormat, State: stateStaging, What: p.what(), Root: t.real, RootID: t.rootID, Dirs: []string{}}
	if j.Dirs, err = missingDirs(d, p.Changes); err != nil {
		return err
	}
	for i, c := range p.Changes {
		j.Files = append(j.Files, journalEntry{Path: c.Path, New: fmt.Sprintf("%d.new", i)})
		if c.existed {
			j.Files[i].Old = fmt.Sprintf("%d.old", i)
		}
	}
	if err := j.check(); err != nil {
		return werr.Wrap(werr.Invalid, "registry_invalid", err, "wopkit planned a write it never makes into %s; nothing was written", p.Registry)
	}
	if err := t.save(j); err != nil {
		return err
	}
	crashPoint()
	committed := false
	defer func() {
		if err != nil && !committed {
			t.pl.RemoveAll(t.pl.In(txnDir))
			t.drop()
		}
	}()
	if err := t.pl.Mkdir(t.pl.In(txnDir), 0o700); err != nil {
		return writeErr(p.Registry, txnDir, err).WithHint("if no other wopkit is running, remove %s", filepath.Join(p.Registry, txnDir))
	}
	fi, err := d.Lstat(txnDir)
	if err != nil {
		return writeErr(p.Registry, txnDir, err)
	}
	j.TxnID = userstate.ID(fi)
	for i, c := range p.Changes {
		mode := fs.FileMode(0o644)
		if c.existed {
			mode = c.oldMode
		}
		f := j.Files[i]
		if err := writeSynced(t, txnDir+"/"+f.New, c.data, mode); err != nil {
			return err
		}
		if f.Old != "" {
			if err := writeSynced(t, txnDir+"/"+f.Old, c.old, c.oldMode); err != nil {
				return err
			}
		}
		crashPoint()
	}
	if err := syncDir(t, txnDir); err != nil {
		return err
	}
	j.State = stateForward
	if err := t.save(j); err != nil {
		return err
	}
	committed = true
	crashPoint()
	if err := forward(t, j, failBeforeRename); err != nil {
		j.State = stateBack
		if jerr := t.save(j); jerr != nil {
			return errors.Join(err, jerr) // the journal still says forward: the next run completes it
		}
		crashPoint()
		return errors.Join(err, backward(t, j))
	}
	return nil
}

// what names the plan in its journal: name@version, or the name alone
// (a keychain addition).
func (p *Plan) what() string {
	if p.Version == "" {
		return p.Name
	}
	return p.Name + "@" + p.Version
}

// Recover resolves a transaction a killed publish, yank or deprecate of
// this user's left in the registry at dir (see txnDir) and says what it did
// ("" when there was none). OpenTree does it first; a command that reads a
// registry checkout without staging into it can call it (under
// LockRegistry) to see the tree as it was or as the interrupted run makes
// it.
func Recover(dir string) (string, error) {
	root, err := FindRoot(dir)
	if err != nil {
		return "", err
	}
	d, err := untrusted.OpenDir(root)
	if err != nil {
		return "", werr.Wrap(werr.Env, "registry_unreadable", err, "cannot open the registry root %s", root)
	}
	defer d.Close()
	return recoverTree(d, false)
}

// recoverTree resolves a transaction a killed run of this user's left in
// the registry root (see txnDir) and says what it did ("" when there was
// none). With dryRun it changes nothing: a pending transaction is refused
// (CodePending), as one that is not this user's always is (CodeNotOurs).
func recoverTree(d *untrusted.Dir, dryRun bool) (string, error) {
	t, err := openTxn(d, false)
	if err != nil {
		return "", err
	}
	defer t.close()
	j, err := t.load()
	if err != nil {
		return "", err
	}
	var notes []string
	if j != nil && (j.Root != t.real || j.RootID != t.rootID || j.Format != journalFormat) {
		// This user's journal of a checkout that was at this path before
		// (removed, cloned again): that tree is gone, so is its transaction.
		j = nil
		if !dryRun {
			if err := t.drop(); err != nil {
				return "", err
			}
			notes = append(notes, "wopkit's journal of an earlier checkout at this path was discarded")
		}
	}
	fi, err := d.Lstat(txnDir)
	has := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	notOurs := func(why string) error {
		return werr.New(werr.Invalid, CodeNotOurs, "%s holds a transaction this user's wopkit did not write on this machine for this checkout (%s); nothing was done", d.Join(txnDir), why).
			WithHint("wopkit never runs a transaction it finds in a tree (a clone of someone else's checkout may hold one): inspect the tree (git status) and remove %s yourself", d.Join(txnDir))
	}
	if j == nil {
		if has {
			return "", notOurs("there is no journal of it in " + t.where)
		}
		return strings.Join(notes, "; "), nil
	}
	if dryRun {
		return "", werr.New(werr.Env, CodePending, "a %s of %s into %s was interrupted and is not yet completed or undone; --dry-run changes nothing, so it cannot plan from this tree", "run", j.What, t.real).
			WithHint("run the command once without --dry-run: it completes or undoes the interrupted run first")
	}
	if err := j.check(); err != nil {
		return "", werr.Wrap(werr.Invalid, "registry_invalid", err, "%s is not a journal wopkit writes", t.journalPath()).
			WithHint("inspect the tree (git status); remove %s and %s once it is as it should be", t.journalPath(), d.Join(txnDir))
	}
	if has && (!fi.IsDir() || (j.TxnID != "" && userstate.ID(fi) != j.TxnID) || (j.TxnID == "" && j.State != stateStaging)) {
		return "", notOurs("it is not the directory wopkit's journal " + t.journalPath() + " describes")
	}
	switch j.State {
	case stateStaging:
		if has {
			if err := t.pl.RemoveAll(t.pl.In(txnDir)); err != nil {
				return "", writeErr(d.Path(), txnDir, err)
			}
			crashPoint()
		}
		if err := t.drop(); err != nil {
			return "", err
		}
		notes = append(notes, "an earlier run was interrupted before it changed the tree: its staged files were removed")
	case stateBack:
		if err := backward(t, j); err != nil {
			return "", err
		}
		notes = append(notes, fmt.Sprintf("an earlier run writing %s failed while it was undone: the undoing was completed (the tree is as it was before it)", j.What))
	default:
		if err := forward(t, j, -1); err != nil {
			return "", err
		}
		notes = append(notes, fmt.Sprintf("an earlier run writing %s was interrupted after its commit point: it was completed", j.What))
	}
	return strings.Join(notes, "; "), nil
}

// gitName reports a path segment that names git's folder (in any letter
// case: one name on case-insensitive file systems).
func gitName(s string) bool { return strings.EqualFold(s, ".git") }

// check refuses a journal that names anything but plain files of the tree.
func (j *journal) check() error {
	if j.Format != journalFormat || (j.State != stateStaging && j.State != stateForward && j.State != stateBack) {
		return fmt.Errorf("unknown format %q or state %q", j.Format, j.State)
	}
	inTree := func(p string) bool {
		if p == "" || path.Clean(p) != p || path.IsAbs(p) || strings.Contains(p, "\\") {
			return false
		}
		for _, part := range strings.Split(p, "/") {
			if part == ".." || gitName(part) {
				return false
			}
		}
		return p != txnDir && !strings.HasPrefix(p, txnDir+"/")
	}
	staged := func(n string) bool { return n != "" && safeName(n) && n != "journal.json" }
	for _, dir := range j.Dirs {
		if !inTree(dir) {
			return fmt.Errorf("directory %q is not in the tree", dir)
		}
	}
	for _, f := range j.Files {
		if !inTree(f.Path) || !staged(f.New) || (f.Old != "" && !staged(f.Old)) {
			return fmt.Errorf("file %q (%q, %q) is not in the tree", f.Path, f.New, f.Old)
		}
	}
	return nil
}

// forward completes a committed transaction: creates its directories and
// renames every staged file still in txnDir over its target, syncs the
// directories, then removes the journal and txnDir. A staged file no longer
// there was renamed by an earlier, interrupted forward. failAt >= 0 fails
// before that rename (tests).
func forward(t *txn, j *journal, failAt int) error {
	d, pl := t.d, t.pl
	for _, dir := range j.Dirs {
		if err := pl.Mkdir(pl.In(dir), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return writeErr(d.Path(), dir, err)
		}
		crashPoint()
	}
	synced := map[string]bool{}
	for i, f := range j.Files {
		if i == failAt {
			return werr.New(werr.Env, "write_failed", "injected failure before writing %s", d.Join(f.Path))
		}
		src := txnDir + "/" + f.New
		if _, err := d.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := pl.Rename(pl.In(src), pl.In(f.Path)); err != nil {
			return writeErr(d.Path(), f.Path, err)
		}
		synced[path.Dir(f.Path)] = false
		crashPoint()
	}
	for dir := range synced {
		if err := syncDir(t, dir); err != nil {
			return err
		}
	}
	return finish(t)
}

// backward undoes a transaction whose forward failed: every replaced file
// gets its copy back, every created file whose new content was renamed into
// place is removed, then the directories created (when empty), the journal
// and txnDir.
func backward(t *txn, j *journal) error {
	d, pl := t.d, t.pl
	var errs []error
	for i := len(j.Files) - 1; i >= 0; i-- {
		f := j.Files[i]
		if f.Old != "" {
			src := txnDir + "/" + f.Old
			if _, err := d.Lstat(src); err == nil {
				if err := pl.Rename(pl.In(src), pl.In(f.Path)); err != nil {
					errs = append(errs, writeErr(d.Path(), f.Path, err))
				}
			}
		} else if _, err := d.Lstat(txnDir + "/" + f.New); errors.Is(err, fs.ErrNotExist) {
			if err := pl.Remove(pl.In(f.Path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, writeErr(d.Path(), f.Path, err))
			}
		}
		crashPoint()
	}
	for i := len(j.Dirs) - 1; i >= 0; i-- {
		pl.Remove(pl.In(j.Dirs[i])) // only when empty
	}
	if len(errs) > 0 {
		return errors.Join(errs...) // the journal stays: the next run undoes the rest
	}
	return finish(t)
}

// finish removes txnDir, then the journal (the transaction is resolved).
func finish(t *txn) error {
	d := t.d
	if err := t.pl.RemoveAll(t.pl.In(txnDir)); err != nil {
		return writeErr(d.Path(), txnDir, err)
	}
	if err := syncDir(t, "."); err != nil {
		return err
	}
	crashPoint()
	return t.drop()
}

// missingDirs returns the directories the changes need that do not exist,
// outermost first. A parent that exists but is not a directory, or leaves
// the root, is refused.
func missingDirs(d *untrusted.Dir, changes []Change) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, c := range changes {
		var chain []string
		for dir := path.Dir(c.Path); dir != "." && !seen[dir]; dir = path.Dir(dir) {
			seen[dir] = true
			fi, err := d.Stat(dir)
			if err == nil {
				if !fi.IsDir() {
					return nil, werr.New(werr.Invalid, "registry_invalid", "%s is not a directory", d.Join(dir))
				}
				break
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			chain = append(chain, dir)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			out = append(out, chain[i])
		}
	}
	return out, nil
}

// writeSynced creates rel (which must not exist) with data and mode, and
// syncs it.
func writeSynced(t *txn, rel string, data []byte, mode fs.FileMode) error {
	if err := t.pl.CreateExcl(t.pl.In(rel), data, mode); err != nil {
		return writeErr(t.d.Path(), rel, err)
	}
	return nil
}

// syncDir syncs directory rel, so that the renames in it are durable.
func syncDir(t *txn, rel string) error {
	if err := t.pl.Sync(t.pl.In(rel)); err != nil {
		return writeErr(t.d.Path(), rel, err)
	}
	return nil
}

func writeErr(root, rel string, err error) *werr.Error {
	if we := (*werr.Error)(nil); errors.As(err, &we) && we.Code != "" {
		return we
	}
	msg := err.Error()
	code := "write_failed"
	if strings.Contains(msg, "escapes from parent") || strings.Contains(msg, "path escapes") {
		code = untrusted.CodeOutsideRoot
		return werr.Wrap(werr.Invalid, code, err, "%s leaves %s (a link pointing outside it); nothing was written there", filepath.Join(root, filepath.FromSlash(rel)), root).
			WithHint("wopkit writes only inside the registry root: replace the link with a directory")
	}
	return werr.Wrap(werr.Env, code, err, "cannot write %s", filepath.Join(root, filepath.FromSlash(rel)))
}
