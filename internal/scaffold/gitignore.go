package scaffold

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/ignore"
	"github.com/openwop/wopkit/internal/untrusted"
)

// Whether git would ignore a new key is decided here, in-process: no git is
// started inside a checkout that may be a stranger's (its .git/config could
// name a core.fsmonitor or hook program that git would run). The rules are
// git's (gitignore(5), matched by internal/ignore): the user's global
// excludes file, the checkout's .git/info/exclude, then each .gitignore
// from the root down to the key's folder, a deeper file overriding a
// shallower one and, within a file, the last matching pattern winning; a
// file in an excluded folder is ignored.
//
// Every doubt answers "not ignored", which keeps the key out of the
// checkout (in UserKeyDir): a .gitignore that cannot be read, a pattern
// too costly to match, a core.excludesFile set in git's configuration
// (wopkit reads no git configuration, only the default excludes file).

// maxIgnoreFile bounds each ignore file read.
const maxIgnoreFile = 1 << 20

// ignoreSources reads the ignore files that apply below root, in rising
// precedence: the user's global excludes, .git/info/exclude, then the
// .gitignore of each folder from root down to dir (relative, "" = root).
func ignoreSources(root, dir string) []ignore.List {
	var out []ignore.List
	if f := globalExcludes(); f != "" {
		if data, err := untrusted.ReadNamed(f, maxIgnoreFile); err == nil { // the user's own file
			out = append(out, ignore.Parse(data, ""))
		}
	}
	if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
		if data, err := untrusted.ReadFile(filepath.Join(root, ".git", "info", "exclude"), maxIgnoreFile); err == nil {
			out = append(out, ignore.Parse(data, ""))
		}
	}
	folders := []string{""}
	if dir != "" {
		parts := strings.Split(dir, "/")
		for i := range parts {
			folders = append(folders, strings.Join(parts[:i+1], "/"))
		}
	}
	for _, f := range folders {
		if data, err := untrusted.ReadFile(filepath.Join(root, filepath.FromSlash(f), ".gitignore"), maxIgnoreFile); err == nil {
			out = append(out, ignore.Parse(data, f))
		}
	}
	return out
}

// globalExcludes is git's default core.excludesFile: $XDG_CONFIG_HOME/git/ignore,
// else ~/.config/git/ignore.
func globalExcludes() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "ignore")
	}
	if h := os.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "git", "ignore")
	}
	return ""
}

// gitIgnores reports whether git ignores path (a file) in the work tree at
// root, deciding it in-process (see above); false when in doubt.
func gitIgnores(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	dir := ""
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir = rel[:i]
	}
	ignored, ok := ignore.New(ignoreSources(root, dir)...).Decide(rel, false)
	return ignored && ok
}
