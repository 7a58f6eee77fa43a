package validate

import (
	"fmt"

	"github.com/openwop/wopkit/internal/jsondoc"
	placeholders "github.com/openwop/wopkit/internal/placeholder"
)

// PlaceholderRule is the id of the rule that warns of a value a scaffold
// wrote for the author to replace: the scaffold's own checks leave it to
// the review, which lists those values as warnings.
const PlaceholderRule = "PH001"

// checkScaffoldPlaceholders warns at every string member that still holds one of
// the values wopkit's scaffolds write for the author to replace (the list
// is internal/placeholder's), with Options.Placeholders.
func checkScaffoldPlaceholders(c *lintCtx) {
	if !c.opts.Placeholders {
		return
	}
	var walk func(ptr string, toks []string, n *jsondoc.Node)
	walk = func(ptr string, toks []string, n *jsondoc.Node) {
		switch n.Kind {
		case jsondoc.Object:
			for _, m := range n.Members {
				walk(jsondoc.Child(ptr, m.Key), append(toks[:len(toks):len(toks)], m.Key), m.Value)
			}
		case jsondoc.Array:
			for i, it := range n.Items {
				walk(jsondoc.Index(ptr, i), append(toks[:len(toks):len(toks)], fmt.Sprint(i)), it)
			}
		case jsondoc.String:
			if p, ok := placeholders.Find(toks, n.Str); ok {
				c.report(ptr, false, fmt.Sprintf("%q is a placeholder: %s, which wopkit new writes to be replaced", n.Str, p.What), p.Fix)
			}
		}
	}
	walk("", nil, c.doc.Root)
}
