package ignore

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/proc"
)

// TestIgnoredAgreesWithGitOnGeneratedPatterns is the differential test: on
// repositories of generated ignore files (root .gitignore, a folder's
// .gitignore, .git/info/exclude) and generated paths made on disk, every
// answer equals `git check-ignore --no-index`'s. The seed is logged;
// WOPKIT_IGNORE_SEED replays one.
func TestIgnoredAgreesWithGitOnGeneratedPatterns(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: the differential test compares with git check-ignore")
	}
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("WOPKIT_IGNORE_SEED"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("WOPKIT_IGNORE_SEED=%q: %v", s, err)
		}
	}
	rounds := 300
	if testing.Short() {
		rounds = 40
	}
	t.Logf("seed %d (replay: WOPKIT_IGNORE_SEED=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0x6769746967))
	xdg := t.TempDir() // no global excludes file
	patterns, checks, ignored := 0, 0, 0
	gitDir := filepath.Join(t.TempDir(), "repo.git") // one repository, a work tree per round
	if out, err := proc.Git(git, filepath.Dir(gitDir), "init", "-q", "--bare", gitDir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	for round := range rounds {
		repo := t.TempDir()
		os.Remove(filepath.Join(gitDir, "info", "exclude"))
		files := map[string]string{".gitignore": genIgnoreFile(rng, 1+rng.IntN(8))}
		if rng.IntN(3) == 0 {
			files["a/.gitignore"] = genIgnoreFile(rng, 1+rng.IntN(4))
		}
		if rng.IntN(4) == 0 {
			files[".git/info/exclude"] = genIgnoreFile(rng, 1+rng.IntN(3))
		}
		paths, dirs := genTree(rng, 30)
		for _, d := range dirs {
			if err := os.MkdirAll(filepath.Join(repo, filepath.FromSlash(d)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for name, body := range files {
			p := filepath.Join(repo, filepath.FromSlash(name))
			if name == ".git/info/exclude" {
				p = filepath.Join(gitDir, "info", "exclude")
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			patterns += len(Parse([]byte(body), ""))
		}
		for _, f := range paths {
			if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(f)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		queries := append(append([]string(nil), paths...), dirs...)
		cmd := proc.Git(git, repo, "--git-dir="+gitDir, "--work-tree="+repo, "check-ignore", "--no-index", "--stdin", "-z")
		cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+xdg)
		cmd.Stdin = strings.NewReader(strings.Join(queries, "\x00") + "\x00")
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("git check-ignore: %v", err)
		}
		byGit := map[string]bool{}
		for _, p := range strings.Split(string(out), "\x00") {
			byGit[p] = true
		}
		m := New(Parse([]byte(files[".git/info/exclude"]), ""), Parse([]byte(files[".gitignore"]), ""), Parse([]byte(files["a/.gitignore"]), "a"))
		isDir := map[string]bool{}
		for _, d := range dirs {
			isDir[d] = true
		}
		for _, q := range queries {
			got, ok := m.Decide(q, isDir[q])
			checks++
			if byGit[q] {
				ignored++
			}
			if !ok || got != byGit[q] {
				t.Errorf("round %d (seed %d): %s (folder %v): wopkit %v (decided %v), git %v\nfiles: %q", round, seed, q, isDir[q], got, ok, byGit[q], files)
			}
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d rounds, %d generated patterns, %d paths checked (%d ignored by git), all agreeing with git check-ignore", rounds, patterns, checks, ignored)
}

// The pieces generated patterns and names are made of: what gitignore(5)
// gives a meaning to, and the letters the names use.
var (
	patternAtoms = []string{"a", "b", "ab", "ba", "c", ".b", "*", "**", "***", "?", "[ab]", "[!a]", "[^b]", "[a-b]", "[]a]", "[[:alpha:]]",
		"[[:digit:]]", "[[:punct:]]", "[a", "[[:nope:]]", `\*`, `\a`, `\`, "a*", "*b", "a?", "*.b", " ", "#", "!", "-", "[a-]", "[\\]]"}
	nameAtoms = []string{"a", "b", "ab", "ba", "c", "a.b", ".b", "aa", "a b", "#a", "!b", "-", "]", "1"}
)

func init() {
	if runtime.GOOS != "windows" {
		nameAtoms = append(nameAtoms, "*", "?", "[a]", `a\b`)
	}
}

// genIgnoreFile writes n generated lines.
func genIgnoreFile(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		switch rng.IntN(12) {
		case 0:
			b.WriteString("# a comment\n")
			continue
		case 1:
			b.WriteString("\n")
			continue
		case 2:
			b.WriteString("!")
		case 3:
			b.WriteString(`\!`)
		case 4:
			b.WriteString(`\#`)
		}
		if rng.IntN(4) == 0 {
			b.WriteString("/")
		}
		for s := range 1 + rng.IntN(3) {
			if s > 0 {
				b.WriteString("/")
			}
			for range 1 + rng.IntN(2) {
				b.WriteString(patternAtoms[rng.IntN(len(patternAtoms))])
			}
		}
		switch rng.IntN(8) {
		case 0:
			b.WriteString("/")
		case 1:
			b.WriteString("  ")
		case 2:
			b.WriteString(`\ `)
		case 3:
			b.WriteString("\r")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// genTree returns up to n file paths and the folders above them, the
// folders sorted so that a parent comes first; no name is both.
func genTree(rng *rand.Rand, n int) (files, dirs []string) {
	isDir, isFile := map[string]bool{"a": true}, map[string]bool{} // a/ holds a .gitignore
	for range n {
		depth := 1 + rng.IntN(4)
		parts := make([]string, depth)
		for i := range parts {
			parts[i] = nameAtoms[rng.IntN(len(nameAtoms))]
		}
		if rng.IntN(3) == 0 {
			parts[0] = "a" // where a/.gitignore applies
		}
		p := strings.Join(parts, "/")
		ok := !isDir[p] && !isFile[p]
		for i := 1; i < depth && ok; i++ {
			ok = !isFile[strings.Join(parts[:i], "/")]
		}
		if !ok || strings.HasPrefix(p, ".git") || parts[depth-1] == ".gitignore" {
			continue
		}
		for i := 1; i < depth; i++ {
			isDir[strings.Join(parts[:i], "/")] = true
		}
		isFile[p] = true
	}
	for f := range isFile {
		files = append(files, f)
	}
	for d := range isDir {
		dirs = append(dirs, d)
	}
	sort.Strings(files)
	sort.Strings(dirs)
	return files, dirs
}

// TestIgnored holds the rules gitignore(5) states, on cases written out.
func TestIgnored(t *testing.T) {
	t.Parallel()
	rules := "\uFEFF# comment\n*.log\n/build\ndist/\nschemas/draft-*.json\n!schemas/draft-keep.json\n**/tmp/**\n" +
		"docs/**/*.png\n\\#literal\n\\!bang\nprompts/?.md\n[Tt]humbs.db\ntrail   \nesc\\ \nx[[:digit:]]\nfoo**/bar\n"
	m := New(Parse([]byte(rules), ""))
	for path, want := range map[string]bool{
		"a.log": true, "prompts/x.log": true, "build": true, "build/x": true, "schemas/build": false,
		"dist/a.js": true, "schemas/dist/a.json": true, "dist": false,
		"schemas/draft-1.json": true, "schemas/draft-keep.json": false, "schemas/final.json": false,
		"a/tmp/b": true, "tmp/b": true, "docs/a/b/c.png": true, "docs/c.png": true, "docs/c.md": false,
		"#literal": true, "!bang": true, "prompts/a.md": true, "prompts/ab.md": false,
		"thumbs.db": true, "Thumbs.db": true, "README.md": false, "trail": true, "trail   ": false,
		"esc ": true, "esc": false, "x1": true, "xa": false,
		"foox/y/bar": true, // git matches the literal prefix first: ** then starts the pattern
		"# comment":  false,
	} {
		if got := m.Ignored(path); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", path, got, want)
		}
	}
	var none *Matcher
	if none.Ignored("x") || (&Matcher{}).Ignored("x") {
		t.Error("an empty matcher ignores")
	}
}

// A file inside an excluded folder cannot be re-included; a deeper file's
// pattern overrides a shallower one's.
func TestIgnoredFolderRules(t *testing.T) {
	t.Parallel()
	m := New(Parse([]byte("schemas/\n!schemas/a.json\n*.key\n"), ""), Parse([]byte("!*.key\n"), "sub"))
	for path, want := range map[string]bool{"schemas/a.json": true, "a.key": true, "sub/a.key": false, "sub/x/a.key": false, "subx/a.key": true} {
		if got := m.Ignored(path); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", path, got, want)
		}
	}
}

// Patterns are matched byte by byte, as git does: a ? is one byte, not one
// letter, so it does not match a two-byte letter.
func TestIgnoredNonASCII(t *testing.T) {
	t.Parallel()
	m := New(Parse([]byte("caf\u00e9.md\ndocs/*\u00e9t\u00e9*\n?\u00e8.txt\n??\u00e0.txt\n"), ""))
	for path, want := range map[string]bool{"caf\u00e9.md": true, "x/caf\u00e9.md": true, "cafe.md": false,
		"docs/l'\u00e9t\u00e9.md": true, "docs/ete.md": false, "\u00e9\u00e8.txt": false, "e\u00e8.txt": true, "\u00e9\u00e0.txt": true} {
		if got := m.Ignored(path); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestWildmatchBoundsCost: patterns built to make a backtracking matcher
// explode are decided (git's early exits), within a small share of the
// step bound.
func TestWildmatchBoundsCost(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("a", 200)
	for _, pat := range []string{strings.Repeat("*a", 40) + "b", strings.Repeat("*?", 40) + "b", strings.Repeat("**/", 20) + "b", strings.Repeat("*[a]", 30) + "c"} {
		for _, pathname := range []bool{false, true} {
			w := wild{pathname: pathname}
			if r := w.match(pat, 0, 0, name, 0); r == wmMatch || w.steps > maxSteps/64 {
				t.Errorf("%q (pathname %v): result %d after %d steps", pat, pathname, r, w.steps)
			}
		}
	}
	if m, ok := Wildmatch("*.key", "a.key", true); !m || !ok {
		t.Errorf("*.key: %v %v", m, ok)
	}
}

// FuzzWildmatch: any pattern and name end (within the step bound) without a
// panic, and a pattern without special characters matches only itself.
func FuzzWildmatch(f *testing.F) {
	f.Add("**/a*[!b-d]?\\*", "x/y/az9*")
	f.Add("[", "[")
	f.Add("a/**", "a/b/c")
	f.Add("[[:alpha:]-z]", "q")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		for _, pathname := range []bool{false, true} {
			m, ok := Wildmatch(pattern, name, pathname)
			if !strings.ContainsAny(pattern, `*?[\`) && ok && m != (pattern == name) {
				t.Fatalf("%q against %q: %v", pattern, name, m)
			}
		}
		New(Parse([]byte(pattern), "")).Decide(name, false)
	})
}
