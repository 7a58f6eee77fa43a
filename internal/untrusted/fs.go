package untrusted

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/openwop/wopkit/internal/safefile"
)

// MaxPackFile bounds one file read from a pack directory: the registry's
// limit for one tarball entry (tarball.RegistryLimits.MaxEntry).
const MaxPackFile = 5 << 20

// DirFS is the files of the directory path (a pack) as an fs.FS for the
// readers that walk a pack (validate, migrate, the editor): inside an
// os.Root, so neither a name nor a symbolic link reaches outside it; Open and
// ReadFile refuse what is not a regular file before opening it (a FIFO never
// blocks); ReadFile refuses a file over MaxPackFile. It implements
// fs.StatFS, fs.ReadFileFS, fs.ReadDirFS and fs.ReadLinkFS (Lstat, ReadLink).
// The root is released when the FS is garbage collected.
func DirFS(path string) (fs.FS, error) {
	d, err := OpenDir(path)
	if err != nil {
		return nil, err
	}
	return &rootFS{d: d, fsys: d.root.FS(), max: MaxPackFile}, nil
}

type rootFS struct {
	d    *Dir
	fsys fs.FS
	max  int64
}

// Dir is the directory the FS reads, as it was named.
func (r *rootFS) Dir() string { return r.d.path }

// Close closes the directory (a reader done with it closes it at once,
// rather than leave it to the garbage collector).
func (r *rootFS) Close() error { return r.d.Close() }

func (r *rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	fi, err := r.d.root.Stat(filepath.FromSlash(name))
	if err != nil {
		return nil, r.d.pathErr(name, err)
	}
	if fi.IsDir() {
		return r.fsys.Open(name)
	}
	if !fi.Mode().IsRegular() {
		return nil, safefile.NotRegular(r.d.Join(name), fi.Mode())
	}
	f, err := r.d.root.OpenFile(filepath.FromSlash(name), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, r.d.pathErr(name, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = safefile.NotRegular(r.d.Join(name), st.Mode())
		}
		return nil, err
	}
	return f, nil
}

func (r *rootFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	return r.d.ReadFile(name, r.max)
}

func (r *rootFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := fs.Stat(r.fsys, name)
	return fi, r.d.pathErr(name, err)
}

func (r *rootFS) Lstat(name string) (fs.FileInfo, error) {
	fi, err := fs.Lstat(r.fsys, name)
	return fi, r.d.pathErr(name, err)
}

func (r *rootFS) ReadLink(name string) (string, error) { return fs.ReadLink(r.fsys, name) }

func (r *rootFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(r.fsys, name) }
