package validate

import (
	"fmt"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/packref"
)

// checkShippedTools validates the tool install manifest a pack ships for
// each tool its agents name (toolAllowlist <scope>:<tool-id>, the file
// tools/<tool-id>.tool.json: packref.ToolFile) as a document of its own.
// A named tool the pack does not ship is the host's to provide: no problem.
func checkShippedTools(c *lintCtx) {
	validated := map[string]bool{}
	for _, a := range c.agents() {
		for _, t := range childItems(a, "toolAllowlist") {
			if t.n.Kind != jsondoc.String {
				continue
			}
			id := packref.ToolID(t.n.Str)
			if id == "" {
				continue
			}
			p, err := packref.Path(packref.ToolFile(id))
			if err != nil || p == "" || validated[p] {
				continue
			}
			f := c.readPackFile(p)
			if f.state != fileOK {
				continue
			}
			validated[p] = true
			fr := c.v.file(c.displayRef(p), f.data, kinds.ToolManifest, c.spec)
			c.files = append(c.files, fr)
			if n := len(fr.Errors); n > 0 {
				c.report(t.ptr(), false, fmt.Sprintf("tool %q ships in %s, which is not a valid tool install manifest: %d error(s), listed under %s", t.n.Str, p, n, fr.Path),
					"fix the tool manifest; `wopkit validate "+fr.Path+"` checks it alone")
			}
		}
	}
}
