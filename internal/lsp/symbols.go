package lsp

import (
	"context"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// idKeys name an item of a document's lists, in the order looked for: the
// pack kinds' id keys (the kind table), then an eval task's, a suite's, a
// tool action's and the generic ones.
func idKeys() []string {
	var out []string
	for _, c := range kinds.Contents() {
		if !c.Object && !slices.Contains(out, c.IDKey) {
			out = append(out, c.IDKey)
		}
	}
	return append(out, "taskId", "suiteId", "id", "name", "resource")
}

// symbolKind is the symbol kind of the items of a list an author looks
// for: the kind table's for a pack's entries, an eval suite's tasks and a
// tool manifest's actions their own.
func symbolKind(member string) (protocol.SymbolKind, bool) {
	switch member {
	case "tasks":
		return protocol.SymbolKindEvent, true
	case "actions":
		return protocol.SymbolKindMethod, true
	}
	if c, ok := kinds.ContentOf(member); ok && !c.Object {
		return protocol.SymbolKind(c.Symbol), true
	}
	return 0, false
}

// DocumentSymbol outlines the document: each top-level list of objects
// (nodes, agents, chains and their dag nodes, prompt templates, cards,
// form templates, artifact types, eval tasks, tool actions) with its items
// named by their id.
func (s *Server) DocumentSymbol(_ context.Context, p *protocol.DocumentSymbolParams) ([]any, error) {
	w := s.viewOf(p.TextDocument.URI)
	if w == nil || w.jd == nil || w.jd.Root.Kind != jsondoc.Object {
		return []any{}, nil
	}
	out := []any{}
	for i := range w.jd.Root.Members {
		m := &w.jd.Root.Members[i]
		if m.Value.Kind != jsondoc.Array || len(m.Value.Items) == 0 || m.Value.Items[0].Kind != jsondoc.Object {
			continue
		}
		kind, ok := symbolKind(m.Key)
		if !ok {
			kind = protocol.SymbolKindObject
		}
		list := protocol.DocumentSymbol{Name: m.Key, Kind: protocol.SymbolKindArray,
			Range: w.ls.rangeOf(m.KeyStart, m.Value.End), SelectionRange: w.ls.rangeOf(m.KeyStart, m.KeyEnd)}
		for j, it := range m.Value.Items {
			sym := itemSymbol(w, it, j, kind)
			if m.Key == "chains" {
				for k, n := range itemsOf(it.Get("dag").Get("nodes")) {
					child := itemSymbol(w, n, k, protocol.SymbolKindFunction)
					child.Detail = n.Get("typeId").Text()
					sym.Children = append(sym.Children, child)
				}
			}
			list.Children = append(list.Children, sym)
		}
		out = append(out, list)
	}
	return out, nil
}

func itemSymbol(w *view, it *jsondoc.Node, i int, kind protocol.SymbolKind) protocol.DocumentSymbol {
	name, sel := "", w.ls.rangeOf(it.Start, it.Start+1)
	for _, k := range idKeys() {
		if v := it.Get(k); v != nil && v.Kind == jsondoc.String && v.Str != "" {
			name, sel = v.Str, w.ls.rangeOf(v.Start, v.End)
			break
		}
	}
	if name == "" {
		name = "#" + sortKey(i)
	}
	sym := protocol.DocumentSymbol{Name: name, Kind: kind, Range: w.ls.rangeOf(it.Start, it.End), SelectionRange: sel}
	if l := it.Get("label").Text(); l != "" {
		sym.Detail = l
	}
	return sym
}
