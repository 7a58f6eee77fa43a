package untrusted

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
	"syscall"
)

// maxSubdirs bounds the directory handles a Dir keeps open (see sub): a
// registry keeps two per pack (<tree>/packs/<name> and its -), so 512
// covers a registry of 255 packs (the live one has 156; with 128, verify
// of it walked every path of the last 93 component by component).
const maxSubdirs = 512

// sub returns a handle on the directory dir (a clean slash path inside the
// root), opened once, from its parent's handle, and kept until the Dir is
// closed: a file opened through it costs one lookup instead of one per
// component of its path (verify of a whole registry opens two documents
// per version, five components deep). nil when dir cannot be opened so,
// or the Dir already keeps maxSubdirs handles: the caller then opens the
// file through the root by its whole path.
func (d *Dir) sub(dir string) *os.Root {
	if dir == "." {
		return d.root
	}
	d.mu.Lock()
	r, ok := d.subs[dir]
	full := len(d.subs) >= maxSubdirs
	d.mu.Unlock()
	if ok {
		return r
	}
	if full {
		return nil
	}
	parent := d.sub(path.Dir(dir))
	if parent == nil {
		return nil
	}
	r, err := parent.OpenRoot(path.Base(dir))
	if err != nil {
		// A link to a directory elsewhere in the root: the root decides.
		if r, err = d.root.OpenRoot(filepath.FromSlash(dir)); err != nil {
			return nil
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if prev, ok := d.subs[dir]; ok || len(d.subs) >= maxSubdirs {
		r.Close() // another goroutine opened it first, or the cache filled
		return prev
	}
	if d.subs == nil {
		d.subs = map[string]*os.Root{}
	}
	d.subs[dir] = r
	return r
}

// openFast opens the regular file rel of at most max bytes through its
// directory's kept handle (see sub), returning it with its size. ok is
// false when the caller must open rel through the root instead, whose
// verdict and message then stand: rel is not a clean path inside the
// root, or anything but success or a missing file came of it. A missing
// file is final: the lookup stayed inside the directory, so the root's
// would have found the same (a link leaving the directory is an error
// other than a missing file).
func (d *Dir) openFast(rel string, max int64) (f *os.File, size int64, ok bool, err error) {
	if d.direct || rel != path.Clean(rel) || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, 0, false, nil
	}
	r := d.sub(path.Dir(rel))
	if r == nil {
		return nil, 0, false, nil
	}
	base := path.Base(rel)
	fi, err := r.Stat(base)
	if err == nil && fi.Mode().IsRegular() && (max < 0 || fi.Size() <= max) {
		f, err = r.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			st, serr := f.Stat()
			if serr == nil && st.Mode().IsRegular() && (max < 0 || st.Size() <= max) {
				return f, st.Size(), true, nil
			}
			f.Close()
			return nil, 0, false, nil
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			// The root names the path it was given: so does this error.
			err = &fs.PathError{Op: pe.Op, Path: filepath.FromSlash(rel), Err: pe.Err}
		}
		return nil, 0, true, err
	}
	return nil, 0, false, nil
}

// closeSubs closes the kept directory handles.
func (d *Dir) closeSubs() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, r := range d.subs {
		r.Close()
	}
	d.subs = nil
}

// maxFolders bounds the folders a Folders keeps open: verify of a whole
// registry's tarballs reads beside each one in its own pack's folder (156
// in the live registry; past the bound each read opens and closes it).
const maxFolders = 256

// Folders reads files named by their path as ReadFile does (the file's
// folder is the root), keeping each folder open for the next file of it:
// verify of many tarballs reads the signature beside each. It is for the
// files beside a file just opened (the tarball): their folder is a folder,
// so it is not checked again for a named pipe (a stat per folder opened,
// a twentieth of verify's time over a registry). The zero value
// is ready; a nil *Folders opens the folder for each read. Close releases
// the folders.
type Folders struct {
	mu sync.Mutex
	m  map[string]*Dir
}

// ReadFile reads the file path of at most max bytes, as ReadFile does.
func (fo *Folders) ReadFile(path string, max int64) ([]byte, error) {
	d, done, err := fo.folder(path)
	if err != nil {
		return nil, err
	}
	defer done()
	return d.ReadFile(filepath.Base(path), max)
}

// UseFile reads the file path of at most max bytes as ReadFile does and
// hands its bytes to use, as Dir.UseFile does (they are valid only until
// use returns).
func (fo *Folders) UseFile(path string, max int64, use func(data []byte) error) error {
	d, done, err := fo.folder(path)
	if err != nil {
		return err
	}
	defer done()
	return d.UseFile(filepath.Base(path), max, use)
}

// folder returns the folder of path, opened (and kept, while fewer than
// maxFolders are) without the named-pipe check (see Folders; a nil
// *Folders opens it with OpenDir), and what to call when done with it.
func (fo *Folders) folder(path string) (*Dir, func(), error) {
	dir := filepath.Dir(path)
	if fo == nil {
		d, err := OpenDir(dir)
		if err != nil {
			return nil, nil, err
		}
		return d, func() { d.Close() }, nil
	}
	fo.mu.Lock()
	d := fo.m[dir]
	fo.mu.Unlock()
	if d != nil {
		return d, func() {}, nil
	}
	d, err := openDir(dir)
	if err != nil {
		return nil, nil, err
	}
	fo.mu.Lock()
	defer fo.mu.Unlock()
	if prev := fo.m[dir]; prev != nil {
		d.Close()
		return prev, func() {}, nil
	}
	if len(fo.m) >= maxFolders {
		return d, func() { d.Close() }, nil
	}
	if fo.m == nil {
		fo.m = map[string]*Dir{}
	}
	fo.m[dir] = d
	return d, func() {}, nil
}

// Close releases the folders kept open.
func (fo *Folders) Close() {
	if fo == nil {
		return
	}
	fo.mu.Lock()
	defer fo.mu.Unlock()
	for _, d := range fo.m {
		d.Close()
	}
	fo.m = nil
}
