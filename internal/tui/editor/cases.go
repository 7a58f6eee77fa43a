package editor

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/run"
	"github.com/openwop/wopkit/internal/termsafe"
)

// casesMsg is the focused node's stored cases, run (the t key).
type casesMsg struct {
	node  string
	lines []string
}

// focusedNode is the typeId of the nodes[] entry the cursor is in, or "".
func (e *editor) focusedNode() string {
	r, ok := e.current()
	if !ok || e.kind != kinds.NodePack || filepath.Base(e.path) != "pack.json" {
		return ""
	}
	toks := jsondoc.SplitPointer(r.ptr)
	if len(toks) < 2 || toks[0] != "nodes" {
		return ""
	}
	i, err := strconv.Atoi(toks[1])
	if err != nil {
		return ""
	}
	n := e.doc.Lookup(jsondoc.Index("/nodes", i) + "/typeId")
	if n == nil || n.Kind != jsondoc.String {
		return ""
	}
	return n.Str
}

// runCases runs the stored cases of the focused node from the files on
// disk (an unsaved edit is not in them: the status says so).
func (e *editor) runCases() tea.Cmd {
	id := e.focusedNode()
	if id == "" {
		e.status = "t runs a node's stored cases: move into one of nodes[] first"
		return nil
	}
	e.status = "running the stored cases of " + id + "…"
	if e.dirty() {
		e.status += " (the saved files: save to run your edits)"
	}
	dir := e.dir
	return func() tea.Msg {
		tr, err := run.TestPack(context.Background(), dir, []string{id})
		if err != nil {
			return casesMsg{node: id, lines: []string{"did not run: " + create.Text(err)}}
		}
		return casesMsg{node: id, lines: tr.Lines()}
	}
}

// casesLines are the last cases' result, beside the problems list.
func (e *editor) casesLines() []string {
	if e.cases == nil {
		return nil
	}
	out := []string{"cases of " + e.cases.node + ":"}
	for _, l := range e.cases.lines {
		out = append(out, termsafe.String(strings.TrimSpace(l)))
	}
	return out
}
