package validate

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/guard"
)

// TestNoInitHooks: no package installs behaviour into another of wopkit's
// packages from an init function. `validate DIR` once reported what `pack`
// refuses only in the programs that linked internal/pack (whose init
// registered its check here), so the language server and this package's own
// tests gave another verdict than `wopkit validate`; the validator now calls
// pack.Check itself.
func TestNoInitHooks(t *testing.T) {
	t.Parallel()
	const mod = "github.com/openwop/wopkit/"
	found := map[string][]string{}
	guard.Files(t, filepath.Join("..", ".."), nil, func(rel string, fset *token.FileSet, f *ast.File) {
		own := map[string]bool{} // local names of wopkit's packages
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !strings.HasPrefix(p, mod) {
				continue
			}
			name := p[strings.LastIndexByte(p, '/')+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			own[name] = true
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != "init" || fd.Recv != nil || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && own[x.Name] && strings.HasPrefix(sel.Sel.Name, "Register") {
						found[rel] = append(found[rel], fset.Position(call.Pos()).String()+" "+x.Name+"."+sel.Sel.Name)
					}
				}
				return true
			})
		}
	})
	guard.Check(t, found, nil, func(key, where string) string {
		return key + ": an init function registers behaviour in another package (" + where + "): call it from where it is needed, so that every program gets the same behaviour"
	})
}
