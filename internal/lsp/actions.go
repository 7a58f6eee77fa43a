package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/migrate"
	"github.com/openwop/wopkit/internal/packref"
	"github.com/openwop/wopkit/internal/scaffold"
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
		if strings.Contains(d.Message, "kind") && codeOf(d) == "schema/required" {
			kindDiags = append(kindDiags, d)
		}
		if !overlaps(d.Range, p.Range) {
			continue
		}
		data, _ := d.Data.(problemData)
		var a *codeAction
		switch codeOf(d) {
		case "OW005":
			a = s.createMissing(w, data.Pointer)
		case "PR002":
			a = declareVars(w, data.Pointer)
		case "WC005":
			a = declareParams(w, data.Pointer)
		case "WC010":
			a = s.pinTypeID(w, data.Pointer)
		case "OW016":
			a = cleanRef(w, data.Pointer)
		case "OW003":
			a = prefixAgentID(w, data.Pointer)
		}
		if a != nil {
			a.Kind, a.Diagnostics, a.IsPreferred = protocol.QuickFix, []protocol.Diagnostic{d}, true
			out = append(out, *a)
		}
	}
	if path.Base(w.name) == "pack.json" && w.jd.Root.Kind == jsondoc.Object && w.jd.Root.Get("kind") == nil {
		if b, err := jsonedit.SetAfter(w.doc.text, "/kind", "version", "node"); err == nil {
			out = append(out, codeAction{Title: `Add "kind": "node"`, Kind: protocol.QuickFix, Diagnostics: kindDiags,
				Edit: editOf(w, b)})
		}
	}
	if path.Base(w.name) == "pack.json" && w.spec == validate.V1 && validate.IsPackKind(w.kind) {
		if rw, err := migrate.Manifest(w.doc.text, w.name); err == nil && rw.Out != nil {
			out = append(out, codeAction{Title: "Migrate this pack.json to OpenWOP v2 (wopkit migrate)", Kind: KindMigrate, Edit: editOf(w, rw.Out)})
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

// editOf is the edit that turns the document's text into after: one
// TextEdit over the bytes that differ.
func editOf(w *view, after []byte) *workspaceEdit {
	before := w.doc.text
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
	v := w.doc.version
	return &workspaceEdit{DocumentChanges: []any{protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: w.doc.uri}, Version: &v},
		Edits:        []protocol.TextEdit{{Range: w.ls.rangeOf(pre, len(before)-suf), NewText: string(after[pre : len(after)-suf])}},
	}}}
}

// createMissing creates the file a reference at pointer names, from the
// scaffold's template for that member, when the pack lacks it.
func (s *Server) createMissing(w *view, pointer string) *codeAction {
	n := w.jd.Lookup(pointer)
	toks := jsondoc.SplitPointer(pointer)
	if n == nil || n.Kind != jsondoc.String || len(toks) == 0 {
		return nil
	}
	ref := strings.TrimPrefix(n.Str, "./")
	if !fs.ValidPath(ref) || ref == "." || strings.Contains(ref, "://") {
		return nil
	}
	fsys, ok := s.packFS(w.doc.path)
	if !ok {
		return nil
	}
	if _, err := fs.Stat(fsys, ref); err == nil {
		return nil
	}
	data, ok, err := scaffold.RefFile(toks[len(toks)-1], ref, w.jd.Root.Get("name").Text(), w.jd.Root.Get("version").Text())
	if err != nil || !ok {
		return nil
	}
	target := filepath.Join(filepath.Dir(w.doc.path), filepath.FromSlash(ref))
	if !within(filepath.Dir(w.doc.path), target) {
		return nil
	}
	u := uri.File(target)
	return &codeAction{Title: "Create " + ref + " from the wopkit template", Edit: &workspaceEdit{DocumentChanges: []any{
		protocol.CreateFile{Kind: "create", URI: u, Options: &protocol.CreateFileOptions{IgnoreIfExists: true}},
		protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}},
			Edits:        []protocol.TextEdit{{NewText: string(data)}},
		},
	}}}
}

// promptVar is PR002's notion of a template variable (validate's pattern).
var promptVar = regexp.MustCompile(`\{\{\{?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}?\}\}`)

var paramVar = regexp.MustCompile(`\{\{\s*params\.([A-Za-z_][A-Za-z0-9_]*)`)

// declareVars declares, in the prompt template at pointer's prompt, every
// {{var}} its text uses and its variables[] lacks.
func declareVars(w *view, pointer string) *codeAction {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) < 2 || toks[0] != "prompts" {
		return nil
	}
	base := "/prompts/" + toks[1]
	declared := map[string]bool{}
	for _, v := range itemsOf(w.jd.Lookup(base + "/variables")) {
		declared[v.Get("name").Text()] = true
	}
	text := w.doc.text
	var names []string
	for _, m := range promptVar.FindAllStringSubmatch(w.jd.Lookup(base+"/text").Text(), -1) {
		if !declared[m[1]] {
			declared[m[1]] = true
			names = append(names, m[1])
		}
	}
	if len(names) == 0 {
		return nil
	}
	var err error
	for _, n := range names {
		if text, err = jsonedit.Append(text, base+"/variables", map[string]any{"name": n, "type": "string", "required": true}); err != nil {
			return nil
		}
	}
	return &codeAction{Title: "Declare " + strings.Join(quoted(names), ", ") + " in variables[]", Edit: editOf(w, text)}
}

