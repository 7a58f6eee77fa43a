package atomicfile

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/guard"
)

// rawWriters are the calls that create, replace, rename, remove or change a
// file or folder without this door (os.OpenFile only with a write flag),
// and os.OpenRoot (an *os.Root's methods write).
var rawWriters = map[string][]string{
	"os": {"WriteFile", "Create", "CreateTemp", "MkdirTemp", "OpenFile", "Rename", "Remove", "RemoveAll",
		"Mkdir", "MkdirAll", "Symlink", "Link", "Chmod", "Chown", "Lchown", "Chtimes", "Truncate", "OpenRoot", "OpenInRoot", "CopyFS"},
	"io/ioutil": {"WriteFile", "TempFile", "TempDir"},
	"syscall":   {"Open", "Creat", "Rename", "Unlink", "Rmdir", "Mkdir", "Symlink", "Link", "Chmod", "Truncate"},
}

// rootGetters are the other way to an *os.Root: the read door's
// Dir.OSRoot() ("" matches any receiver that is not a package).
var rootGetters = map[string][]string{"": {"OSRoot"}}

// doorDirs are the door itself and test tooling that never ships.
var doorDirs = []string{
	"internal/atomicfile",                 // this door
	"internal/fixtures",                   // test support: writes test trees
	"internal/sign/sigstore/sigstoretest", // test servers
	"internal/sign/agenttest",             // test agents (a socket folder)
	"internal/tarball/benchtree",          // benchmark data
}

// writesListed are the writes outside the door, by file and enclosing
// function, with why each may. A new raw write fails the test until it goes
// through the door or is listed here with a reason a reviewer accepts; an
// entry whose write is gone fails too, so the list stays true.
var writesListed = map[string]string{
	"internal/untrusted/files.go:openDir":           "os.OpenRoot of a folder to read (the read door); writes into it go through atomicfile.InDir",
	"internal/pack/source.go:openPack":              "os.OpenRoot of the pack folder to read it through the root (pack never writes into the pack folder)",
	"internal/tui/tuitest/tuitest.go:Main":          "the TestMain of the terminal UI's tests: a temporary configuration folder for the tests' keys and drafts; only tests use tuitest",
	"internal/tui/tuitest/tuitest.go:Driver.Golden": "go test -update rewriting a golden file of wopkit's own tests (testdata/golden); only tests use the driver",
}

// TestWritesGoThroughTheDoor is the write door's guard: it fails when code
// outside internal/atomicfile writes a file or folder another way.
func TestWritesGoThroughTheDoor(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	found := guard.FindCalls(t, root, doorDirs, rawWriters, writes)
	for k, v := range guard.FindCalls(t, root, doorDirs, rootGetters, nil) {
		found[k] = append(found[k], v...)
	}
	guard.Check(t, found, writesListed, func(k, where string) string {
		return fmt.Sprintf("%s writes outside internal/atomicfile (%s): write with atomicfile.OpenPlace (WriteFile, MkdirAll, Rename, Remove...), a Batch with its Place, or atomicfile.WriteFile/Replace; if it cannot, add %q to writesListed with the reason", k, where, k)
	})
}

// writes decides which uses count: a call of os.OpenFile (or syscall.Open)
// only with a flag that writes, a Root() method only without arguments.
func writes(call *ast.CallExpr) bool {
	if call == nil {
		return true // a function value passed on: it may be called to write
	}
	sel, _ := call.Fun.(*ast.SelectorExpr)
	switch sel.Sel.Name {
	case "OpenFile", "Open":
		if sel.Sel.Name == "Open" && len(call.Args) < 2 {
			return false // os.Open is read-only; syscall.Open has flags
		}
		if len(call.Args) < 2 {
			return true
		}
		write := false
		ast.Inspect(call.Args[1], func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				switch s.Sel.Name {
				case "O_WRONLY", "O_RDWR", "O_CREATE", "O_CREAT", "O_TRUNC", "O_APPEND", "O_EXCL":
					write = true
				}
			}
			return true
		})
		if _, ok := call.Args[1].(*ast.Ident); ok {
			write = true // a flag in a variable: cannot tell
		}
		return write
	}
	return true
}

// TestOnlyRenameOverRenames is the guard of outputs that are devices or
// named pipes: in this package only renameOver renames (it refuses to
// replace one), and only removeIn removes a file that may be an output,
// so an output path never reaches a rename without that check.
func TestOnlyRenameOverRenames(t *testing.T) {
	t.Parallel()
	allowed := map[string]string{"Rename": "renameOver", "Remove": "removeIn"}
	fset := token.NewFileSet()
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				want, watched := allowed[sel.Sel.Name]
				if !watched || fn.Name.Name == want {
					return true
				}
				// Rename calls through the Place (which checks) are fine;
				// a Remove of a temporary name (tmp) is the door's own file.
				if id, ok := sel.X.(*ast.SelectorExpr); ok && id.Sel.Name == "root" || isIdent(sel.X, "r") {
					if sel.Sel.Name == "Remove" && len(call.Args) == 1 && (isIdent(call.Args[0], "tmp") || isSel(call.Args[0], "tmp")) {
						return true
					}
					t.Errorf("%s: %s calls %s.%s directly: an output that is a device or named pipe would be replaced; call %s", fset.Position(call.Pos()), fn.Name.Name, exprName(sel.X), sel.Sel.Name, want)
				}
				return true
			})
		}
	}
}

func isIdent(e ast.Expr, name string) bool { id, ok := e.(*ast.Ident); return ok && id.Name == name }

func isSel(e ast.Expr, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	return ok && s.Sel.Name == name
}

func exprName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprName(x.X) + "." + x.Sel.Name
	}
	return "?"
}
