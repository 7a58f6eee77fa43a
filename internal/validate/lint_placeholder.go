package validate

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

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
	if c.fsys == nil {
		return
	}
	// The template system prompt lives in the file systemPromptRef names.
	for _, a := range c.items("/agents") {
		ref := a.n.Get("systemPromptRef")
		if ref == nil || ref.Kind != jsondoc.String {
			continue
		}
		data, err := readPackFile(c.fsys, ref.Str, 64<<10)
		if err == nil && placeholders.IsAgentSystemPrompt(string(data)) {
			c.report(jsondoc.Child(a.ptr(), "systemPromptRef"), false,
				fmt.Sprintf("%s holds the template system prompt of a new agent, which wopkit new writes to be replaced", ref.Str),
				"write the agent's own instructions in "+ref.Str)
		}
	}
}

// readPackFile reads a pack file of at most max bytes (more: not read).
func readPackFile(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(strings.TrimPrefix(path.Clean(name), "./"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil || int64(len(data)) > max {
		return nil, fs.ErrInvalid
	}
	return data, nil
}
