package untrusted

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/openwop/wopkit/internal/werr"
)

// CodeNotDirectory is the code of a directory name that is something else.
const CodeNotDirectory = "file_not_directory"

// Lstat stats rel inside the root without following a link in its last
// element (links before it are followed while they stay inside the root).
func (d *Dir) Lstat(rel string) (fs.FileInfo, error) {
	fi, err := d.root.Lstat(filepath.FromSlash(rel))
	return fi, d.pathErr(rel, err)
}

// ReadDir lists the directory rel inside the root (sorted by name, as
// os.ReadDir): a missing directory gives an error matching fs.ErrNotExist;
// a name that is not a directory (checked before the open, which never
// blocks on a FIFO) gives file_not_directory; a name or link that leaves the
// root gives path_outside_root.
func (d *Dir) ReadDir(rel string) ([]fs.DirEntry, error) {
	name := filepath.FromSlash(rel)
	fi, err := d.root.Stat(name)
	if err != nil {
		return nil, d.pathErr(rel, err)
	}
	if !fi.IsDir() {
		return nil, notDir(d.Join(rel))
	}
	f, err := d.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, d.pathErr(rel, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.IsDir() {
		return nil, notDir(d.Join(rel))
	}
	ents, err := f.ReadDir(-1)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

func notDir(name string) *werr.Error {
	return werr.New(werr.Invalid, CodeNotDirectory, "%s is not a directory", name).
		WithHint("a directory of the tree was replaced by a file, a link or a special file")
}