// declareParams declares, in the chain at pointer, every {{params.x}} the
// value at pointer uses that parameters.properties lacks.
func declareParams(w *view, pointer string) *codeAction {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) < 2 || toks[0] != "chains" {
		return nil
	}
	base := "/chains/" + toks[1]
	props := w.jd.Lookup(base + "/parameters/properties")
	v := w.jd.Lookup(pointer)
	if v == nil {
		return nil
	}
	text := w.doc.text
	var names []string
	for _, m := range paramVar.FindAllSubmatch(w.doc.text[v.Start:v.End], -1) {
		n := string(m[1])
		if props.Get(n) != nil || contains(names, n) {
			continue
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil
	}
	cur := w.jd
	for _, n := range names {
		var err error
		if cur.Lookup(base+"/parameters") == nil {
			text, err = jsonedit.Set(text, base+"/parameters", map[string]any{"type": "object", "properties": map[string]any{n: map[string]any{"type": "string"}}})
		} else {
			text, err = jsonedit.Set(text, base+"/parameters/properties"+jsondoc.Pointer(n), map[string]any{"type": "string"})
		}
		if err != nil {
			return nil
		}
		if cur = parsed(text); cur == nil {
			return nil
		}
	}
	return &codeAction{Title: "Declare parameter " + strings.Join(quoted(names), ", ") + " in parameters.properties", Edit: editOf(w, text)}
}

// pinTypeID pins a chain node's typeId to the version of the dependency
// that provides it: the lowest version the pack's dependencies range
// admits, or the version of that pack when it is in the workspace.
func (s *Server) pinTypeID(w *view, pointer string) *codeAction {
	n := w.jd.Lookup(pointer)
	if n == nil || n.Kind != jsondoc.String || strings.Contains(n.Str, "@") {
		return nil
	}
	version := ""
	if deps := w.jd.Lookup("/dependencies"); deps != nil && deps.Kind == jsondoc.Object {
		for _, m := range deps.Members {
			if strings.HasPrefix(n.Str, m.Key+".") {
				version = lowestVersion(m.Value.Text())
				for _, pj := range s.workspacePacks(w.doc.path) {
					if pj.Root.Get("name").Text() == m.Key && pj.Root.Get("version").Text() != "" {
						version = pj.Root.Get("version").Text()
					}
				}
			}
		}
	}
	if version == "" {
		return nil
	}
	b, err := jsonedit.Set(w.doc.text, pointer, n.Str+"@"+version)
	if err != nil {
		return nil
	}
	return &codeAction{Title: fmt.Sprintf("Pin %s@%s", n.Str, version), Edit: editOf(w, b)}
}

var firstVersion = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// lowestVersion is the first MAJOR.MINOR.PATCH of a range such as "^1.2.0"
// or ">=1.2.0 <2.0.0" (the lowest version those admit).
func lowestVersion(r string) string {
	r = strings.TrimSpace(r)
	if strings.HasPrefix(r, "<") || strings.Contains(r, "||") {
		return ""
	}
	return firstVersion.FindString(r)
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// cleanRef writes a file reference the way packref cleans it (OW016).
func cleanRef(w *view, pointer string) *codeAction {
	n := w.jd.Lookup(pointer)
	if n == nil || n.Kind != jsondoc.String {
		return nil
	}
	_, err := packref.Path(n.Str)
	var pe *packref.Error
	if !errors.As(err, &pe) || pe.Code != packref.CodeUnclean || pe.Clean == "" {
		return nil
	}
	b, err := jsonedit.Set(w.doc.text, pointer, pe.Clean)
	if err != nil {
		return nil
	}
	return &codeAction{Title: fmt.Sprintf("Write %q", pe.Clean), Edit: editOf(w, b)}
}

// prefixAgentID renames an agent to <pack name>.<its last segment> (OW003).
func prefixAgentID(w *view, pointer string) *codeAction {
	n := w.jd.Lookup(pointer)
	name := w.jd.Root.Get("name").Text()
	if n == nil || n.Kind != jsondoc.String || name == "" {
		return nil
	}
	suffix := n.Str[strings.LastIndexByte(n.Str, '.')+1:]
	if suffix == "" {
		suffix = "default"
	}
	b, err := jsonedit.Set(w.doc.text, pointer, name+"."+suffix)
	if err != nil {
		return nil
	}
	return &codeAction{Title: fmt.Sprintf("Rename the agent to %q", name+"."+suffix), Edit: editOf(w, b)}
}
