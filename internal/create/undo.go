package create

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/werr"
)

// undo records what a run wrote, so that a failure removes it again and
// puts back what it replaced. A file about to be replaced is kept as a
// hard link in a folder beside it (.wopkit-undo-*, outside the pack
// folder): every writer replaces files by renaming a new one over them, so
// the link keeps the old content.
type undo struct {
	files []string          // written: removed on a rollback
	dirs  []string          // made: removed on a rollback when empty, deepest first
	kept  []kept            // replaced: put back on a rollback
	aside map[string]string // folder -> its undo folder
}

type kept struct{ path, copy string }

// made records a file written.
func (u *undo) made(path string) { u.files = append(u.files, path) }

// mkdirs records the folders that do not exist yet among the parents of
// paths (they are made by the writer).
func (u *undo) mkdirs(paths []string) {
	seen := map[string]bool{}
	for _, p := range paths {
		for d := filepath.Dir(p); ; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil || seen[d] || d == filepath.Dir(d) {
				break
			}
			seen[d] = true
			u.dirs = append(u.dirs, d)
		}
	}
	sort.Slice(u.dirs, func(i, j int) bool { return len(u.dirs[i]) > len(u.dirs[j]) })
}

// keep keeps path's current content (when it exists) to put back on a
// rollback; the copy goes to an undo folder in base.
func (u *undo) keep(path, base string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil // not there: nothing to put back
	}
	dir, ok := u.aside[base]
	if !ok {
		if dir, err = atomicfile.TempDirIn(base, ".wopkit-undo-*"); err != nil {
			return werr.Wrap(werr.Env, "write_failed", err, "cannot make a folder in %s to keep the files replaced until the end", base).
				WithHint("check the folder's permissions")
		}
		if u.aside == nil {
			u.aside = map[string]string{}
		}
		u.aside[base] = dir
	}
	c := filepath.Join(dir, strconv.Itoa(len(u.kept)))
	if err := atomicfile.Link(real, c); err != nil {
		return werr.Wrap(werr.Env, "write_failed", err, "cannot keep %s to put it back on a failure", path).
			WithHint("move %s away and try again", path)
	}
	u.kept = append(u.kept, kept{path: real, copy: c})
	return nil
}

// rollback removes what was written and puts back what was replaced.
func (u *undo) rollback() {
	for i := len(u.files) - 1; i >= 0; i-- {
		atomicfile.Remove(u.files[i])
	}
	for i := len(u.kept) - 1; i >= 0; i-- {
		atomicfile.Rename(u.kept[i].copy, u.kept[i].path)
	}
	for _, d := range u.dirs {
		atomicfile.Remove(d)
	}
	u.clean()
}

// commit drops the copies kept.
func (u *undo) commit() { u.clean() }

func (u *undo) clean() {
	for _, d := range u.aside {
		atomicfile.RemoveAll(d)
	}
}

// outside is the folder of path's undo copy: path's own folder, unless
// that is the pack folder dir or inside it: then the folder above dir, so
// that a run stopped half-way leaves nothing in the pack folder.
func outside(path, dir string) string {
	d, errD := filepath.Abs(dir)
	p, errP := filepath.Abs(filepath.Dir(path))
	if errD != nil || errP != nil {
		return filepath.Dir(path)
	}
	if rel, err := filepath.Rel(d, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.Dir(d)
	}
	return p
}

// writeFiles writes the plan into the folder, recording for a rollback
// what it makes and, when more steps follow (a release), what it replaces.
// The plan's own write is all or nothing.
func writeFiles(u *undo, opts *Options, plan *scaffold.Plan) error {
	dir := opts.dir()
	var paths []string
	for _, f := range plan.Files {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(f.Path)))
	}
	var pending undo
	pending.mkdirs(paths)
	base := dir // no step follows: nothing is packed, the undo folder may be in the folder
	if opts.Release != nil {
		base = outside(dir, dir)
	}
	for _, p := range paths {
		if _, err := os.Lstat(p); err != nil {
			pending.made(p)
			continue
		}
		if opts.Release != nil { // an update, or a file --force replaces: put back on a failure
			if err := u.keep(p, base); err != nil {
				return err
			}
		}
	}
	if err := plan.Write(dir, opts.Force); err != nil {
		return err // nothing written: a file that appeared since is not removed
	}
	u.files, u.dirs = append(u.files, pending.files...), append(u.dirs, pending.dirs...)
	return nil
}
