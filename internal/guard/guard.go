// Package guard finds, in wopkit's own source, the calls a door forbids
// outside itself (raw reads, process starts): the guard tests of
// internal/untrusted and internal/proc are built on it. Only tests import
// this package.
package guard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Find walks the module at root (test files, testdata and dot folders
// left out, and the folders skip, relative with slashes) and returns, by
// "file:function" ("(package)" outside functions, "Type.Method" for
// methods), where a name of forbidden (import path -> selector names) is
// used.
func Find(t testing.TB, root string, skip []string, forbidden map[string][]string) map[string][]string {
	t.Helper()
	return FindCalls(t, root, skip, forbidden, nil)
}

// FindCalls is Find where keep, when not nil, decides for each use that is
// the function of a call (the call given; nil for a use that is not
// called) whether it counts: os.OpenFile only with write flags, say.
func FindCalls(t testing.TB, root string, skip []string, forbidden map[string][]string, keep func(call *ast.CallExpr) bool) map[string][]string {
	t.Helper()
	found := map[string][]string{}
	Files(t, root, skip, func(rel string, fset *token.FileSet, f *ast.File) {
		names := map[string]string{} // local name -> import path
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			local := localName(path)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			names[local] = path
		}
		for _, decl := range f.Decls {
			fn := "(package)"
			if fd, ok := decl.(*ast.FuncDecl); ok {
				fn = fd.Name.Name
				if fd.Recv != nil && len(fd.Recv.List) == 1 {
					fn = recvName(fd.Recv.List[0].Type) + "." + fn
				}
			}
			calls := map[ast.Expr]*ast.CallExpr{}
			ast.Inspect(decl, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					calls[c.Fun] = c
				}
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				for _, name := range forbidden[names[x.Name]] {
					if sel.Sel.Name == name && (keep == nil || keep(calls[sel])) {
						key := rel + ":" + fn
						found[key] = append(found[key], fset.Position(sel.Pos()).String()+" "+x.Name+"."+name)
					}
				}
				return true
			})
		}
	})
	return found
}

// localName is the name an import of path is used by when it is not
// renamed: its last element, or the one before a major version
// (charm.land/huh/v2 is huh).
func localName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if n := len(elems); n > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		return elems[n-2]
	}
	return last
}

// Files parses each non-test Go file of the module at root (testdata and
// dot folders left out, third_party too, and the folders skip, relative with slashes) and
// hands it to visit with its path relative to root.
func Files(t testing.TB, root string, skip []string, visit func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if rel == "third_party" {
				return filepath.SkipDir // patched copies of libraries (see their PATCH.md), not wopkit's code
			}
			for _, l := range skip {
				if rel == l {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		visit(rel, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Check fails t for each use found that listed does not name (unlisted
// says what to do, given the key and where the uses are) and for each
// listed entry that no longer has a use, so that the list stays true.
func Check(t testing.TB, found map[string][]string, listed map[string]string, unlisted func(key, where string) string) {
	t.Helper()
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := listed[k]; !ok {
			t.Error(unlisted(k, strings.Join(found[k], ", ")))
		}
	}
	for k := range listed {
		if _, ok := found[k]; !ok {
			t.Errorf("the list names %s, which no longer does this: remove it", k)
		}
	}
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return recvName(e.X)
	}
	return "?"
}
