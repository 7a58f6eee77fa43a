// Package ignore decides which paths gitignore-syntax files exclude, with
// git's own semantics (gitignore(5), git's dir.c and wildmatch.c): the one
// matcher behind `pack` (.openwopignore), `diff` and `new` (whether a key
// would land in a checkout that does not ignore it). Blank lines and lines
// starting with # are skipped; trailing spaces are dropped unless escaped
// with \; ! re-includes; a trailing / matches folders only; a pattern with
// no other / matches a name at any depth, one with a / is anchored to the
// folder of its file; *, ?, [...] (with [!...], ranges and [:class:]) and **
// work as in git, byte by byte. A file inside an excluded folder stays
// excluded, whatever a later ! says.
//
// Nothing here reads a file or starts a program: callers read the ignore
// files through internal/untrusted and hand their bytes to Parse. The
// differential test (ignore_test.go) holds the answers to git check-ignore's
// on generated patterns and paths.
package ignore

import "strings"

// Pattern is one line of an ignore file.
type Pattern struct {
	glob      string // without the !, and without one trailing /
	prefix    int    // length of glob's leading bytes without a wildcard
	negate    bool   // !pattern: re-includes
	mustBeDir bool   // pattern/: matches folders only
	noDir     bool   // no / in glob: matched against the last name only
	base      string // folder of the ignore file, relative to the root ("" at the root)
}

// List is the patterns of one ignore file, in the file's order.
type List []Pattern

// Parse reads the patterns of one ignore file whose folder is base
// (slash-separated, relative to the root; "" for the root), as git does: a
// UTF-8 byte-order mark at the start is skipped, a CR before the line's end
// dropped, a line cut at a NUL.
func Parse(data []byte, base string) List {
	s := strings.TrimPrefix(string(data), "\uFEFF")
	var out List
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if i := strings.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		if line == "" || line[0] == '#' {
			continue
		}
		line = trimTrailingSpaces(line)
		p := Pattern{base: base}
		if strings.HasPrefix(line, "!") {
			p.negate, line = true, line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.mustBeDir, line = true, line[:len(line)-1]
		}
		p.noDir = !strings.Contains(line, "/")
		p.prefix = len(line)
		if i := strings.IndexAny(line, `*?[\`); i >= 0 {
			p.prefix = i
		}
		p.glob = line
		out = append(out, p)
	}
	return out
}

// trimTrailingSpaces drops the spaces (not tabs) that end s, unless the
// first of them is escaped; a lone \ at the end keeps them all (git's
// trim_trailing_spaces).
func trimTrailingSpaces(s string) string {
	last := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if last < 0 {
				last = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			last = -1
		default:
			last = -1
		}
	}
	if last >= 0 {
		return s[:last]
	}
	return s
}

// match reports whether p matches rel (relative to the root, a folder
// when dir); ok is false when the match was too costly to decide.
func (p Pattern) match(rel string, dir bool) (matched, ok bool) {
	if p.mustBeDir && !dir {
		return false, true
	}
	if p.noDir {
		name := rel[strings.LastIndexByte(rel, '/')+1:]
		if p.prefix == len(p.glob) {
			return name == p.glob, true
		}
		return Wildmatch(p.glob, name, false)
	}
	glob, prefix := p.glob, p.prefix
	if strings.HasPrefix(glob, "/") {
		glob, prefix = glob[1:], prefix-1
	}
	name := rel
	if p.base != "" {
		if !strings.HasPrefix(rel, p.base+"/") {
			return false, true
		}
		name = rel[len(p.base)+1:]
	}
	// The literal prefix is compared first and the rest matched on its own,
	// as git does (so "a**/b" treats its ** as at the pattern's start).
	if prefix > 0 {
		if prefix > len(name) || name[:prefix] != glob[:prefix] {
			return false, true
		}
		glob, name = glob[prefix:], name[prefix:]
		if glob == "" && name == "" {
			return true, true
		}
	}
	return Wildmatch(glob, name, true)
}

// Matcher decides paths against ignore files, in rising precedence: a later
// list (a deeper folder's file) overrides an earlier one, and within a list
// the last matching pattern wins. The zero Matcher ignores nothing.
type Matcher struct{ lists []List }

// New returns the matcher of lists, given in rising precedence (git's: the
// global excludes file, .git/info/exclude, then each .gitignore from the
// root down). A list applies to the paths below its base.
func New(lists ...List) *Matcher { return &Matcher{lists: lists} }

// Ignored reports whether the file at the slash-separated path rel
// (relative to the root) is excluded; false when undecided.
func (m *Matcher) Ignored(rel string) bool {
	ignored, ok := m.Decide(rel, false)
	return ignored && ok
}

// Decide reports whether rel (a folder when dir) is excluded: by an
// excluded folder above it, else by the last pattern that matches it. ok
// is false when a pattern was too costly to match (the answer is then
// unknown).
func (m *Matcher) Decide(rel string, dir bool) (ignored, ok bool) {
	if m == nil || len(m.lists) == 0 {
		return false, true
	}
	for i := 0; ; {
		j := strings.IndexByte(rel[i:], '/')
		if j < 0 {
			return m.decideOne(rel, dir)
		}
		ignored, ok := m.decideOne(rel[:i+j], true)
		if !ok || ignored {
			return ignored, ok
		}
		i += j + 1
	}
}

// decideOne decides rel alone, by the last matching pattern of the most
// precedent list that applies to it.
func (m *Matcher) decideOne(rel string, dir bool) (ignored, ok bool) {
	for i := len(m.lists) - 1; i >= 0; i-- {
		l := m.lists[i]
		for j := len(l) - 1; j >= 0; j-- {
			if l[j].base != "" && !strings.HasPrefix(rel, l[j].base+"/") {
				break // the list of a folder rel is not in
			}
			hit, ok := l[j].match(rel, dir)
			if !ok {
				return false, false
			}
			if hit {
				return !l[j].negate, true
			}
		}
	}
	return false, true
}
