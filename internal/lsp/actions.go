package lsp

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/fix"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/migrate"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
)

// The code actions' kinds beyond quickfix.
const (
	// KindMigrate rewrites a v1 pack.json as v2 (wopkit migrate).
	KindMigrate protocol.CodeActionKind = "source.wopkit.migrate"
)

// codeAction is protocol.CodeAction with an edit that may create files:
// go.lsp.dev/protocol v0.12.0 types WorkspaceEdit.documentChanges as
// []TextDocumentEdit only, though LSP 3.13+ lets it hold the CreateFile
// operation the "create the missing file" fix needs. Every member is one
// of the library's types.
type codeAction struct {
	Title       string                  `json:"title"`
	Kind        protocol.CodeActionKind `json:"kind,omitempty"`
	Diagnostics []protocol.Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool                    `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit          `json:"edit,omitempty"`
}

// workspaceEdit holds protocol.TextDocumentEdit and protocol.CreateFile
// values, in order.
type workspaceEdit struct {
	DocumentChanges []any `json:"documentChanges"`
}

// handleCodeAction answers textDocument/codeAction (outside
// protocol.ServerHandler, for the codeAction type above).
func (s *Server) handleCodeAction(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var p protocol.CodeActionParams
	if err := untrusted.DecodeJSON(req.Params(), &p); err != nil {
		return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "textDocument/codeAction: %v", err))
	}
	return reply(ctx, s.codeActions(&p), nil)
}

// codeActions are the fixes for the problems in the range asked about,
// plus the document's own: add a missing pack kind, migrate a v1 pack.
func (s *Server) codeActions(p *protocol.CodeActionParams) []codeAction {
	out := []codeAction{}
	w := s.viewOf(p.TextDocument.URI)
	if w == nil || w.jd == nil {
		return out
	}
	diags := s.check(w.doc)[w.doc.path]
	var kindDiags []protocol.Diagnostic
	for _, d := range diags {
		data, _ := d.Data.(problemData)
		// A member missing at the root (the kind, when the document has
		// none: see below), known by its pointer, not by its words.
		if codeOf(d) == "schema/required" && data.Pointer == "" {
			kindDiags = append(kindDiags, d)
		}
		if !overlaps(d.Range, p.Range) {
			continue
		}
		// The fix the problem carries (the rule made it; nothing here
		// knows the rule).
		if f := s.applyFix(w, data.Pointer, data.Fix); f != nil {
			// A fix that is one choice among others (validate.Fix.Choice) is
			// offered, but not preferred: an editor's "fix all" leaves it, as
			// `validate --fix` does.
			f.Kind, f.Diagnostics, f.IsPreferred = protocol.QuickFix, []protocol.Diagnostic{d}, data.Fix.Choice == ""
			out = append(out, *f)
		}
	}
	if path.Base(w.name) != "pack.json" {
		out = append(out, s.schemaIDFixes(w, p.Range)...)
	}
	if path.Base(w.name) == "pack.json" && w.jd.Root.Kind == jsondoc.Object && w.jd.Root.Get("kind") == nil {
		if b, err := jsonedit.SetAfter(w.doc.text, "/kind", "version", kinds.NodeName); err == nil {
			if e := s.editOf(w, b); e != nil {
				out = append(out, codeAction{Title: `Add "kind": "` + kinds.NodeName + `"`, Kind: protocol.QuickFix, Diagnostics: kindDiags, Edit: e})
			}
		}
	}
	if path.Base(w.name) == "pack.json" && w.spec == kinds.V1 && kinds.IsPack(w.kind) {
		if rw, err := migrate.Manifest(w.doc.text, w.name); err == nil && rw.Out != nil {
			if e := s.editOf(w, rw.Out); e != nil {
				out = append(out, codeAction{Title: "Migrate this pack.json to OpenWOP v2 (wopkit migrate)", Kind: KindMigrate, Edit: e})
			}
		}
	}
	return filterKinds(out, p.Context.Only)
}

func filterKinds(acts []codeAction, only []protocol.CodeActionKind) []codeAction {
	if len(only) == 0 {
		return acts
	}
	out := []codeAction{}
	for _, a := range acts {
		for _, k := range only {
			if a.Kind == k || strings.HasPrefix(string(a.Kind), string(k)+".") {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

func overlaps(a, b protocol.Range) bool {
	before := func(x, y protocol.Position) bool {
		return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character
	}
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// createMissing creates the file a reference at pointer names, from the
// scaffold's template for that member, when the pack lacks it. The file's
// name must fit what the template holds (a prompt .md or .txt, a schema or
// suite .json) and be plain (letters, digits, . _ - /), and the pack's name
// and version, which the template holds, must have the forms the schema
// asks (a dotted name of letters, digits, _ and -; SemVer), or no file is
// offered: no stranger's string lands in a template raw (the template's
// JSON is written by encoding/json).
func (s *Server) createMissing(w *view, pointer string, fx *validate.Fix) *codeAction {
	n := w.jd.Lookup(pointer)
	toks := jsondoc.SplitPointer(pointer)
	if n == nil || n.Kind != jsondoc.String || len(toks) == 0 {
		return nil
	}
	ref := fx.Create
	member := toks[len(toks)-1]
	if ref != strings.TrimPrefix(n.Str, "./") || !fs.ValidPath(ref) || ref == "." {
		return nil
	}
	fsys, ok := s.packFS(w.doc.path)
	if !ok {
		return nil
	}
	if _, err := fs.Stat(fsys, ref); err == nil {
		return nil
	}
	data, ok := fix.Template(member, ref, w.jd.Root.Get("name").Text(), w.jd.Root.Get("version").Text())
	if !ok {
		return nil
	}
	target := filepath.Join(filepath.Dir(w.doc.path), filepath.FromSlash(ref))
	return actionOf(fx.Title, s.checkedEdit(w, change{path: target, create: true, edits: []protocol.TextEdit{{NewText: string(data)}}}))
}

// actionOf is the code action titled title that makes edit (nil without one).
func actionOf(title string, edit *workspaceEdit) *codeAction {
	if edit == nil {
		return nil
	}
	return &codeAction{Title: title, Edit: edit}
}

// applyFix is the code action that makes a problem's own fix (nil when it
// has none, or its edits no longer apply to the document).
func (s *Server) applyFix(w *view, pointer string, fix *validate.Fix) *codeAction {
	if fix != nil && fix.Create != "" {
		return s.createMissing(w, pointer, fix)
	}
	if fix == nil || len(fix.Edits) == 0 {
		return nil
	}
	if fix.File != "" {
		return s.applyFileFix(w, fix)
	}
	text, ok := applyEdits(w.doc.text, fix.Edits)
	if !ok {
		return nil
	}
	return actionOf(fix.Title, s.editOf(w, text))
}

// applyEdits makes a fix's edits to text (false: one no longer applies).
func applyEdits(text []byte, edits []validate.Edit) ([]byte, bool) {
	out, err := fix.Apply(text, edits)
	return out, err == nil
}
