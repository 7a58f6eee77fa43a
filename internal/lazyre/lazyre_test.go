package lazyre

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/openwop/wopkit/internal/guard"
)

// TestEveryPatternCompiles compiles every lazyre.New("...") of the
// repository: a pattern is compiled only on first use, so a bad one must
// fail here rather than panic in a user's command.
func TestEveryPatternCompiles(t *testing.T) {
	t.Parallel()
	n := 0
	guard.Files(t, filepath.Join("..", ".."), nil, func(rel string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "New" || len(call.Args) != 1 {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "lazyre" {
				return true
			}
			expr, ok := constString(call.Args[0])
			if !ok {
				t.Errorf("%s: lazyre.New's pattern is not a string literal (or a sum of them): the test cannot compile it", fset.Position(call.Pos()))
				return true
			}
			if _, err := regexp.Compile(expr); err != nil {
				t.Errorf("%s: %v", fset.Position(call.Pos()), err)
			}
			n++
			return true
		})
	})
	if n < 20 {
		t.Errorf("found only %d lazyre.New patterns in the repository: the walk no longer sees them", n)
	}
}

// constString evaluates a string literal or a + of string literals.
func constString(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok1 := constString(x.X)
		b, ok2 := constString(x.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return constString(x.X)
	}
	return "", false
}

func TestCompiledOnceAndShared(t *testing.T) {
	t.Parallel()
	r := New(`^a(b+)$`)
	if r.re != nil {
		t.Fatal("compiled before its first use")
	}
	var wg sync.WaitGroup
	got := make([]*regexp.Regexp, 8)
	for i := range got {
		wg.Go(func() { got[i] = r.Compiled() })
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] || g == nil {
			t.Fatal("each use compiled its own expression")
		}
	}
	if m := r.FindStringSubmatch("abbb"); len(m) != 2 || m[1] != "bbb" || !r.MatchString("ab") || r.MatchString("ac") {
		t.Errorf("matching differs from regexp: %q", m)
	}
	if r.String() != `^a(b+)$` {
		t.Errorf("String() = %q", r.String())
	}
}
