package kinds

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// spelledElsewhere are the places outside this package allowed to spell a
// pack kind's name as a string, by file (relative to the module root) and
// word, with the reason: each is the same word meaning something else.
var spelledElsewhere = map[string]string{
	"internal/fixtures/ajv.go node":              "the Node.js executable",
	"internal/validate/lint_entry.go node":       "the Node.js executable",
	"internal/scaffold/tool.go node":             "the Node.js executable of a tool's command",
	"internal/scaffold/render.go node":           "the runtime language of a node pack's entry",
	"internal/scaffold/spec.go node":             "the runtime language of a node pack's entry",
	"internal/scaffold/add.go node":              "`wopkit new node`: the verb and the plan of a node added into a pack",
	"cmd/wopkit/new.go node":                     "`wopkit new node`: the verb",
	"internal/scaffold/connection.go node":       "a provider's reach.integration.node member",
	"internal/scaffold/card.go prompt":           "a card's prompt member",
	"internal/validate/lint_kinds.go prompt":     "a card's prompt member",
	"internal/tui/page_tool.go prompt":           "a tool action's prompt member",
	"internal/tui/run.go prompt":                 "the member a draft before the kinds table kept prompt answers in",
	"internal/tui/run.go card":                   "the member a draft before the kinds table kept card answers in",
	"internal/tui/page_prompt.go prompt":         "the wizard's page id",
	"internal/tui/page_card.go card":             "the wizard's page id and list noun",
	"internal/tui/page_nodes.go node":            "the wizard's page id and list noun",
	"internal/tui/page_connection.go connection": "the wizard's list of connection answers",
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
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "internal/kinds" || rel != "." && strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !slices.Contains(names, s) {
				return true
			}
			key := rel + " " + s
			seen[key] = true
			if _, ok := spelledElsewhere[key]; !ok {
				t.Errorf("%s: spells the pack kind %q: name it as kinds.%s or read its row in internal/kinds (or allow it in spelledElsewhere, saying what else the word means there)",
					fset.Position(lit.Pos()), s, constName(s))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range spelledElsewhere {
		if !seen[key] {
			t.Errorf("spelledElsewhere allows %q, which no longer occurs: remove it", key)
		}
	}
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
