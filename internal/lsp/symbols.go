package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// idKeys name an item of a document's lists, in the order looked for.
var idKeys = []string{"typeId", "agentId", "chainId", "templateId", "cardTypeId", "artifactTypeId", "taskId", "suiteId", "id", "name", "resource"}

// symbolKinds give the lists an author looks for their own symbol kind.
var symbolKinds = map[string]protocol.SymbolKind{
	"nodes": protocol.SymbolKindFunction, "agents": protocol.SymbolKindClass, "chains": protocol.SymbolKindModule,
	"prompts": protocol.SymbolKindString, "templates": protocol.SymbolKindStruct, "cards": protocol.SymbolKindStruct,
	"artifactTypes": protocol.SymbolKindStruct, "tasks": protocol.SymbolKindEvent, "actions": protocol.SymbolKindMethod,
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
		kind, ok := symbolKinds[m.Key]
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
	for _, k := range idKeys {
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
