package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/safefile"
)

// Escape is an entry of a directory tree through which a program allowed
// to read the tree could read something outside it.
type Escape struct {
	Path   string // slash-separated, relative to the tree's root
	Reason string // what it is: "a symbolic link to /etc/shadow, which is outside the directory"
}

// CheckTree walks the directory root (whose own links are resolved first)
// without following links, and returns the entries through which a reader
// confined to root by path could reach another file: a symbolic link whose
// target, resolved, is outside root (or cannot be resolved); a regular file
// with more than one hard link (another name of it may be outside); a
// device, FIFO or socket. It stops after max escapes (0: no bound). The
// error is about root itself or a directory that cannot be listed.
func CheckTree(root string, max int) ([]Escape, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil, err
	}
	var out []Escape
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if max > 0 && len(out) >= max {
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(real, p)
		rel = filepath.ToSlash(rel)
		t := d.Type()
		switch {
		case t&fs.ModeSymlink != 0:
			target, err := filepath.EvalSymlinks(p)
			if err != nil {
				link, _ := os.Readlink(p)
				out = append(out, Escape{rel, fmt.Sprintf("a symbolic link to %s that cannot be resolved", link)})
			} else if !inside(real, target) {
				out = append(out, Escape{rel, fmt.Sprintf("a symbolic link to %s, which is outside the directory", target)})
			}
		case t.IsDir():
		case t.IsRegular():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if n := linkCount(fi); n > 1 {
				out = append(out, Escape{rel, fmt.Sprintf("a file with %d hard links, one of which may be outside the directory", n)})
			}
		default:
			out = append(out, Escape{rel, safefile.Describe(t) + ", not a regular file"})
		}
		return nil
	})
	return out, err
}

// inside reports whether the clean absolute path p is root or below it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
