package lsp

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"
	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/untrusted"
)

// Completion offers, at the cursor: the member names the schema allows
// (required ones first, those already present left out), and for a value
// the schema's enum, the pack kinds, SPDX ids for license, the typeIds a
// chain step may reference, the pack's files for a *Ref member, and inside
// "{{" the variables or parameters the template declares.
func (s *Server) Completion(_ context.Context, p *protocol.CompletionParams) (*protocol.CompletionList, error) {
	w := s.viewOf(p.TextDocument.URI)
	if w == nil {
		return nil, nil
	}
	off := w.ls.offset(p.Position)
	c := scanTo(w.doc.text, off)
	if w.jd == nil {
		w.kind, w.spec = s.guessKind(w)
	}
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	if c.atKey {
		list.Items = s.memberItems(w, c, off)
		return list, nil
	}
	if c.inString && strings.LastIndex(c.partial, "{{") > strings.LastIndex(c.partial, "}}") {
		list.Items = templateItems(w, c, off)
		return list, nil
	}
	var vals []valueItem
	ptr := c.valuePointer()
	fi := s.v.FieldFor(w.spec, w.kind, ptr)
	for _, e := range fi.Enum {
		vals = append(vals, valueItem{text: e, detail: "allowed value"})
	}
	key := c.key
	if !c.inObject {
		toks := jsondoc.SplitPointer(c.container)
		if len(toks) > 0 {
			key = toks[len(toks)-1]
		}
	}
	switch {
	case c.inObject && c.container == "" && key == "kind" && kinds.IsPack(w.kind) && len(vals) <= 1:
		vals = nil
		for _, k := range slices.Sorted(slices.Values(kinds.PackNames())) {
			vals = append(vals, valueItem{text: k, detail: "pack kind"})
		}
	case key == "license":
		for _, id := range spdxlicenses.GetLicenses() {
			vals = append(vals, valueItem{text: id, detail: "SPDX license id"})
		}
	case key == "typeId" && strings.HasPrefix(ptr, "/chains/"):
		vals = append(vals, s.chainTypeIDs(w)...)
	case strings.HasSuffix(key, "Ref") || key == "entry":
		vals = append(vals, s.packFiles(w, key)...)
	}
	list.Items = valueItems(w, c, off, vals)
	return list, nil
}

// guessKind names the kind and spec of a document that does not parse
// mid-edit, from its file name and the text's "kind" and "$schema".
func (s *Server) guessKind(w *view) (kinds.Kind, kinds.Spec) {
	kind := kinds.Unknown
	spec := kinds.V1
	text := w.doc.text
	if m := regexp.MustCompile(`"\$schema"\s*:\s*"[^"]*/spec/v2/`).Find(text); m != nil {
		spec = kinds.V2
	}
	if path.Base(w.name) == "pack.json" {
		kind = kinds.NodePack
		if m := regexp.MustCompile(`"kind"\s*:\s*"([a-z-]+)"`).FindSubmatch(text); m != nil {
			if root, err := jsondoc.Parse([]byte(`{"kind":"` + string(m[1]) + `"}`)); err == nil {
				kind = kinds.Detect("pack.json", root.Root)
			}
		}
		if regexp.MustCompile(`"openwop"\s*:\s*"[^"]*<\s*v?([3-9]|\d{2,})\.0\.0`).Match(text) {
			spec = kinds.V2
		}
	}
	return kind, spec
}

// memberItems are the member names the schema allows in the object at the
// cursor, required first, without those it already has.
func (s *Server) memberItems(w *view, c cursor, off int) []protocol.CompletionItem {
	have := map[string]bool{}
	if w.jd != nil {
		if n := w.jd.Lookup(c.container); n != nil {
			for _, m := range n.Members {
				have[m.Key] = true
			}
		}
	}
	start, end := off, off
	suffix := ": "
	if c.inString {
		start, end = c.strStart, stringEnd(w.doc.text, off)
		if rest := strings.TrimLeft(string(w.doc.text[end:min(end+64, len(w.doc.text))]), " \t"); strings.HasPrefix(rest, ":") {
			suffix = ""
		}
	}
	r := w.ls.rangeOf(start, end)
	var items []protocol.CompletionItem
	for i, m := range s.v.Members(w.spec, w.kind, c.container) {
		if have[m.Name] && m.Name != c.partial {
			continue
		}
		detail := m.Type
		if m.Required {
			detail = strings.TrimSpace("required " + detail)
		}
		text := quote(m.Name)
		items = append(items, protocol.CompletionItem{
			Label: m.Name, Kind: protocol.CompletionItemKindProperty, Detail: detail,
			Documentation: docOf(m.Description), SortText: sortKey(i), FilterText: text,
			TextEdit: &protocol.TextEdit{Range: r, NewText: text + suffix},
		})
	}
	return items
}

// stringEnd is the offset just past the closing quote of the string the
// cursor is in (the cursor itself when the string is unterminated on its
// line).
func stringEnd(src []byte, off int) int {
	for i := off; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		case '\n':
			return off
		}
	}
	return off
}

type valueItem struct {
	text, detail, doc string
}

func valueItems(w *view, c cursor, off int, vals []valueItem) []protocol.CompletionItem {
	start, end := off, off
	if c.inString {
		start, end = c.strStart, stringEnd(w.doc.text, off)
	}
	r := w.ls.rangeOf(start, end)
	seen := map[string]bool{}
	var items []protocol.CompletionItem
	for i, v := range vals {
		if seen[v.text] {
			continue
		}
		seen[v.text] = true
		text := quote(v.text)
		items = append(items, protocol.CompletionItem{Label: v.text, Kind: protocol.CompletionItemKindValue, Detail: v.detail,
			Documentation: docOf(v.doc), SortText: sortKey(i), FilterText: text, TextEdit: &protocol.TextEdit{Range: r, NewText: text}})
	}
	return items
}

