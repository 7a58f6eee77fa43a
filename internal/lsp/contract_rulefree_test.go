package lsp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ruleIDLit is a lint rule id as a Go string literal ("OW005").
var ruleIDLit = regexp.MustCompile(`^[A-Z]{2,3}[0-9]{3}$`)

// TestLSPKnowsNoRule: the language server's code names no rule id (a
// rule's fix is carried by its problem) and reads nothing out of a
// diagnostic's or problem's message with regexp or strings.
func TestLSPKnowsNoRule(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(n.Value); err == nil && ruleIDLit.MatchString(s) {
					t.Errorf("%s: names the rule %s: let the rule's problem carry its fix (validate.Problem.Fix)", fset.Position(n.Pos()), s)
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, _ := sel.X.(*ast.Ident)
				reader := pkg != nil && (pkg.Name == "strings" || pkg.Name == "regexp" || pkg.Name == "bytes")
				reader = reader || strings.HasPrefix(sel.Sel.Name, "Find") || strings.HasPrefix(sel.Sel.Name, "Match")
				if !reader {
					return true
				}
				for _, a := range n.Args {
					ast.Inspect(a, func(m ast.Node) bool {
						if s, ok := m.(*ast.SelectorExpr); ok && s.Sel.Name == "Message" {
							t.Errorf("%s: reads a message's text: carry the value on the problem instead", fset.Position(s.Pos()))
						}
						return true
					})
				}
			}
			return true
		})
	}
}
