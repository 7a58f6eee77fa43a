// Package atomicfile writes files so that a reader, or a crash, sees either
// the old content or the new, never a part: data goes to a temporary file in
// the same directory, is synced, and is renamed over the final path. A Batch
// commits several files together (a tarball, its signature and its version
// manifest; the files of a scaffold), leaving nothing behind on failure.
package atomicfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// File is a file being written under a temporary name beside its final path.
type File struct {
	*os.File
	root   *os.Root // the place it is written in
	owned  bool     // root was opened for this file alone: closed with it
	dir    string   // the place's folder
	tmp    string   // the temporary name, relative to root
	rel    string   // the final name, relative to root
	final  string   // the final path, for messages
	closed bool
	base   []byte // for a replacement: the content it was planned from
	check  bool   // base is set: refuse to rename over other content
	stream bool   // a device, named pipe or standard output, written as it is
	stdout bool   // standard output: never closed
}

// tempInfix makes up the names of temporary files
// ("." + base + ".tmp-" + random): IsTemp recognises them, so that one left
// behind by a killed process is never packed.
const tempInfix = ".tmp-"

// IsTemp reports whether a file name (without directory) is one of the
// temporary names Create uses.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempInfix)
}

// beforeRename, when set (by tests), runs before each rename of a batch;
// an error stops the commit there, as a kill would (temporary files stay).
var beforeRename func(final string) error

// Create starts writing final, in final's own folder (the place: nothing is
// written through a link that leaves it). The file gets mode perm whatever
// the umask (key files must be 0600).
func Create(final string, perm fs.FileMode) (*File, error) {
	if final == Stdout {
		return stdoutFile(), nil
	}
	pl, err := OpenPlace(filepath.Dir(final))
	if err != nil {
		return nil, err
	}
	f, err := pl.create(final, perm)
	if err != nil {
		pl.Close()
		return nil, err
	}
	f.owned = true
	return f, nil
}

// create starts writing final (inside the place).
func (p *Place) create(final string, perm fs.FileMode) (*File, error) {
	if final == Stdout {
		return stdoutFile(), nil
	}
	rel, err := p.rel(final)
	if err != nil {
		return nil, err
	}
	if f, ok, err := openStream(p.root, p.dir, rel, final); ok || err != nil {
		return f, err
	}
	tmp, err := tempIn(p.root, rel, perm)
	if err != nil {
		return nil, err
	}
	f, err := p.root.OpenFile(tmp, os.O_WRONLY, 0)
	if err != nil {
		p.root.Remove(tmp)
		return nil, failed(err, final)
	}
	return &File{File: f, root: p.root, dir: p.dir, tmp: tmp, rel: rel, final: final}, nil
}

// Final returns the path the file will have once committed.
func (f *File) Final() string { return f.final }

// finish syncs and closes the temporary file.
func (f *File) finish() error {
	if f.closed {
		return nil
	}
	f.closed = true
	if f.stream {
		if f.stdout {
			return nil
		}
		return f.File.Close()
	}
	err := f.Sync()
	if errors.Is(err, os.ErrInvalid) {
		err = nil
	}
	return errors.Join(err, f.File.Close())
}

// rename moves the temporary file over its final name.
func (f *File) rename() error {
	if f.stream {
		f.release()
		return nil
	}
	if err := renameOver(f.root, f.tmp, f.rel, f.final); err != nil {
		return placeErr(err, f.final)
	}
	f.tmp = ""
	f.release()
	return nil
}

// release closes the place when it was opened for this file alone.
func (f *File) release() {
	if f.owned && f.root != nil {
		f.owned = false
		f.root.Close()
	}
}

// Commit syncs the file and renames it over its final path.
func (f *File) Commit() error {
	if err := f.finish(); err != nil {
		f.Abort()
		return failed(err, f.final)
	}
	if err := f.rename(); err != nil {
		f.Abort()
		return err
	}
	return nil
}

// Abort discards the temporary file; the final path is untouched.
func (f *File) Abort() {
	if !f.closed {
		f.closed = true
		if !f.stdout {
			f.File.Close()
		}
	}
	if f.tmp != "" {
		f.root.Remove(f.tmp)
		f.tmp = ""
	}
	f.release()
}

// WriteFile replaces path with data, giving it mode perm.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return failed(err, path)
	}
	return f.Commit()
}

