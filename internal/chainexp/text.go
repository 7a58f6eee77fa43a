package chainexp

import (
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/termsafe"
)

// maxShown bounds a config or inputs value in the readable form.
const maxShown = 160

// Text is the readable form of an expansion (Run's result): per node its
// old and new id, typeId and name, its config and inputs (cut short),
// then the edges; with a tree, each child workflow after the parent.
// Everything a pack wrote is escaped for a terminal.
func Text(chainID, expansionID string, v *jsvalue.Object) string {
	var sb strings.Builder
	if parent, ok := v.Get("parent"); ok {
		po, _ := parent.(*jsvalue.Object)
		fragmentText(&sb, chainID, expansionID, po, "")
		cv, _ := v.Get("children")
		children, _ := cv.([]any)
		for _, c := range children {
			co, _ := c.(*jsvalue.Object)
			wf, _ := co.Get("childWorkflowId")
			id, _ := co.Get("chainId")
			f, _ := co.Get("fragment")
			fo, _ := f.(*jsvalue.Object)
			fmt.Fprintf(&sb, "\nchild workflow %s (chain %s):\n", safe(wf), safe(id))
			fragmentText(&sb, "", "", fo, "  ")
		}
		if len(children) == 0 {
			sb.WriteString("\nno sub-chains: no child workflows\n")
		}
		return sb.String()
	}
	fragmentText(&sb, chainID, expansionID, v, "")
	return sb.String()
}

func fragmentText(sb *strings.Builder, chainID, expansionID string, f *jsvalue.Object, indent string) {
	nv, _ := f.Get("nodes")
	nodes, _ := nv.([]any)
	ev, _ := f.Get("edges")
	edges, _ := ev.([]any)
	im, _ := f.Get("idMap")
	idMap, _ := im.(*jsvalue.Object)
	if chainID != "" {
		fmt.Fprintf(sb, "%s%s expanded as %s: %s, %s\n", indent, termsafe.String(chainID), termsafe.String(expansionID), plural(len(nodes), "node"), plural(len(edges), "edge"))
	} else {
		fmt.Fprintf(sb, "%s%s, %s\n", indent, plural(len(nodes), "node"), plural(len(edges), "edge"))
	}
	old := map[string]string{}
	if idMap != nil {
		for _, m := range idMap.Members {
			old[jsvalue.JSString(m.Value)] = m.Key
		}
	}
	var caps string
	for _, n := range nodes {
		no, _ := n.(*jsvalue.Object)
		id := jsvalue.JSString(mustGet(no, "id"))
		line := indent + "  " + termsafe.String(old[id]) + " -> " + termsafe.String(id) + "  " + safe(mustGet(no, "typeId"))
		if name, ok := no.Get("name"); ok {
			line += "  " + termsafe.String(string(jsvalue.Encode(name)))
		}
		sb.WriteString(line + "\n")
		for _, k := range []string{"config", "inputs"} {
			if v, ok := no.Get(k); ok {
				fmt.Fprintf(sb, "%s      %-6s %s\n", indent, k, termsafe.String(cut(string(jsvalue.Encode(v)))))
			}
		}
		if c, ok := no.Get("capabilities"); ok {
			caps = jsvalue.JSString(c)
		}
	}
	if len(edges) > 0 {
		fmt.Fprintf(sb, "%s  edges:\n", indent)
	}
	for _, e := range edges {
		eo, _ := e.(*jsvalue.Object)
		line := indent + "    " + safe(mustGet(eo, "from")) + " -> " + safe(mustGet(eo, "to"))
		if r, ok := eo.Get("triggerRule"); ok {
			line += "  triggerRule " + termsafe.String(string(jsvalue.Encode(r)))
		}
		if c, ok := eo.Get("condition"); ok {
			line += "  condition " + termsafe.String(cut(string(jsvalue.Encode(c))))
		}
		sb.WriteString(line + "\n")
	}
	if caps != "" {
		fmt.Fprintf(sb, "%s  capabilities on every node: %s\n", indent, termsafe.String(strings.ReplaceAll(caps, ",", ", ")))
	}
}

func safe(v any) string { return termsafe.String(jsvalue.JSString(v)) }

func cut(s string) string {
	if len(s) <= maxShown {
		return s
	}
	i := maxShown
	for i > 0 && s[i]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		i--
	}
	return s[:i] + "…"
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
