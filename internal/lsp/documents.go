package lsp

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"net/url"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/untrusted"
)

// document is one file the client has open: its text is the truth for
// every check, whatever is on disk.
type document struct {
	uri     protocol.DocumentURI // as the client names it
	path    string               // absolute, clean
	version int32
	text    []byte
}

// store holds the open documents by path.
type store struct {
	mu   sync.Mutex
	docs map[string]*document
}

func newStore() *store { return &store{docs: map[string]*document{}} }

func (st *store) put(d *document) {
	st.mu.Lock()
	st.docs[d.path] = d
	st.mu.Unlock()
}

func (st *store) get(path string) *document {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.docs[path]
}

func (st *store) remove(path string) {
	st.mu.Lock()
	delete(st.docs, path)
	st.mu.Unlock()
}

// all returns the open documents, by path.
func (st *store) all() []*document {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]*document, 0, len(st.docs))
	for _, d := range st.docs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// texts snapshots the text of the open documents below dir, by slash path
// relative to it.
func (st *store) texts(dir string) map[string][]byte {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := map[string][]byte{}
	for p, d := range st.docs {
		if rel, err := filepath.Rel(dir, p); err == nil && within(dir, p) && rel != "." {
			out[filepath.ToSlash(rel)] = d.text
		}
	}
	return out
}

// pathOf returns the clean absolute path of a file: URI.
func pathOf(u protocol.DocumentURI) (string, bool) {
	pu, err := url.Parse(string(u))
	if err != nil || pu.Scheme != "file" || pu.Path == "" {
		return "", false
	}
	p := pu.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' { // file:///C:/x
		p = p[1:]
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return "", false
	}
	return p, true
}

// DidOpen records the document and checks it, with every open document of
// the same pack (a file they reference may have appeared).
func (s *Server) DidOpen(_ context.Context, p *protocol.DidOpenTextDocumentParams) error {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.docs.put(&document{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)})
	s.diags.changed(path)
	return nil
}

// DidChange replaces the document's text (full sync) and re-checks it.
func (s *Server) DidChange(_ context.Context, p *protocol.DidChangeTextDocumentParams) error {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok || len(p.ContentChanges) == 0 {
		return nil
	}
	old := s.docs.get(path)
	if old == nil {
		return nil
	}
	text := []byte(p.ContentChanges[len(p.ContentChanges)-1].Text)
	s.docs.put(&document{uri: old.uri, path: path, version: p.TextDocument.Version, text: text})
	s.diags.changed(path)
	return nil
}

// DidSave re-checks the documents that may reference the saved file.
func (s *Server) DidSave(_ context.Context, p *protocol.DidSaveTextDocumentParams) error {
	if path, ok := pathOf(p.TextDocument.URI); ok {
		s.diags.changed(path)
	}
	return nil
}

// DidClose forgets the document: its diagnostics are cleared, and the
// documents that reference it read it from disk again.
func (s *Server) DidClose(_ context.Context, p *protocol.DidCloseTextDocumentParams) error {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.docs.remove(path)
	s.diags.closed(path)
	return nil
}

// DidChangeWatchedFiles re-checks the open documents of the packs whose
// files were created, changed or deleted.
func (s *Server) DidChangeWatchedFiles(_ context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	for _, c := range p.Changes {
		if c == nil {
			continue
		}
		if path, ok := pathOf(c.URI); ok {
			s.diags.changed(path)
		}
	}
	return nil
}

// parsed is a document's text parsed, or nil when it does not parse.
func parsed(text []byte) *jsondoc.Doc {
	doc, err := jsondoc.Parse(text)
	if err != nil {
		return nil
	}
	return doc
}

// overlayFS is a pack directory as the checks see it: the open documents'
// text over the files on disk, read inside the directory through
// internal/untrusted (bounded, no link out).
type overlayFS struct {
	base fs.FS
	open map[string][]byte
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if b, ok := o.open[name]; ok {
		return &memFile{name: name, r: bytes.NewReader(b), size: int64(len(b))}, nil
	}
	if o.base == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return o.base.Open(name)
}

func (o overlayFS) ReadFile(name string) ([]byte, error) {
	if b, ok := o.open[name]; ok {
		if len(b) > untrusted.MaxPackFile {
			return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge}
		}
		return append([]byte(nil), b...), nil
	}
	if o.base == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return fs.ReadFile(o.base, name)
}

func (o overlayFS) Stat(name string) (fs.FileInfo, error) {
	if b, ok := o.open[name]; ok {
		return memInfo{name: filepath.Base(name), size: int64(len(b))}, nil
	}
	if o.base == nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return fs.Stat(o.base, name)
}

func (o overlayFS) Lstat(name string) (fs.FileInfo, error) {
	if _, ok := o.open[name]; ok || o.base == nil {
		return o.Stat(name)
	}
	return fs.Lstat(o.base, name)
}

func (o overlayFS) ReadLink(name string) (string, error) {
	if o.base == nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrNotExist}
	}
	return fs.ReadLink(o.base, name)
}

func (o overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if o.base == nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return fs.ReadDir(o.base, name)
}

type errString string

func (e errString) Error() string { return string(e) }

const errTooLarge = errString("file too large")

type memFile struct {
	name string
	r    *bytes.Reader
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) {
	return memInfo{name: filepath.Base(f.name), size: f.size}, nil
}
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }

var _ io.Reader = (*memFile)(nil)

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o644 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

// packFS returns the files a document at path may read: its directory,
// inside a workspace root, with the open documents over the disk. ok is
// false for a document outside every root: then nothing is read.
func (s *Server) packFS(path string) (fs.FS, bool) {
	if _, ok := s.rootOf(path); !ok {
		return nil, false
	}
	dir := filepath.Dir(path)
	base, err := untrusted.DirFS(dir)
	if err != nil {
		base = nil
	}
	return overlayFS{base: base, open: s.docs.texts(dir)}, true
}
