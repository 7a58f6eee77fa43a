package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// actionsFor are the code actions the server offers on the document at
// path (text, open at version 1) over its whole range, with root as the
// workspace: the handler's own function, without a session.
func actionsFor(t testing.TB, root, path string, text []byte) []codeAction {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.roots = []string{root}
	u := uri.File(path)
	s.docs.put(&document{uri: u, path: path, version: 1, text: text})
	return s.codeActions(&protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{End: protocol.Position{Line: 1 << 20}}})
}

// wireChange is one member of an edit's documentChanges, as the client
// reads it.
type wireChange struct {
	Kind    string          `json:"kind"`
	URI     string          `json:"uri"`
	Options json.RawMessage `json:"options"`
	Text    *struct {
		URI     string `json:"uri"`
		Version *int32 `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

// wireChanges is an action's edit as the client reads it.
func wireChanges(t testing.TB, a codeAction) []wireChange {
	t.Helper()
	b, err := json.Marshal(a.Edit)
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		DocumentChanges []wireChange `json:"documentChanges"`
	}
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("edit %s: %v", b, err)
	}
	return e.DocumentChanges
}

// checkEdits fails t when an action's edit, applied as the LSP says, would
// write where the write door does not: a file whose real path leaves
// realPack, a file created over one that is there (or with overwrite or
// ignoreIfExists), text inserted into a file that exists.
func checkEdits(t testing.TB, acts []codeAction, realPack string) {
	t.Helper()
	for _, a := range acts {
		if a.Edit == nil {
			t.Errorf("action %q has no edit", a.Title)
			continue
		}
		created := map[string]bool{}
		for _, c := range wireChanges(t, a) {
			target := c.URI
			if c.Text != nil {
				target = c.Text.URI
			}
			p, ok := pathOf(protocol.DocumentURI(target))
			if !ok {
				t.Errorf("action %q edits %q, not a file", a.Title, target)
				continue
			}
			real, err := realPath(p)
			if err != nil || !within(realPack, real) {
				t.Errorf("action %q writes %s, whose real path %s (%v) leaves the pack %s", a.Title, p, real, err, realPack)
			}
			switch {
			case c.Kind == "create":
				if string(c.Options) != `{"overwrite":false,"ignoreIfExists":false}` {
					t.Errorf("action %q creates %s with options %s", a.Title, p, c.Options)
				}
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("action %q creates %s, which is there", a.Title, p)
				}
				created[p] = true
			case c.Kind != "":
				t.Errorf("action %q does a %q", a.Title, c.Kind)
			case created[p]:
				if c.Text == nil || c.Text.Version != nil {
					t.Errorf("action %q: the text of the file it creates, %s, is no edit of a file not open", a.Title, p)
				}
			default:
				// An edit of a file it did not create: of an open
				// document, or of a regular file that is there.
				if fi, err := os.Stat(p); c.Text == nil || c.Text.Version == nil && (err != nil || !fi.Mode().IsRegular()) {
					t.Errorf("action %q edits %s, neither open nor a file it created nor one that is there (%v)", a.Title, p, err)
				}
			}
		}
	}
}

// symlink makes a link or skips the test where links cannot be made.
func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// The review's finding: in a pack where conf links out (to a home folder
// with its .bashrc) and a reference names a file under it, the read door
// sees the file as missing; the fix "Create ... from the wopkit template"
// must not be offered, for a file that is there behind the link nor for
// one that is not. A dangling link in the pack gets no fix either, a
// name that does not fit the template (.bashrc) none, and a pack name
// that is no name none; a plain missing file gets one that creates it
// where nothing is, with both options false.
func TestFixesStayInsideThePack(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home := t.TempDir()
	bashrc := filepath.Join(home, "writer.md")
	if err := os.WriteFile(bashrc, []byte("# the user's own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := scaffoldPackIn(t, root)
	pj := filepath.Join(dir, "pack.json")
	text, err := os.ReadFile(pj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "prompts", "writer.md")); err != nil {
		t.Fatal(err)
	}
	symlink(t, home, filepath.Join(dir, "conf"))
	symlink(t, filepath.Join(home, "gone.md"), filepath.Join(dir, "dangling.md"))
	realPack, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	const title = "from the wopkit template"
	cases := []struct {
		name, from, to string
		offered        bool
	}{
		{"a plain missing file", "", "", true},
		{"a file behind a link out", `"prompts/writer.md"`, `"conf/writer.md"`, false},
		{"a new file behind a link out", `"prompts/writer.md"`, `"conf/new.md"`, false},
		{"a dangling link", `"prompts/writer.md"`, `"dangling.md"`, false},
		{"a name unlike the template", `"prompts/writer.md"`, `"prompts/.bashrc"`, false},
		{"a name with shell in it", `"prompts/writer.md"`, `"prompts/$(id).md"`, false},
		{"a pack name that is no name", `"name": "vendor.acme.hello"`, `"name": "vendor.acme.hello$(touch pwned)"`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := strings.Replace(string(text), tc.from, tc.to, 1)
			if tc.from != "" && doc == string(text) {
				t.Fatalf("%s is not in the pack.json", tc.from)
			}
			acts := actionsFor(t, root, pj, []byte(doc))
			checkEdits(t, acts, realPack)
			var creates []codeAction
			for _, a := range acts {
				if strings.Contains(a.Title, title) {
					creates = append(creates, a)
				}
			}
			if tc.offered != (len(creates) == 1) {
				t.Fatalf("create actions offered: %d, want offered=%v: %+v", len(creates), tc.offered, acts)
			}
		})
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "# the user's own\n" {
		t.Errorf("the outside file changed: %q", b)
	}
}

// A manifest that is itself a link out of the workspace (pack.json ->
// a file elsewhere) gets no edit of its text: the client would write
// through the link (the files it references may still be made beside it).
// The same manifest as a plain file gets the fix.
func TestNoFixThroughADocumentLinkedOut(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	elsewhere := scaffoldPack(t)
	text, err := os.ReadFile(filepath.Join(elsewhere, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte(strings.Replace(string(text), `"kind": "node",`, "", 1))
	if string(doc) == string(text) {
		t.Fatal("no kind to take out")
	}
	dir := filepath.Join(root, "linked")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pj := filepath.Join(dir, "pack.json")
	symlink(t, filepath.Join(elsewhere, "pack.json"), pj)
	realDir, _ := filepath.EvalSymlinks(dir)
	linked := actionsFor(t, root, pj, doc)
	checkEdits(t, linked, realDir) // the files it references may be created in dir
	for _, a := range linked {
		if a.Title == `Add "kind": "node"` {
			t.Errorf("a pack.json linked out of the workspace was offered %q", a.Title)
		}
	}
	plain := filepath.Join(root, "plain")
	if err := os.Mkdir(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(plain, "pack.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	acts := actionsFor(t, root, filepath.Join(plain, "pack.json"), doc)
	found := false
	for _, a := range acts {
		found = found || a.Title == `Add "kind": "node"`
	}
	if !found {
		t.Errorf("the control (a plain pack.json) gets no fix: %+v", acts)
	}
	real, _ := filepath.EvalSymlinks(plain)
	checkEdits(t, acts, real)
}