// Replace is WriteFile that keeps an existing file's permissions and, when
// path is a symbolic link to a file in the same folder or below, writes
// through it (the link stays a link and its target gets the content); a
// link that leaves the folder is refused (path_outside_root). A new file
// gets perm.
func Replace(path string, data []byte, perm fs.FileMode) error {
	var b Batch
	if err := b.replace(path, data, nil, perm, false); err != nil {
		b.Abort()
		return err
	}
	return b.Commit()
}

// target resolves the file a replacement of rel writes inside the place: the
// target of a symbolic link (so the link survives), as long as it stays
// inside root, with the existing file's permissions.
func (p *Place) target(rel string, perm fs.FileMode) (string, fs.FileMode, error) {
	root := p.root
	for range 40 {
		fi, err := root.Lstat(rel)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		link, err := root.Readlink(rel)
		if err != nil {
			return "", 0, err
		}
		next := filepath.Join(filepath.Dir(rel), link)
		if filepath.IsAbs(link) {
			if next, err = p.rel(link); err != nil {
				return "", 0, outside(rel, link)
			}
		}
		if next == ".." || strings.HasPrefix(next, ".."+string(filepath.Separator)) {
			return "", 0, outside(rel, link)
		}
		rel = next
	}
	if fi, err := root.Stat(rel); err == nil {
		perm = fi.Mode().Perm()
	}
	return rel, perm, nil
}

// outside is the error of a link that leads out of the place.
func outside(rel, link string) error {
	return &fs.PathError{Op: "write", Path: rel, Err: errors.New("path escapes from parent (a link to " + link + ")")}
}

// Batch writes several files that appear together or not at all: each is
// written under a temporary name, and Commit renames them all. Place, when
// set, is the folder every file of the batch must be in (a pack folder):
// nothing is written through a link that leaves it; without it each file's
// own folder is its place.
type Batch struct {
	Place string
	// Journal, when set, records the renames while they run (a release's
	// .tgz, .sig and .json): see Journal.
	Journal Journal
	files   []*File
	places  map[string]*Place
}

// Staged is a file of a batch written and synced under its temporary name,
// ready to be renamed over its final path.
type Staged struct {
	Temp  string `json:"temp"`
	Final string `json:"final"`
}

// Journal records a batch's renames, so that a run killed between them is
// completed by the next one: Begin is called once every file is written and
// synced, before the first rename (the commit point), and Done after the
// last.
type Journal interface {
	Begin(files []Staged) error
	Done() error
}

// crashPoint is called after each step of a journalled commit; the
// wopkit_crashtest build makes it kill the process at the n-th call
// (WOPKIT_TEST_CRASH_AFTER=n), for the kill tests.
var crashPoint = func() {}

// CrashPoint marks a step a kill could follow, for a journal's recovery.
func CrashPoint() { crashPoint() }

// place opens (once) the place final is written in.
func (b *Batch) place(final string) (*Place, error) {
	dir := b.Place
	if dir == "" {
		dir = filepath.Dir(final)
	}
	if p, ok := b.places[dir]; ok {
		return p, nil
	}
	p, err := OpenPlace(dir)
	if err != nil {
		return nil, err
	}
	if b.places == nil {
		b.places = map[string]*Place{}
	}
	b.places[dir] = p
	return p, nil
}

// Create starts writing one file of the batch.
func (b *Batch) Create(final string, perm fs.FileMode) (*File, error) {
	if final == Stdout {
		f := stdoutFile()
		b.files = append(b.files, f)
		return f, nil
	}
	p, err := b.place(final)
	if err != nil {
		return nil, err
	}
	f, err := p.create(final, perm)
	if err != nil {
		return nil, err
	}
	b.files = append(b.files, f)
	return f, nil
}

// Add writes a whole file of the batch from data.
func (b *Batch) Add(final string, data []byte, perm fs.FileMode) error {
	f, err := b.Create(final, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return failed(err, final)
	}
	return nil
}

// Replace adds the new content of an existing file that was planned from
// base (its content when it was read): the file keeps its permissions, a
// symbolic link is written through when its target is inside the place
// (one that leaves it is refused, path_outside_root), and Commit refuses
// (code file_changed_since_read) when the file no longer holds base. Files
// added with Replace are renamed after every file added with Add or Create,
// in the order they were added: a file that references new files
// (pack.json) only changes once those files are in place, so a kill between
// renames never leaves it pointing at missing files.
func (b *Batch) Replace(final string, data, base []byte, perm fs.FileMode) error {
	return b.replace(final, data, base, perm, true)
}

