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
