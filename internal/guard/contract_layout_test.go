package guard

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayoutMapNamesEveryPackage: the layout map of docs/CONTRIBUTING.md
// (its first code block) names every package of the module, or the folder
// above it (internal/tui/ covers internal/tui/wizard), so that a newcomer
// finds each new package where the map says.
func TestLayoutMapNamesEveryPackage(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "docs", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## Layout")
	if start < 0 {
		t.Fatal(`docs/CONTRIBUTING.md has no "## Layout" section`)
	}
	block := text[start:]
	if i := strings.Index(block, "```\n"); i >= 0 {
		block = block[i+4:]
		if j := strings.Index(block, "```"); j >= 0 {
			block = block[:j]
		}
	}
	named := func(rel string) bool {
		for p := rel; ; p = filepath.ToSlash(filepath.Dir(p)) {
			if strings.Contains(block, p+"/") {
				return true
			}
			if strings.Count(p, "/") < 2 { // internal/x itself must be named, not only internal/
				return false
			}
		}
	}
	n := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "third_party" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if _, err := build.ImportDir(p, 0); err != nil || rel == "." {
			return nil // no Go package here
		}
		n++
		if !named(rel) {
			t.Errorf("%s is a package the layout map of docs/CONTRIBUTING.md does not name (nor a folder above it)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Fatalf("only %d packages found", n)
	}
}
