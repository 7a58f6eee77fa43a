package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/safefile"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Place is the folder a command writes in (a pack folder, the folder of an
// output the user named, a registry root, wopkit's state folder), opened as
// an os.Root: every create, replace, rename, remove and mkdir happens inside
// it, and a path or a symbolic link that leads out of it is refused
// (path_outside_root) instead of being written through. This package is
// wopkit's one door for writes: its guard test fails when code elsewhere
// writes another way.
type Place struct {
	dir      string
	root     *os.Root
	borrowed bool // the root is another layer's: Close leaves it open
}

// OpenPlace opens dir as a place to write in.
func OpenPlace(dir string) (*Place, error) {
	if err := safefile.CheckDir(dir); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, failed(err, dir).WithHint("check that the folder exists and is writable")
	}
	return &Place{dir: dir, root: r}, nil
}

// Close releases the place.
func (p *Place) Close() error {
	if p.borrowed {
		return nil
	}
	return p.root.Close()
}

// Dir is the place's folder, as it was named.
func (p *Place) Dir() string { return p.dir }

// rel names path inside the place. Paths are named as the place's folder
// is (absolute, or relative to the current folder): p.In gives one.
func (p *Place) rel(path string) (string, error) {
	base, err1 := filepath.Abs(p.dir)
	abs, err2 := filepath.Abs(path)
	if err := errors.Join(err1, err2); err != nil {
		return "", failed(err, path)
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", werr.New(werr.Invalid, untrusted.CodeOutsideRoot, "%s is outside %s, where this command writes; nothing was written", path, p.dir).
			WithHint("write inside %s", p.dir)
	}
	return rel, nil
}

// In names rel (a slash path inside the place) as the place's methods take
// it.
func (p *Place) In(rel string) string { return filepath.Join(p.dir, filepath.FromSlash(rel)) }

// do runs op on path's name inside the place.
func (p *Place) do(path string, op func(rel string) error) error {
	rel, err := p.rel(path)
	if err != nil {
		return err
	}
	if err := op(rel); err != nil {
		return placeErr(err, path)
	}
	return nil
}

// WriteFile replaces path (inside the place) with data atomically: a
// synced temporary file renamed over it, the folder synced.
func (p *Place) WriteFile(path string, data []byte, perm fs.FileMode) error {
	return p.do(path, func(rel string) error { return WriteIn(p.root, rel, data, perm) })
}

// CreateExcl creates path (which must not exist) with data and mode perm
// whatever the umask, and syncs it.
func (p *Place) CreateExcl(path string, data []byte, perm fs.FileMode) error {
	return p.do(path, func(rel string) error {
		f, err := p.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Chmod(perm)
		}
		if err == nil {
			err = f.Sync()
		}
		return errors.Join(err, f.Close())
	})
}

// Mkdir makes the folder path (its parent must exist).
func (p *Place) Mkdir(path string, perm fs.FileMode) error {
	return p.do(path, func(rel string) error { return p.root.Mkdir(rel, perm) })
}

// MkdirAll makes the folder path and the missing folders above it.
func (p *Place) MkdirAll(path string, perm fs.FileMode) error {
	return p.do(path, func(rel string) error { return p.root.MkdirAll(rel, perm) })
}

// Remove removes the file or empty folder path.
func (p *Place) Remove(path string) error {
	return p.do(path, func(rel string) error { return removeIn(p.root, rel, path) })
}

// RemoveAll removes path and what it holds (never following a link).
func (p *Place) RemoveAll(path string) error {
	return p.do(path, func(rel string) error { return p.root.RemoveAll(rel) })
}

// Rename moves from to to, both inside the place.
func (p *Place) Rename(from, to string) error {
	rf, err := p.rel(from)
	if err != nil {
		return err
	}
	return p.do(to, func(rel string) error { return renameOver(p.root, rf, rel, to) })
}

// Link makes to a hard link of from, both inside the place.
func (p *Place) Link(from, to string) error {
	rf, err := p.rel(from)
	if err != nil {
		return err
	}
	return p.do(to, func(rel string) error { return p.root.Link(rf, rel) })
}

// Sync syncs the folder path, so that the renames in it are durable.
func (p *Place) Sync(path string) error {
	return p.do(path, func(rel string) error { return SyncDirIn(p.root, rel) })
}

// MkdirAll makes the folder dir (a folder the user named: an output's)
// and the missing folders above it, from the nearest one that exists.
func MkdirAll(dir string, perm fs.FileMode) error {
	base := ancestor(dir, func(d string) bool { fi, err := os.Stat(d); return err == nil && fi.IsDir() })
	p, err := OpenPlace(base)
	if err != nil {
		return err
	}
	defer p.Close()
	if base == dir {
		return nil
	}
	return p.MkdirAll(dir, perm)
}