func (b *Batch) replace(final string, data, base []byte, perm fs.FileMode, check bool) error {
	if final == Stdout {
		return b.Add(final, data, perm)
	}
	p, err := b.place(final)
	if err != nil {
		return err
	}
	rel, err := p.rel(final)
	if err != nil {
		return err
	}
	rel, perm, err = p.target(rel, perm)
	if err != nil {
		return placeErr(err, final)
	}
	f, err := p.create(filepath.Join(p.dir, rel), perm)
	if err != nil {
		return err
	}
	b.files = append(b.files, f)
	if _, err := f.Write(data); err != nil {
		return failed(err, final)
	}
	f.base, f.check = base, check && !f.stream
	return nil
}

// CodeChanged is the code of a replacement refused because the file changed
// since it was read.
const CodeChanged = "file_changed_since_read"

func (f *File) unchanged() error {
	if !f.check {
		return nil
	}
	// Read through the untrusted layer: a regular file of at most the
	// base's size (one that grew has changed), never blocking on a FIFO put
	// in its place.
	cur, err := untrusted.ReadFileIn(f.root, f.rel, int64(len(f.base)))
	changed := werr.CodeOf(err) == untrusted.CodeTooLarge
	if err != nil && !changed && !errors.Is(err, fs.ErrNotExist) {
		if werr.CodeOf(err) != "" {
			return err // the layer's refusal: file_not_regular, path_outside_root
		}
		return failed(err, f.final)
	}
	if changed || !bytes.Equal(cur, f.base) {
		return werr.New(werr.Env, CodeChanged, "%s changed since wopkit read it (another program wrote it); nothing was written", f.final).
			WithHint("run the command again: it re-reads the file")
	}
	return nil
}

// Commit syncs every file, checks that no replaced file changed since it was
// read, then renames the new files (in the order they were created) and
// after them the replacements. On failure the files not yet renamed are
// removed, and the error says how many were already in place.
func (b *Batch) Commit() error {
	for _, f := range b.files {
		if err := f.finish(); err != nil {
			b.Abort()
			return failed(err, f.final)
		}
	}
	ordered := make([]*File, 0, len(b.files))
	for _, replaced := range []bool{false, true} {
		for _, f := range b.files {
			if f.check == replaced {
				ordered = append(ordered, f)
			}
		}
	}
	b.files = ordered
	for _, f := range b.files {
		if err := f.unchanged(); err != nil {
			b.Abort()
			return err
		}
	}
	if b.Journal != nil {
		staged := make([]Staged, 0, len(b.files))
		for _, f := range b.files {
			if !f.stream { // written already: nothing to rename
				staged = append(staged, Staged{Temp: filepath.Join(f.dir, f.tmp), Final: filepath.Join(f.dir, f.rel)})
			}
		}
		if err := b.Journal.Begin(staged); err != nil {
			b.Abort()
			return err
		}
		crashPoint()
	}
	for i, f := range b.files {
		if beforeRename != nil {
			if err := beforeRename(f.final); err != nil {
				return err
			}
		}
		if err := f.unchanged(); err != nil {
			b.files = b.files[i:]
			b.Abort()
			return err
		}
		if err := f.rename(); err != nil {
			b.files = b.files[i:]
			b.Abort()
			e := placeErr(err, f.final)
			if i > 0 {
				e.Msg += " (after " + strconv.Itoa(i) + " of the other files were written)"
			}
			return e
		}
		if b.Journal != nil {
			crashPoint()
		}
	}
	b.files = nil
	b.close()
	if b.Journal != nil {
		if err := b.Journal.Done(); err != nil {
			return err
		}
		crashPoint()
	}
	return nil
}

// Abort discards every file of the batch not yet committed.
func (b *Batch) Abort() {
	for _, f := range b.files {
		f.Abort()
	}
	b.files = nil
	b.close()
}

func (b *Batch) close() {
	for _, p := range b.places {
		p.Close()
	}
	b.places = nil
}

func failed(err error, path string) *werr.Error {
	return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", path)
}

// ReplaceIf is Replace for a file edited from base (its content when it was
// read): it refuses, with code file_changed_since_read, when another program
// changed the file meanwhile, instead of losing that program's change.
func ReplaceIf(path string, data, base []byte, perm fs.FileMode) error {
	var b Batch
	if err := b.Replace(path, data, base, perm); err != nil {
		b.Abort()
		return err
	}
	return b.Commit()
}
