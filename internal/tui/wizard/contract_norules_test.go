package wizard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWizardHoldsNoRules: the wizard's files hold no rule of their own (issue
// 11): no regular expression, no list of allowed values and no option value
// spelled out; choices come from internal/scaffold and the schemas
// (internal/validate). The only literal option values are the wizard's own
// words for "a new key pair" and "an existing key".
func TestWizardHoldsNoRules(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	kit, _ := filepath.Glob(filepath.Join("ask", "*.go")) // the questions' kit
	files = append(files, kit...)
	own := map[string]bool{`"new"`: true, `"existing"`: true}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "regexp" {
				t.Errorf("%s imports regexp: checks belong in internal/validate or internal/scaffold", name)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if at, ok := n.Type.(*ast.ArrayType); ok && isIdent(at.Elt, "string") && len(n.Elts) >= 2 && allStringLits(n.Elts) {
					t.Errorf("%s: a list of values of its own: %s", fset.Position(n.Pos()), render(n.Elts))
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || !isIdent(sel.X, "huh") {
					return true
				}
				switch sel.Sel.Name {
				case "NewOptions":
					if len(n.Args) > 0 && allStringLits(n.Args) {
						t.Errorf("%s: options of its own: %s", fset.Position(n.Pos()), render(n.Args))
					}
				case "NewOption":
					if lit, ok := n.Args[1].(*ast.BasicLit); ok && !own[lit.Value] {
						t.Errorf("%s: an option value of its own: %s", fset.Position(n.Pos()), lit.Value)
					}
				}
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("only %d files checked", checked)
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func allStringLits(es []ast.Expr) bool {
	for _, e := range es {
		if lit, ok := e.(*ast.BasicLit); !ok || lit.Kind != token.STRING {
			return false
		}
	}
	return true
}

func render(es []ast.Expr) string {
	var out []string
	for _, e := range es {
		if lit, ok := e.(*ast.BasicLit); ok {
			out = append(out, lit.Value)
		}
	}
	return strings.Join(out, ", ")
}
