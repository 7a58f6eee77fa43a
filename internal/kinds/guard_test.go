package kinds

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/guard"
)

// spelledElsewhere are the places outside this package allowed to spell a
// pack kind's name as a string, by file (relative to the module root) and
// word, with the reason: each is the same word meaning something else.
var spelledElsewhere = map[string]string{
	"internal/fixtures/ajv.go node":                     "the Node.js executable",
	"internal/chainexp/text.go node":                    "a node of the expanded fragment, counted in words",
	"internal/run/host.go node":                         "the Node.js executable",
	"internal/validate/lint_entry.go node":              "the Node.js executable",
	"internal/scaffold/tool.go node":                    "the Node.js executable of a tool's command",
	"internal/scaffold/render.go node":                  "the runtime language of a node pack's entry",
	"internal/scaffold/spec.go node":                    "the runtime language of a node pack's entry",
	"internal/scaffold/add.go node":                     "`wopkit new node`: the verb and the plan of a node added into a pack",
	"cmd/wopkit/new.go node":                            "`wopkit new node`: the verb",
	"internal/scaffold/connection.go node":              "a provider's reach.integration.node member",
	"internal/scaffold/card.go prompt":                  "a card's prompt member",
	"internal/validate/lint_kinds.go prompt":            "a card's prompt member",
	"internal/semdiff/diff.go prompt":                   "a card's prompt member, compared as text",
	"internal/tui/wizard/page_tool.go prompt":           "a tool action's prompt member",
	"internal/placeholder/placeholder.go prompt":        "an environment variable's prompt member",
	"internal/tui/wizard/page_prompt.go prompt":         "the wizard's page id, and the member a draft before the kinds table kept prompt answers in",
	"internal/tui/wizard/page_card.go card":             "the wizard's page id and list noun, and the member a draft before the kinds table kept card answers in",
	"internal/tui/wizard/page_nodes.go node":            "the wizard's page id and list noun",
	"internal/tui/wizard/page_connection.go connection": "the wizard's list of connection answers",
}

// TestKindNamesLiveInTheTable: a pack kind's name is spelled as a string
// only here, so that a kind new to wopkit is a row of this table and every
// reader of packs finds it. Elsewhere, name the constant (NodeName, …) or
// read the row.
func TestKindNamesLiveInTheTable(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from the package directory: %v", err)
	}
	names := PackNames()
	found := map[string][]string{}
	guard.Files(t, root, []string{"internal/kinds", "node_modules"}, func(rel string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(names, s) {
				found[rel+" "+s] = append(found[rel+" "+s], fset.Position(lit.Pos()).String())
			}
			return true
		})
	})
	guard.Check(t, found, spelledElsewhere, func(key, where string) string {
		name := key[strings.LastIndexByte(key, ' ')+1:]
		return fmt.Sprintf("%s: spells the pack kind %q: name it as kinds.%s or read its row in internal/kinds (or allow it in spelledElsewhere, saying what else the word means there)",
			where, name, constName(name))
	})
}

// constName is the constant naming a pack kind, for the message.
func constName(name string) string {
	var b strings.Builder
	for _, w := range strings.Split(name, "-") {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	if name == FrontendName {
		return "FrontendName"
	}
	return b.String() + "Name"
}

// maxNamingFiles is how many non-test files may name one pack kind (its
// constants, or an alias of them): the table (packs.go), the kind's
// scaffold file, its wizard pages file and its rules (issue 40, item 3).
const maxNamingFiles = 4

// TestKindNamesLiveInFewFiles: a pack kind other than node (the kind every
// reader of packs defaults to) is named, by its constants of packs.go
// (CardName, CardPack) or a constant equal to one of them (scaffold's
// KindCard), in at most maxNamingFiles non-test files.
func TestKindNamesLiveInFewFiles(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	type file struct {
		rel string
		f   *ast.File
	}
	var files []file
	guard.Files(t, root, []string{"node_modules", "third_party"}, func(rel string, _ *token.FileSet, f *ast.File) {
		files = append(files, file{rel, f})
	})
	// the constants of packs.go, by the value they hold
	consts := map[string]string{} // constant -> kind name
	for _, p := range Packs() {
		for _, fl := range files {
			if fl.rel != "internal/kinds/packs.go" {
				continue
			}
			ast.Inspect(fl.f, func(n ast.Node) bool {
				vs, ok := n.(*ast.ValueSpec)
				if !ok || len(vs.Values) != len(vs.Names) {
					return true
				}
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok {
						if s, _ := strconv.Unquote(lit.Value); s == p.Name || s == string(p.Doc) {
							consts[vs.Names[i].Name] = p.Name
						}
					}
				}
				return true
			})
		}
	}
	if len(consts) < 2*len(Packs()) {
		t.Fatalf("found %d constants of the pack kinds in packs.go, want 2 per kind: %v", len(consts), consts)
	}
	// and the constants elsewhere that are one of them under another name
	for _, fl := range files {
		ast.Inspect(fl.f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Values) != len(vs.Names) {
				return true
			}
			for i, v := range vs.Values {
				if sel, ok := v.(*ast.SelectorExpr); ok && consts[sel.Sel.Name] != "" {
					consts[vs.Names[i].Name] = consts[sel.Sel.Name]
				}
			}
			return true
		})
	}
	naming := map[string][]string{} // kind name -> files
	for _, fl := range files {
		seen := map[string]bool{}
		ast.Inspect(fl.f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && consts[id.Name] != "" && !seen[consts[id.Name]] {
				seen[consts[id.Name]] = true
				naming[consts[id.Name]] = append(naming[consts[id.Name]], fl.rel)
			}
			return true
		})
	}
	for _, p := range Packs() {
		if p.Name == NodeName {
			continue
		}
		if got := naming[p.Name]; len(got) > maxNamingFiles {
			t.Errorf("the pack kind %q is named in %d non-test files, at most %d: %s", p.Name, len(got), maxNamingFiles, strings.Join(got, ", "))
		} else if len(got) == 0 {
			t.Errorf("the pack kind %q is named nowhere: the count is broken", p.Name)
		}
	}
}
