package scaffold

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/untrusted"
)

// Whether git would ignore a new key is decided here, in-process: no git is
// started inside a checkout that may be a stranger's (its .git/config could
// name a core.fsmonitor or hook program that git would run). The rules are
// git's (gitignore(5)): the user's global excludes file, the checkout's
// .git/info/exclude, then each .gitignore from the root down to the key's
// folder, a deeper file overriding a shallower one and, within a file, the
// last matching pattern winning; a file in an excluded folder is ignored.
//
// Every doubt answers "not ignored", which keeps the key out of the
// checkout (in UserKeyDir): a .gitignore that cannot be read, a pattern
// too costly to match, a core.excludesFile set in git's configuration
// (wopkit reads no git configuration, only the default excludes file).

// maxIgnoreFile bounds each ignore file read.
const maxIgnoreFile = 1 << 20

// ignorePattern is one line of an ignore file.
type ignorePattern struct {
	glob     string // without the !, the leading / and the trailing /
	negate   bool   // !pattern: re-includes
	dirOnly  bool   // pattern/: matches folders only
	anchored bool   // has a / before its end: matched against the path from base
	base     string // the folder of the ignore file, relative to the root ("" at the root)
}

// parseIgnore reads the patterns of one ignore file whose folder is base.
func parseIgnore(data []byte, base string) []ignorePattern {
	var out []ignorePattern
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		line = trimTrailingSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		p := ignorePattern{base: base}
		if line[0] == '!' {
			p.negate, line = true, line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
			p.dirOnly, line = true, strings.TrimSuffix(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			p.anchored, line = true, strings.TrimPrefix(line, "/")
		}
		p.glob = line
		out = append(out, p)
	}
	return out
}

// trimTrailingSpace removes trailing spaces unless escaped with \.
func trimTrailingSpace(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// match reports whether p matches rel (relative to the root), a folder
// when dir is set. ok is false when the pattern was too costly to decide.
func (p ignorePattern) match(rel string, dir bool) (matched, ok bool) {
	if p.dirOnly && !dir {
		return false, true
	}
	if p.base != "" {
		if !strings.HasPrefix(rel, p.base+"/") {
			return false, true
		}
		rel = rel[len(p.base)+1:]
	}
	if !p.anchored {
		rel = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	return wildmatch(p.glob, rel)
}

// maxMatchSteps bounds the work one pattern may cost: a hostile .gitignore
// full of stars answers "cannot decide" rather than hanging the wizard.
const maxMatchSteps = 1 << 16

// wildmatch is git's wildmatch with WM_PATHNAME: * and ? and [...] never
// match a /, ** between slashes (or at either end) matches any number of
// folders, \ escapes the next character.
func wildmatch(pattern, name string) (matched, ok bool) {
	steps := 0
	var m func(p, s string) bool
	m = func(p, s string) bool {
		for len(p) > 0 {
			if steps++; steps > maxMatchSteps {
				return false
			}
			switch p[0] {
			case '*':
				start := len(p) == len(pattern) || pattern[len(pattern)-len(p)-1] == '/'
				if strings.HasPrefix(p, "**") && start && (len(p) == 2 || p[2] == '/') {
					if len(p) == 2 {
						return true // trailing **: everything below
					}
					rest := p[3:]
					for i := 0; ; {
						if m(rest, s[i:]) {
							return true
						}
						j := strings.IndexByte(s[i:], '/')
						if j < 0 {
							return false
						}
						i += j + 1
					}
				}
				p = strings.TrimLeft(p, "*")
				for i := 0; i <= len(s); i++ {
					if m(p, s[i:]) {
						return true
					}
					if i < len(s) && s[i] == '/' {
						return false
					}
				}
				return false
			case '?':
				if s == "" || s[0] == '/' {
					return false
				}
				p, s = p[1:], s[1:]
			case '[':
				n, hit, valid := matchClass(p, s)
				if !valid || !hit {
					return false
				}
				p, s = p[n:], s[1:]
			case '\\':
				if len(p) < 2 {
					return false
				}
				if s == "" || s[0] != p[1] {
					return false
				}
				p, s = p[2:], s[1:]
			default:
				if s == "" || s[0] != p[0] {
					return false
				}
				p, s = p[1:], s[1:]
			}
		}
		return s == ""
	}
	matched = m(pattern, name)
	return matched, steps <= maxMatchSteps
}

// matchClass matches the class at the start of p ("[...]") against the
// first byte of s: n is the class's length in p, valid false when the class
// is not closed (git then matches nothing). Bytes, not runes: a name with
// other letters than ASCII in a class is compared byte by byte, which can
// only answer "not ignored" where git would say ignored.
func matchClass(p, s string) (n int, hit, valid bool) {
	i := 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate, i = true, i+1
	}
	if s == "" || s[0] == '/' {
		return 0, false, true
	}
	c := s[0]
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return i + 1, hit != negate, true
		}
		first = false
		lo := p[i]
		if lo == '\\' && i+1 < len(p) {
			i++
			lo = p[i]
		}
		hi := lo
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			hi = p[i+2]
			if hi == '\\' && i+3 < len(p) {
				i++
				hi = p[i+2]
			}
			i += 2
		}
		if lo <= c && c <= hi {
			hit = true
		}
		i++
	}
	return 0, false, false
}

// ignoreSources reads the patterns that apply below root, in rising
// precedence: the user's global excludes, .git/info/exclude, then the
// .gitignore of each folder from root down to dir (relative, "" = root).
func ignoreSources(root, dir string) [][]ignorePattern {
	var out [][]ignorePattern
	if f := globalExcludes(); f != "" {
		if data, err := untrusted.ReadNamed(f, maxIgnoreFile); err == nil { // the user's own file
			out = append(out, parseIgnore(data, ""))
		}
	}
	if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
		if data, err := untrusted.ReadFile(filepath.Join(root, ".git", "info", "exclude"), maxIgnoreFile); err == nil {
			out = append(out, parseIgnore(data, ""))
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
			out = append(out, parseIgnore(data, f))
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
	parts := strings.Split(rel, "/")
	for k := 1; k <= len(parts); k++ {
		sub := strings.Join(parts[:k], "/")
		parent := strings.Join(parts[:k-1], "/")
		ignored, ok := ignoredBy(ignoreSources(root, parent), sub, k < len(parts))
		if !ok {
			return false
		}
		if ignored {
			return true // a file in an excluded folder cannot be re-included
		}
	}
	return false
}

// ignoredBy decides sub (a folder when dir) by the last matching pattern
// of the most precedent source; ok is false when a pattern could not be
// decided.
func ignoredBy(sources [][]ignorePattern, sub string, dir bool) (ignored, ok bool) {
	for i := len(sources) - 1; i >= 0; i-- {
		ps := sources[i]
		for j := len(ps) - 1; j >= 0; j-- {
			hit, ok := ps[j].match(sub, dir)
			if !ok {
				return false, false
			}
			if hit {
				return !ps[j].negate, true
			}
		}
	}
	return false, true
}
