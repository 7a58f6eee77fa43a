package pack

import "testing"

func TestIgnore(t *testing.T) {
	t.Parallel()
	rules := `
# comment
*.log
/build
dist/
schemas/draft-*.json
!schemas/draft-keep.json
**/tmp/**
docs/**/*.png
\#literal
prompts/?.md
[Tt]humbs.db
`
	ig := ParseIgnore([]byte(rules))
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"a.log", true},
		{"prompts/x.log", true},
		{"build", true},
		{"build/x", true},
		{"schemas/build", false}, // anchored
		{"dist/a.js", true},
		{"schemas/dist/a.json", true}, // dir-only, unanchored
		{"dist", false},               // a file named dist: dir-only rule does not apply
		{"schemas/draft-1.json", true},
		{"schemas/draft-keep.json", false},
		{"schemas/final.json", false},
		{"a/tmp/b", true},
		{"tmp/b", true},
		{"docs/a/b/c.png", true},
		{"docs/c.png", true},
		{"docs/c.md", false},
		{"#literal", true},
		{"prompts/a.md", true},
		{"prompts/ab.md", false},
		{"thumbs.db", true},
		{"Thumbs.db", true},
		{"README.md", false},
	} {
		if got := ig.Ignored(tc.path); got != tc.want {
			t.Errorf("Ignored(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	var none *Ignorer
	if none.Ignored("x") {
		t.Error("nil Ignorer ignores")
	}
}

// A file inside an excluded directory cannot be re-included (git's rule).
func TestIgnoreParentExcluded(t *testing.T) {
	t.Parallel()
	ig := ParseIgnore([]byte("schemas/\n!schemas/a.json\n"))
	if !ig.Ignored("schemas/a.json") {
		t.Error("re-included a file inside an excluded directory")
	}
}

// A pattern with non-ASCII letters matches them (each UTF-8 byte was once
// quoted as a letter of its own, so such a pattern matched nothing).
func TestIgnoreNonASCII(t *testing.T) {
	t.Parallel()
	ig := ParseIgnore([]byte("caf\u00e9.md\ndocs/*\u00e9t\u00e9*\n?\u00e8.txt\n"))
	for path, want := range map[string]bool{"caf\u00e9.md": true, "x/caf\u00e9.md": true, "cafe.md": false,
		"docs/l'\u00e9t\u00e9.md": true, "docs/ete.md": false, "\u00e9\u00e8.txt": true} {
		if got := ig.Ignored(path); got != want {
			t.Errorf("Ignored(%q) = %v, want %v", path, got, want)
		}
	}
}