// Remove removes the file or empty folder path, in its own folder.
func Remove(path string) error {
	return inParent(path, func(p *Place) error { return p.Remove(path) })
}

// inParent runs op in the place of path's folder.
func inParent(path string, op func(*Place) error) error {
	p, err := OpenPlace(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer p.Close()
	return op(p)
}

// TempDir makes a new private folder (0700) in the system's temporary
// folder, for a command's scratch files, and returns it with the function
// that removes it.
func TempDir(pattern string) (string, func(), error) {
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", func() {}, failed(err, filepath.Join(os.TempDir(), pattern)).WithHint("check that %s is writable, or set TMPDIR", os.TempDir())
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// TempFile makes a new file (0600) in the system's temporary folder, for a
// command's scratch content, and returns it with the function that removes
// it.
func TempFile(pattern string) (*os.File, func(), error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, func() {}, failed(err, filepath.Join(os.TempDir(), pattern)).WithHint("check that %s is writable, or set TMPDIR", os.TempDir())
	}
	name := f.Name()
	return f, func() { os.Remove(name) }, nil
}

// placeErr is the error of a write that failed: path_outside_root when the
// root refused a path or a link that leaves it.
func placeErr(err error, path string) *werr.Error {
	if we := (*werr.Error)(nil); errors.As(err, &we) && we.Code != "" {
		return we
	}
	if msg := err.Error(); strings.Contains(msg, "escapes from parent") || strings.Contains(msg, "path escapes") {
		return werr.Wrap(werr.Invalid, untrusted.CodeOutsideRoot, err, "%s leads out of the folder wopkit writes in (a link pointing outside it); nothing was written there", path).
			WithHint("wopkit never writes through a link that leaves the folder: replace the link with a file or folder")
	}
	return failed(err, path)
}

// InDir is the place of a folder the read door opened (a registry root):
// writes into it go through the place, reads through d. Closing the place
// leaves d open.
func InDir(d *untrusted.Dir) *Place { return &Place{dir: d.Path(), root: d.OSRoot(), borrowed: true} }

// ReadFile reads the regular file path inside the place, of at most max
// bytes (the read door's rules).
func (p *Place) ReadFile(path string, max int64) ([]byte, error) {
	rel, err := p.rel(path)
	if err != nil {
		return nil, err
	}
	return untrusted.ReadFileIn(p.root, rel, max)
}

// TempDirIn makes a new folder (0700) in dir, named from pattern as
// os.MkdirTemp names it, for files a command keeps aside until it ends.
func TempDirIn(dir, pattern string) (string, error) {
	p, err := OpenPlace(dir)
	if err != nil {
		return "", err
	}
	defer p.Close()
	for range 10 {
		var b [6]byte
		rand.Read(b[:])
		name := filepath.Join(dir, strings.Replace(pattern, "*", hex.EncodeToString(b[:]), 1))
		err := p.Mkdir(name, 0o700)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", failed(fs.ErrExist, filepath.Join(dir, pattern))
}

// RemoveAll removes path and what it holds, in its own folder (never
// following a link).
func RemoveAll(path string) error {
	return inParent(path, func(p *Place) error { return p.RemoveAll(path) })
}

// Rename moves from to to, in the nearest folder that holds both (the
// place: neither path may lead out of it through a link).
func Rename(from, to string) error {
	return inCommon(from, to, (*Place).Rename)
}

// Link makes to a hard link of from, in the nearest folder that holds both.
func Link(from, to string) error {
	return inCommon(from, to, (*Place).Link)
}

func inCommon(from, to string, op func(*Place, string, string) error) error {
	a, err1 := filepath.Abs(filepath.Dir(from))
	b, err2 := filepath.Abs(filepath.Dir(to))
	if err := errors.Join(err1, err2); err != nil {
		return failed(err, to)
	}
	a = ancestor(a, func(d string) bool {
		rel, err := filepath.Rel(d, b)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	})
	p, err := OpenPlace(a)
	if err != nil {
		return err
	}
	defer p.Close()
	fa, err1 := filepath.Abs(from)
	ta, err2 := filepath.Abs(to)
	if err := errors.Join(err1, err2); err != nil {
		return failed(err, to)
	}
	return op(p, fa, ta)
}

// Mkdir makes the folder path, in its parent folder.
func Mkdir(path string, perm fs.FileMode) error {
	return inParent(path, func(p *Place) error { return p.Mkdir(path, perm) })
}

// ancestor is dir, or the nearest folder above it for which ok holds (the
// file system's root at the latest).
func ancestor(dir string, ok func(string) bool) string {
	for !ok(dir) {
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return dir
}
