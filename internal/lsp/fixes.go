package lsp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/validate"
)

// The quick fixes still computed here, from the document and the workspace
// (the others are carried by the problem, validate.Problem.Fix: see applyFix).

var paramVar = lazyre.New(`\{\{\s*params\.([A-Za-z_][A-Za-z0-9_]*)`)

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
		if props.Get(n) != nil || slices.Contains(names, n) {
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
				version = validate.LowestVersion(m.Value.Text())
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

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
