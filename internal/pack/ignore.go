package pack

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// IgnoreFile is the name of the per-pack ignore file (gitignore syntax,
// which npm-ignore shares).
const IgnoreFile = ".openwopignore"

// ignoreRule is one line of an ignore file.
type ignoreRule struct {
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

// Ignorer decides which pack-relative paths an ignore file excludes.
type Ignorer struct{ rules []ignoreRule }

// ParseIgnore reads gitignore-syntax rules: blank lines and # comments are
// skipped, ! re-includes, a trailing / matches directories only, a pattern
// with a / elsewhere is anchored to the pack root, others match at any depth;
// *, ?, [...] and ** work as in git.
func ParseIgnore(data []byte) *Ignorer {
	ig := &Ignorer{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if !strings.HasSuffix(line, `\ `) {
			line = strings.TrimRight(line, " \t")
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var r ignoreRule
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		expr := globToRegexp(line)
		if anchored {
			expr = "^" + expr + "$"
		} else {
			expr = "^(?:.*/)?" + expr + "$"
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			continue // a malformed pattern matches nothing, as in git
		}
		r.re = re
		ig.rules = append(ig.rules, r)
	}
	return ig
}

// Ignored reports whether the file at the slash-separated path rel is
// excluded. As in git, a file inside an excluded directory stays excluded.
func (ig *Ignorer) Ignored(rel string) bool {
	if ig == nil || len(ig.rules) == 0 {
		return false
	}
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		if ig.match(strings.Join(parts[:i], "/"), true) {
			return true
		}
	}
	return ig.match(rel, false)
}

func (ig *Ignorer) match(p string, isDir bool) bool {
	ignored := false
	for _, r := range ig.rules {
		if r.dirOnly && !isDir {
			continue
		}
		if r.re.MatchString(p) {
			ignored = !r.negate
		}
	}
	return ignored
}

// globToRegexp translates one gitignore glob to a regular expression body.
func globToRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '*' && strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case c == '*' && g[i:] == "**" && (i == 0 || g[i-1] == '/'):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		case c == '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1])) // a byte of a UTF-8 sequence stays as it is
		}
	}
	return b.String()
}
