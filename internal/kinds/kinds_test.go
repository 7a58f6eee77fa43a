package kinds

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPackRows: every pack kind has a v2 schema, its own name and validator
// kind, and its contents their own member, noun and index count slot.
func TestPackRows(t *testing.T) {
	t.Parallel()
	names, docs, members, slots := map[string]bool{}, map[Kind]bool{}, map[string]bool{}, map[int]bool{}
	for _, p := range Packs() {
		if names[p.Name] || docs[p.Doc] {
			t.Errorf("%s: a second row for the name or validator kind %s", p.Name, p.Doc)
		}
		names[p.Name], docs[p.Doc] = true, true
		if SchemaIDFor(V2, p.Doc) == "" {
			t.Errorf("%s: no v2 schema for %s", p.Name, p.Doc)
		}
		if DocOf(p.Name) != p.Doc || !IsPack(p.Doc) {
			t.Errorf("%s: DocOf/IsPack disagree with the row", p.Name)
		}
		if p.Published && (p.Tab == "" || p.LandingCount == "" || p.RulePrefix == "" || p.Docs == "" || len(p.Contents) == 0) {
			t.Errorf("%s: a published kind needs its tab, landing count, rule prefix, docs section and contents: %+v", p.Name, p)
		}
		for _, c := range p.Contents {
			if members[c.Member] || slots[c.IndexOrder] {
				t.Errorf("%s: member %s or index slot %d used twice", p.Name, c.Member, c.IndexOrder)
			}
			members[c.Member], slots[c.IndexOrder] = true, true
			if c.IDKey == "" || c.Noun == "" || !strings.HasSuffix(c.CountKey, "Count") || (!c.Object && c.Symbol == 0) {
				t.Errorf("%s: content %+v is missing its id key, noun, count key or symbol", p.Name, c)
			}
		}
	}
	if DocOf("no-such-kind") != OtherPack || !IsPack(OtherPack) || IsPack(Agent) {
		t.Error("an unknown kind is not read as OtherPack")
	}
}

// TestSignAndVerifyDoNotImportTheValidator: the packages that sign and
// verify tarballs read the spec version from this table, not from the
// validator (which they would otherwise link whole).
func TestSignAndVerifyDoNotImportTheValidator(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	const mod = "github.com/openwop/wopkit/"
	// imports is the module packages a package directory imports (non-test files).
	imports := func(dir string) []string {
		ents, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, dir, e.Name()), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				if p, _ := strconv.Unquote(im.Path.Value); strings.HasPrefix(p, mod) {
					out = append(out, strings.TrimPrefix(p, mod))
				}
			}
		}
		return out
	}
	for _, start := range []string{"internal/sign", "internal/verify"} {
		seen := map[string]string{start: ""}
		queue := []string{start}
		for len(queue) > 0 {
			dir := queue[0]
			queue = queue[1:]
			for _, im := range imports(dir) {
				if _, ok := seen[im]; !ok {
					seen[im] = dir
					queue = append(queue, im)
				}
			}
		}
		if by, ok := seen["internal/validate"]; ok {
			t.Errorf("%s imports internal/validate (through %s): read kinds.DetectSpec instead", start, by)
		}
	}
}
