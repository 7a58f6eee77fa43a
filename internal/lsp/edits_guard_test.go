package lsp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// editTypes are the types an edit the client applies is made of: this
// package's own (workspaceEdit, createFile) and go.lsp.dev/protocol's.
var editTypes = map[string]bool{
	"workspaceEdit": true, "createFile": true, "createFileOptions": true,
	"protocol.WorkspaceEdit": true, "protocol.CreateFile": true, "protocol.CreateFileOptions": true,
	"protocol.TextDocumentEdit": true, "protocol.RenameFile": true, "protocol.RenameFileOptions": true,
	"protocol.DeleteFile": true, "protocol.DeleteFileOptions": true, "protocol.ApplyWorkspaceEditParams": true,
}

// editBuilder is the one function allowed to build them.
const editBuilder = "Server.checkedEdit"

// editsOutside returns, for the Go files of src (name -> source), where an
// edit is built outside editBuilder: a literal, new() or variable of an
// edit type, a use of DocumentChanges, or a workspace/applyEdit request;
// and whether editBuilder checks containment (calls contained).
func editsOutside(t *testing.T, src map[string]string) (found []string, builderChecks bool) {
	t.Helper()
	fset := token.NewFileSet()
	names := make([]string, 0, len(src))
	for n := range src {
		names = append(names, n)
	}
	sort.Strings(names)
	typeName := func(e ast.Expr) string {
		if st, ok := e.(*ast.StarExpr); ok {
			e = st.X
		}
		switch e := e.(type) {
		case *ast.Ident:
			return e.Name
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				return x.Name + "." + e.Sel.Name
			}
		}
		return ""
	}
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, src[name], 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn := "(package)"
			if fd, ok := decl.(*ast.FuncDecl); ok {
				fn = fd.Name.Name
				if fd.Recv != nil && len(fd.Recv.List) == 1 {
					fn = recvTypeName(fd.Recv.List[0].Type) + "." + fn
				}
			}
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				continue // the types' own declarations
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				what := ""
				switch n := n.(type) {
				case *ast.CompositeLit:
					if n.Type != nil && editTypes[typeName(n.Type)] {
						what = "a " + typeName(n.Type) + " literal"
					}
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "new" && len(n.Args) == 1 && editTypes[typeName(n.Args[0])] {
						what = "new(" + typeName(n.Args[0]) + ")"
					}
					if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "contained" && fn == editBuilder {
						builderChecks = true
					}
				case *ast.ValueSpec:
					if n.Type != nil && editTypes[typeName(n.Type)] {
						what = "a variable of " + typeName(n.Type)
					}
				case *ast.SelectorExpr:
					switch n.Sel.Name {
					case "DocumentChanges", "ApplyEdit", "MethodWorkspaceApplyEdit":
						what = "a use of " + n.Sel.Name
					}
				}
				if what != "" && fn != editBuilder {
					found = append(found, fset.Position(n.Pos()).String()+" "+fn+": "+what)
				}
				return true
			})
		}
	}
	return found, builderChecks
}

func recvTypeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvTypeName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// TestEditsAreBuiltOnlyByCheckedEdit is the editor's write door: every
// WorkspaceEdit the server offers is built by checkedEdit, which checks
// each file's real path (contained); a code action that builds one another
// way fails it. The guard is shown to catch the old way (createMissing's
// CreateFile and TextDocumentEdit literals).
func TestEditsAreBuiltOnlyByCheckedEdit(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src[f] = string(b)
	}
	if len(src) < 10 {
		t.Fatalf("only %d source files found: the guard proves nothing", len(src))
	}
	found, checks := editsOutside(t, src)
	for _, f := range found {
		t.Errorf("%s: build the edit with checkedEdit (change values), which checks the real path of each file it writes", f)
	}
	if !checks {
		t.Errorf("%s does not call contained: it no longer checks where an edit writes", editBuilder)
	}

	// The guard fails on the way the create fix was built before.
	old := map[string]string{"old.go": `package lsp
func (s *Server) createMissing(u protocol.DocumentURI, data []byte) *codeAction {
	return &codeAction{Edit: &workspaceEdit{DocumentChanges: []any{
		protocol.CreateFile{Kind: "create", URI: u, Options: &protocol.CreateFileOptions{IgnoreIfExists: true}},
		protocol.TextDocumentEdit{Edits: []protocol.TextEdit{{NewText: string(data)}}},
	}}}
}
func (s *Server) other() { var e protocol.WorkspaceEdit; _ = e; _ = new(createFile) }
func (s *Server) checkedEdit() {}
`}
	found, checks = editsOutside(t, old)
	if len(found) != 6 || checks {
		t.Errorf("the guard over the old code found %d (want 6), builder checks %v: %q", len(found), checks, found)
	}
}