func docOf(s string) any {
	if s == "" {
		return nil
	}
	return protocol.MarkupContent{Kind: protocol.Markdown, Value: s}
}

func sortKey(i int) string {
	const digits = "0123456789"
	return string([]byte{digits[i/1000%10], digits[i/100%10], digits[i/10%10], digits[i%10]})
}

func quote(s string) string {
	b, _ := jsonMarshal(s)
	return string(b)
}

// chainTypeIDs are the typeIds a chain step may name: the pack's own nodes
// and, for each of its dependencies found in the workspace, that pack's
// nodes pinned to its version.
func (s *Server) chainTypeIDs(w *view) []valueItem {
	var out []valueItem
	if w.jd == nil {
		return nil
	}
	for _, n := range itemsOf(w.jd.Lookup("/nodes")) {
		if id := n.Get("typeId").Text(); id != "" {
			out = append(out, valueItem{text: id, detail: "a node of this pack"})
		}
	}
	deps := w.jd.Lookup("/dependencies")
	if deps == nil || deps.Kind != jsondoc.Object {
		return out
	}
	want := map[string]bool{}
	for _, m := range deps.Members {
		want[m.Key] = true
	}
	for _, pj := range s.workspacePacks(w.doc.path) {
		name := pj.Root.Get("name").Text()
		if !want[name] {
			continue
		}
		version := pj.Root.Get("version").Text()
		for _, n := range itemsOf(pj.Lookup("/nodes")) {
			if id := n.Get("typeId").Text(); id != "" {
				t := id
				if version != "" {
					t += "@" + version
				}
				out = append(out, valueItem{text: t, detail: "a node of dependency " + name})
			}
		}
		delete(want, name)
	}
	for name := range want {
		out = append(out, valueItem{text: name + ".", detail: "dependency (its pack is not in the workspace)"})
	}
	return out
}

// maxWalk bounds the files a completion lists or looks at.
const maxWalk = 2000

// workspacePacks reads the pack.json files of the workspace root that holds
// path, at most three directories deep, through internal/untrusted.
func (s *Server) workspacePacks(docPath string) []*jsondoc.Doc {
	root, ok := s.rootOf(docPath)
	if !ok {
		return nil
	}
	fsys, err := untrusted.DirFS(root)
	if err != nil {
		return nil
	}
	var out []*jsondoc.Doc
	seen := 0
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		seen++
		if err != nil || seen > maxWalk {
			return fs.SkipDir
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || strings.Count(p, "/") >= 3) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() != "pack.json" || filepath.Join(root, filepath.FromSlash(p)) == docPath {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil
		}
		if doc, err := jsondoc.Parse(b); err == nil {
			out = append(out, doc)
		}
		return nil
	})
	return out
}

// packFiles lists the pack's files a *Ref member may name: schemas for a
// *SchemaRef, prompts for systemPromptRef, JSON for the others.
func (s *Server) packFiles(w *view, key string) []valueItem {
	fsys, ok := s.packFS(w.doc.path)
	if !ok || fsys == nil {
		return nil
	}
	var out []valueItem
	seen := 0
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		seen++
		if err != nil || seen > maxWalk {
			return fs.SkipDir
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		ext := path.Ext(p)
		switch {
		case p == "pack.json":
			return nil
		case key == "systemPromptRef" && ext != ".md" && ext != ".txt":
			return nil
		case key != "systemPromptRef" && key != "entry" && ext != ".json":
			return nil
		}
		out = append(out, valueItem{text: p, detail: "file of the pack"})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].text < out[j].text })
	return out
}

// templateItems are what may follow "{{" in a template: a prompt's
// declared variables, a chain's parameters (params.<name>), a card's slots.
func templateItems(w *view, c cursor, off int) []protocol.CompletionItem {
	if w.jd == nil {
		return nil
	}
	ptr := c.valuePointer()
	var names []string
	toks := jsondoc.SplitPointer(ptr)
	switch {
	case len(toks) >= 2 && toks[0] == "prompts":
		for _, v := range itemsOf(w.jd.Lookup("/prompts/" + toks[1] + "/variables")) {
			if n := v.Get("name").Text(); n != "" {
				names = append(names, n)
			}
		}
	case len(toks) >= 2 && toks[0] == "chains":
		if props := w.jd.Lookup("/chains/" + toks[1] + "/parameters/properties"); props != nil {
			for _, m := range props.Members {
				names = append(names, "params."+m.Key)
			}
		}
	case len(toks) >= 2 && toks[0] == "cards":
		if pm := w.jd.Lookup("/cards/" + toks[1] + "/prompt/placeholderMapping"); pm != nil {
			for _, m := range pm.Members {
				names = append(names, m.Key)
			}
		}
	}
	// Replace what was typed after the last "{{".
	start := c.strStart + 1 + strings.LastIndex(c.partial, "{{") + 2
	r := w.ls.rangeOf(start, off)
	var items []protocol.CompletionItem
	for i, n := range names {
		items = append(items, protocol.CompletionItem{Label: n, Kind: protocol.CompletionItemKindVariable, Detail: "declared in the template",
			SortText: sortKey(i), TextEdit: &protocol.TextEdit{Range: r, NewText: n + "}}"}})
	}
	return items
}
