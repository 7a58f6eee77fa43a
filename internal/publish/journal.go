package publish

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// A plan is written into the tree as one transaction, so that a kill at any
// moment (kill -9, a crash, a full disk) leaves the tree as it was or as the
// plan makes it, never a mix (a version's files without its index entries):
//
//  1. every new content, and a copy of every file it replaces, is written
//     into the transaction directory .wopkit-transaction at the registry
//     root, and synced;
//  2. the journal (journal.json there) listing the directories to create and
//     the renames, in phase order, is written, synced and renamed into
//     place: this is the commit point;
//  3. the directories are created and the new files renamed over their
//     targets, the directories synced;
//  4. the journal, then the transaction directory, are removed.
//
// A transaction directory left behind by a kill is resolved the next time a
// publish, yank or deprecate opens the tree (OpenTree, under the registry
// lock), before anything is read: without a journal nothing in the tree was
// touched, and the directory is removed (rolled back); with a journal in
// state "forward" the renames are completed (rolled forward: every new file
// is already in the directory); with state "back" (a failure after the
// commit point, whose undoing was cut short) the copies of the replaced
// files are put back and the created files and directories removed. Each
// step can be repeated, so a kill during the recovery is recovered the same
// way.

// txnDir is the transaction directory, relative to the registry root.
const txnDir = ".wopkit-transaction"

const (
	journalPath   = txnDir + "/journal.json"
	journalFormat = "wopkit-registry-transaction/1"
	stateForward  = "forward"
	stateBack     = "back"
)

// journal is the record of one transaction.
type journal struct {
	Format string         `json:"format"`
	State  string         `json:"state"` // stateForward or stateBack
	What   string         `json:"what"`  // name@version, for messages
	Dirs   []string       `json:"dirs"`  // directories the transaction creates, outermost first
	Files  []journalEntry `json:"files"` // in rename order
}

// journalEntry is one file of a transaction.
type journalEntry struct {
	Path string `json:"path"`          // the target, relative to the registry root
	New  string `json:"new"`           // the new content's name in txnDir
	Old  string `json:"old,omitempty"` // the replaced content's name in txnDir; "" for a new file
}

// crashPoint is called after every step of a transaction that a kill could
// follow; the wopkit_crashtest build makes it kill the process at the n-th
// call (WOPKIT_TEST_CRASH_AFTER=n), for the tests of the recovery.
var crashPoint = func() {}

// failBeforeRename, when >= 0, makes Apply fail before its n-th rename
// (tests of the rollback of a failure after the commit point).
var failBeforeRename = -1

// Apply writes the plan's changes as one transaction (see txnDir): all
// together or not at all, under a failure or a kill. A failure before the
// commit point leaves the tree untouched; one after it puts back the old
// content of every file already replaced and removes what was created.
func (p *Plan) Apply() (err error) {
	if p.NoOp || len(p.Changes) == 0 {
		return nil
	}
	d := p.dir
	if note, err := recoverTree(d); err != nil || note != "" {
		if err != nil {
			return err
		}
		return werr.New(werr.Env, "registry_changed", "%s changed since the plan was made (%s); nothing was written", p.Registry, note).
			WithHint("run the command again: it plans from the tree as it is now")
	}
	j := &journal{Format: journalFormat, State: stateForward, What: p.Name + "@" + p.Version, Dirs: []string{}}
	if j.Dirs, err = missingDirs(d, p.Changes); err != nil {
		return err
	}
	if err := d.Root().Mkdir(txnDir, 0o700); err != nil {
		return writeErr(p.Registry, txnDir, err).WithHint("if no other wopkit is running, remove %s", filepath.Join(p.Registry, txnDir))
	}
	committed := false
	defer func() {
		if err != nil && !committed {
			d.Root().RemoveAll(txnDir)
		}
	}()
	for i, c := range p.Changes {
		mode := fs.FileMode(0o644)
		if c.existed {
			mode = c.oldMode
		}
		f := journalEntry{Path: c.Path, New: fmt.Sprintf("%d.new", i)}
		if err := writeSynced(d, txnDir+"/"+f.New, c.data, mode); err != nil {
			return err
		}
		if c.existed {
			f.Old = fmt.Sprintf("%d.old", i)
			if err := writeSynced(d, txnDir+"/"+f.Old, c.old, c.oldMode); err != nil {
				return err
			}
		}
		j.Files = append(j.Files, f)
		crashPoint()
	}
	if err := writeJournal(d, j); err != nil {
		return err
	}
	committed = true
	crashPoint()
	if err := forward(d, j, failBeforeRename); err != nil {
		j.State = stateBack
		if jerr := writeJournal(d, j); jerr != nil {
			return errors.Join(err, jerr) // the journal still says forward: the next run completes it
		}
		crashPoint()
		return errors.Join(err, backward(d, j))
	}
	return nil
}

// Recover resolves a transaction a killed publish, yank or deprecate left
// in the registry at dir (see txnDir) and says what it did ("" when there
// was none). OpenTree does it first; a command that reads a registry
// checkout without staging into it can call it (under LockRegistry) to see
// the tree as it was or as the interrupted run makes it.
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
	return recoverTree(d)
}

