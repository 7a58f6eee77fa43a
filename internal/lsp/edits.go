package lsp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// A fix is a write the client makes on wopkit's word, so every workspace
// edit the server offers keeps the write door's rules (internal/atomicfile):
// it is built by checkedEdit alone, which offers it only when each file it
// changes is, after links, inside the document's folder and the workspace
// root, and creates a file only where nothing is, never over one.
// TestEditsAreBuiltOnlyByCheckedEdit fails on an edit built anywhere else.

// change is one file an edit changes.
type change struct {
	path    string               // absolute, clean
	uri     protocol.DocumentURI // as the client names the file ("": uri.File(path))
	version *int32               // the open document's version; nil for a file not open
	create  bool                 // a new file, made where nothing is
	edits   []protocol.TextEdit
}

// createFile is LSP's CreateFile with both options written out, false: the
// client creates the file only where none is, and fails the edit (before
// its text is inserted) where one is.
type createFile struct {
	Kind    string               `json:"kind"`
	URI     protocol.DocumentURI `json:"uri"`
	Options createFileOptions    `json:"options"`
}

type createFileOptions struct {
	Overwrite      bool `json:"overwrite"`
	IgnoreIfExists bool `json:"ignoreIfExists"`
}

// checkedEdit is the workspace edit that makes changes, or nil when one of
// them would write outside the folder of w's document or the workspace
// root once links are followed, into something not a regular file, or
// create a file where something (a file, a link, a folder) already is.
func (s *Server) checkedEdit(w *view, changes ...change) *workspaceEdit {
	if len(changes) == 0 {
		return nil
	}
	root, ok := s.rootOf(w.doc.path)
	if !ok {
		return nil
	}
	base := filepath.Dir(w.doc.path)
	realRoot, err1 := realPath(root)
	realBase, err2 := realPath(base)
	if err1 != nil || err2 != nil || !within(root, base) || !within(realRoot, realBase) {
		return nil
	}
	e := &workspaceEdit{DocumentChanges: []any{}}
	for _, c := range changes {
		if !filepath.IsAbs(c.path) || filepath.Clean(c.path) != c.path || !within(base, c.path) || !within(root, c.path) {
			return nil
		}
		if !contained(c.path, c.create, realBase, realRoot) {
			return nil
		}
		u := c.uri
		if u == "" {
			u = uri.File(c.path)
		}
		if c.create {
			e.DocumentChanges = append(e.DocumentChanges, createFile{Kind: "create", URI: u})
		}
		e.DocumentChanges = append(e.DocumentChanges, protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: c.version},
			Edits:        c.edits,
		})
	}
	return e
}

// contained reports whether a write to path stays inside both real
// folders: an existing file's real path (links followed) must be in them
// and be a regular file; a file to create must not exist, not even as a
// dangling link, and its nearest existing folder's real path must be in
// them. A file that is neither (an open document not yet saved) is judged
// as one to create, but may be edited.
func contained(path string, create bool, realBase, realRoot string) bool {
	_, err := os.Lstat(path)
	switch {
	case err == nil && create:
		return false // something is there: never created over
	case err == nil:
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return false
		}
		if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() {
			return false
		}
		return within(realBase, real) && within(realRoot, real)
	case !errors.Is(err, fs.ErrNotExist):
		return false
	}
	real, err := realPath(path)
	return err == nil && within(realBase, real) && within(realRoot, real)
}

// realPath is path with links followed: the real path of its nearest
// existing ancestor (itself when it exists) joined with the names below
// it, which do not exist.
func realPath(path string) (string, error) {
	var tail []string
	p := path
	for {
		if _, err := os.Lstat(p); err == nil {
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				return "", err
			}
			for i := len(tail) - 1; i >= 0; i-- {
				real = filepath.Join(real, tail[i])
			}
			return real, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		up := filepath.Dir(p)
		if up == p {
			return "", fs.ErrNotExist
		}
		tail = append(tail, filepath.Base(p))
		p = up
	}
}

// textChange is the change that turns before, the text of the file at path
// (named u by the client, at version; nil for a file that is not open),
// into after: one TextEdit over the bytes that differ.
func textChange(path string, u protocol.DocumentURI, version *int32, before, after []byte) change {
	pre := 0
	for pre < len(before) && pre < len(after) && before[pre] == after[pre] {
		pre++
	}
	suf := 0
	for suf < len(before)-pre && suf < len(after)-pre && before[len(before)-1-suf] == after[len(after)-1-suf] {
		suf++
	}
	// Keep the splice on character boundaries.
	for pre > 0 && pre < len(before) && before[pre]&0xC0 == 0x80 {
		pre--
	}
	for suf > 0 && len(before)-suf < len(before) && before[len(before)-suf]&0xC0 == 0x80 {
		suf--
	}
	return change{path: path, uri: u, version: version,
		edits: []protocol.TextEdit{{Range: newLines(before).rangeOf(pre, len(before)-suf), NewText: string(after[pre : len(after)-suf])}}}
}

// editOf is the edit that turns the document's text into after.
func (s *Server) editOf(w *view, after []byte) *workspaceEdit {
	v := w.doc.version
	return s.checkedEdit(w, textChange(w.doc.path, w.doc.uri, &v, w.doc.text, after))
}
