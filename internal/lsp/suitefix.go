package lsp

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"go.lsp.dev/uri"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/packref"
)

// fitSuite answers OW011's cross-checks, reported on an agent's
// evalSuiteRef (message says which): it edits the suite file, not the
// pack.json, to target the agent ("targets agent": set targetAgentId) or to
// allow its modelClass ("allows models": add it to allowedModels).
func (s *Server) fitSuite(w *view, pointer, message string) *codeAction {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) != 3 || toks[0] != "agents" || toks[2] != "evalSuiteRef" {
		return nil
	}
	agent := w.jd.Lookup("/agents/" + toks[1])
	ref := agent.Get("evalSuiteRef")
	if ref == nil || ref.Kind != jsondoc.String {
		return nil
	}
	p, err := packref.Path(ref.Str)
	if err != nil || p == "" {
		return nil
	}
	fsys, ok := s.packFS(w.doc.path)
	if !ok {
		return nil
	}
	before, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil
	}
	suite := parsed(before)
	if suite == nil || suite.Root.Kind != jsondoc.Object {
		return nil
	}
	after, title := before, ""
	switch {
	case strings.Contains(message, "targets agent"):
		id := agent.Get("agentId").Text()
		if id == "" || suite.Root.Get("targetAgentId").Text() == id {
			return nil
		}
		after, err = jsonedit.Set(before, "/targetAgentId", id)
		title = fmt.Sprintf("Set targetAgentId in %s to %q", p, id)
	case strings.Contains(message, "allows models"):
		mc := agent.Get("modelClass").Text()
		if mc == "" || suite.Root.Get("allowedModels") == nil {
			return nil
		}
		after, err = jsonedit.Append(before, "/allowedModels", mc)
		title = fmt.Sprintf("Add %q to allowedModels in %s", mc, p)
	default:
		return nil
	}
	if err != nil {
		return nil
	}
	target := filepath.Join(filepath.Dir(w.doc.path), filepath.FromSlash(p))
	if !within(filepath.Dir(w.doc.path), target) {
		return nil
	}
	u, version := uri.File(target), (*int32)(nil)
	if d := s.docs.get(target); d != nil {
		v := d.version
		u, version = d.uri, &v
	}
	return &codeAction{Title: title, Edit: fileEdit(u, version, before, after)}
}
