package leaks

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestGitleaksExamplesFile: testdata/gitleaks-examples.json holds every
// literal example string of gitleaks v8.30.1's rule generators (the
// elements of their tps and fps lists and maps that are string literals;
// the others are built from random strings at each run), read from the
// module's source when the Go module cache has it.
func TestGitleaksExamplesFile(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/gitleaks-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var ex []struct{ Text string }
	if err := json.Unmarshal(data, &ex); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range ex {
		have[e.Text] = true
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		if gp := os.Getenv("GOPATH"); gp != "" {
			cache = filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod")
		} else if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, "go", "pkg", "mod")
		}
	}
	dir := filepath.Join(cache, "github.com", "zricethezav", "gitleaks", "v8@"+GitleaksVersion, "cmd", "generate", "config", "rules")
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	if len(files) == 0 {
		t.Skipf("gitleaks %s is not in the Go module cache (%s): `go mod download github.com/zricethezav/gitleaks/v8@%s` brings it", GitleaksVersion, dir, GitleaksVersion)
	}
	// The rules of the default configuration: the calls in main.go's list.
	used := map[string]bool{}
	mainFile, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "..", "main.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(mainFile, func(node ast.Node) bool {
		if sel, ok := node.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "rules" {
				used[sel.Sel.Name] = true
			}
		}
		return true
	})
	n := 0
	var where string
	collect := func(node ast.Node) bool {
		as, ok := node.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok || id.Name != "tps" && id.Name != "fps" {
			return true
		}
		var elts []ast.Expr
		switch rhs := as.Rhs[0].(type) {
		case *ast.CompositeLit:
			elts = rhs.Elts
		case *ast.CallExpr: // tps = append(tps, ...)
			if fn, ok := rhs.Fun.(*ast.Ident); ok && fn.Name == "append" && len(rhs.Args) > 1 {
				elts = rhs.Args[1:]
			}
		}
		for _, e := range elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			n++
			if !have[s] {
				t.Errorf("%s: the example %q is not in testdata/gitleaks-examples.json (run testdata/gitleaks-examples.sh)", where, s)
			}
		}
		return true
	}
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && used[fd.Name.Name] {
				where = filepath.Base(f) + " " + fd.Name.Name
				ast.Inspect(fd, collect)
			}
		}
	}
	if n < 500 {
		t.Errorf("only %d literal examples in %s", n, dir)
	}
	t.Logf("%d literal examples of the %d rules of the default configuration", n, len(used))
}
