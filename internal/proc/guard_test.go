package proc

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

// starters are the calls and types that start a process.
var starters = map[string][]string{
	"os":                       {"StartProcess"},
	"os/exec":                  {"Command", "CommandContext", "Cmd"},
	"syscall":                  {"Exec", "ForkExec", "StartProcess"},
	"golang.org/x/sys/unix":    {"Exec", "ForkExec"},
	"golang.org/x/sys/execabs": {"Command", "CommandContext", "Cmd"},
}

// startsListed are the process starts outside this package, by file and
// enclosing function, with why each may. A new one fails the test until it
// goes through proc or is listed here with a reason a reviewer accepts; an
// entry whose start is gone fails too.
var startsListed = map[string]string{
	"internal/sandbox/run_linux.go:start":   "the OW017 sandbox re-executes wopkit itself (/proc/self/exe) with only the environment its caller built (node's: NODE_OPTIONS= and NO_COLOR=1), in its own process group",
	"internal/sandbox/child_linux.go:child": "the sandbox's child replaces itself with the program once the seccomp filter and limits are in place",
	"internal/fixtures/ajv.go:AjvIn":        "test support (never in wopkit): npm installs ajv into a test folder",
	"internal/fixtures/ajv.go:AjvSchemas":   "test support (never in wopkit): node runs ajv as an independent schema check",
}

// TestProgramsStartOnlyThroughProc is the process door's guard: it fails
// when code outside internal/proc starts a program another way.
func TestProgramsStartOnlyThroughProc(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	found := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || rel == "internal/proc" {
				return filepath.SkipDir
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
		names := map[string]string{}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			local := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				local = imp.Name.Name
			}
			names[local] = path
		}
		for _, decl := range f.Decls {
			fn := "(package)"
			if fd, ok := decl.(*ast.FuncDecl); ok {
				fn = fd.Name.Name
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				for _, name := range starters[names[x.Name]] {
					if sel.Sel.Name == name {
						key := rel + ":" + fn
						found[key] = append(found[key], fset.Position(sel.Pos()).String()+" "+x.Name+"."+name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := startsListed[k]; !ok {
			t.Errorf("%s starts a program outside internal/proc (%s): build the command with proc.Command (clean environment, a working folder of wopkit's choosing), proc.Editor or proc.Git; if it cannot, add %q to startsListed with the reason", k, strings.Join(found[k], ", "), k)
		}
	}
	for k := range startsListed {
		if _, ok := found[k]; !ok {
			t.Errorf("startsListed lists %s, which no longer starts a program: remove it", k)
		}
	}
}