// recoverTree resolves a transaction a killed run left in the registry root
// (see txnDir) and says what it did ("" when there was none).
func recoverTree(d *untrusted.Dir) (string, error) {
	fi, err := d.Lstat(txnDir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", werr.New(werr.Invalid, "registry_invalid", "%s is not wopkit's transaction directory (it is not a directory)", d.Join(txnDir)).
			WithHint("remove it: wopkit writes its transactions there")
	}
	var j journal
	err = d.ReadJSON(journalPath, untrusted.MaxDocument, &j)
	if errors.Is(err, fs.ErrNotExist) {
		if err := d.Root().RemoveAll(txnDir); err != nil {
			return "", writeErr(d.Path(), txnDir, err)
		}
		return "an earlier run was interrupted before it changed the tree: its staged files were removed", nil
	}
	if err != nil {
		return "", werr.Wrap(werr.Invalid, "registry_invalid", err, "cannot read the journal of an interrupted transaction, %s", d.Join(journalPath)).
			WithHint("inspect the tree (git status); remove %s once it is as it should be", d.Join(txnDir))
	}
	if err := j.check(); err != nil {
		return "", werr.Wrap(werr.Invalid, "registry_invalid", err, "%s is not a journal wopkit wrote", d.Join(journalPath)).
			WithHint("inspect the tree (git status); remove %s once it is as it should be", d.Join(txnDir))
	}
	if j.State == stateBack {
		if err := backward(d, &j); err != nil {
			return "", err
		}
		return fmt.Sprintf("an earlier run writing %s failed while it was undone: the undoing was completed (the tree is as it was before it)", j.What), nil
	}
	if err := forward(d, &j, -1); err != nil {
		return "", err
	}
	return fmt.Sprintf("an earlier run writing %s was interrupted after its commit point: it was completed", j.What), nil
}

// check refuses a journal that names anything but plain files of the tree.
func (j *journal) check() error {
	if j.Format != journalFormat || (j.State != stateForward && j.State != stateBack) {
		return fmt.Errorf("unknown format %q or state %q", j.Format, j.State)
	}
	inTree := func(p string) bool {
		return p != "" && path.Clean(p) == p && !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../") &&
			!strings.Contains(p, "\\") && p != txnDir && !strings.HasPrefix(p, txnDir+"/")
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
func forward(d *untrusted.Dir, j *journal, failAt int) error {
	r := d.Root()
	for _, dir := range j.Dirs {
		if err := r.Mkdir(filepath.FromSlash(dir), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
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
		if err := r.Rename(filepath.FromSlash(src), filepath.FromSlash(f.Path)); err != nil {
			return writeErr(d.Path(), f.Path, err)
		}
		synced[path.Dir(f.Path)] = false
		crashPoint()
	}
	for dir := range synced {
		if err := syncDir(d, dir); err != nil {
			return err
		}
	}
	return finish(d)
}

// backward undoes a transaction whose forward failed: every replaced file
// gets its copy back, every created file whose new content was renamed into
// place is removed, then the directories created (when empty), the journal
// and txnDir.
func backward(d *untrusted.Dir, j *journal) error {
	r := d.Root()
	var errs []error
	for i := len(j.Files) - 1; i >= 0; i-- {
		f := j.Files[i]
		if f.Old != "" {
			src := txnDir + "/" + f.Old
			if _, err := d.Lstat(src); err == nil {
				if err := r.Rename(filepath.FromSlash(src), filepath.FromSlash(f.Path)); err != nil {
					errs = append(errs, writeErr(d.Path(), f.Path, err))
				}
			}
		} else if _, err := d.Lstat(txnDir + "/" + f.New); errors.Is(err, fs.ErrNotExist) {
			if err := r.Remove(filepath.FromSlash(f.Path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, writeErr(d.Path(), f.Path, err))
			}
		}
		crashPoint()
	}
	for i := len(j.Dirs) - 1; i >= 0; i-- {
		r.Remove(filepath.FromSlash(j.Dirs[i])) // only when empty
	}
	if len(errs) > 0 {
		return errors.Join(errs...) // the journal stays: the next run undoes the rest
	}
	return finish(d)
}

// finish removes the journal (the transaction is resolved), then txnDir.
func finish(d *untrusted.Dir) error {
	if err := d.Root().Remove(filepath.FromSlash(journalPath)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return writeErr(d.Path(), journalPath, err)
	}
	crashPoint()
	if err := d.Root().RemoveAll(txnDir); err != nil {
		return writeErr(d.Path(), txnDir, err)
	}
	return syncDir(d, ".")
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
func writeSynced(d *untrusted.Dir, rel string, data []byte, mode fs.FileMode) error {
	f, err := d.Root().OpenFile(filepath.FromSlash(rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return writeErr(d.Path(), rel, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode) // whatever the umask
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return writeErr(d.Path(), rel, err)
	}
	return nil
}

// writeJournal writes j as txnDir's journal, replacing the one there
// atomically, and syncs it and txnDir.
func writeJournal(d *untrusted.Dir, j *journal) error {
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	tmp := txnDir + "/journal.tmp"
	d.Root().Remove(filepath.FromSlash(tmp))
	if err := writeSynced(d, tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	if err := d.Root().Rename(filepath.FromSlash(tmp), filepath.FromSlash(journalPath)); err != nil {
		return writeErr(d.Path(), journalPath, err)
	}
	return syncDir(d, txnDir)
}

// syncDir syncs directory rel, so that the renames in it are durable.
func syncDir(d *untrusted.Dir, rel string) error {
	f, err := d.Root().OpenFile(filepath.FromSlash(rel), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return writeErr(d.Path(), rel, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !errors.Is(err, syscall.EINVAL) {
		return writeErr(d.Path(), rel, err)
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
