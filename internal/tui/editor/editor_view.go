package editor

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/openwop/wopkit/internal/chainexp"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/styles"
	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/words"
)

// wholeProblem is a problem as the detail pane shows it whole: its
// severity and place, its message and hint, wrapped (the list cuts it).
func wholeProblem(st styles.Styles, p validate.Problem, width int) string {
	where := p.Pointer
	if where == "" {
		where = "/"
	}
	if p.File != "" {
		where = p.File + " " + where
	}
	out := st.Label.Render(string(p.Severity)+" "+where) + "\n" + widgets.Wrap(p.Message, width)
	if p.Hint != "" {
		out += "\n" + st.Dim.Render(widgets.Wrap(p.Hint, width))
	}
	if p.Rule != "" {
		out += "\n" + st.Dim.Render("rule "+p.Rule)
	}
	return out
}

// problemRows is the height of the problem list.
const problemRows = 4

// treeHeight is the number of tree rows that fit.
func (e *editor) treeHeight() int {
	// screen = header + body + problems title + problems; the router adds help.
	return max(e.ctx.Height-len(e.headLines())-1-1-problemRows-e.inputHeight()-e.sealedRows(), 3)
}

// headLines is the header (file, kind, modified, status), with a status
// too long for the line on lines of its own below (at most two), so that
// no message is cut.
func (e *editor) headLines() []string {
	header := "wopkit edit " + e.name
	if e.kind != "" {
		if sp := e.spec(); sp == kinds.V2 { // v1 is what a document that says nothing is
			header += " (" + string(e.kind) + ", " + string(sp) + ")"
		} else {
			header += " (" + string(e.kind) + ")"
		}
	}
	if e.dirty() {
		header += " · modified"
	}
	if e.status == "" {
		return []string{header}
	}
	if w := e.ctx.Width; lipgloss.Width(header+" · "+e.status) <= w || w < 20 {
		return []string{header + " · " + e.status}
	}
	ls := strings.Split(widgets.Wrap(e.status, e.ctx.Width), "\n")
	return append([]string{header}, ls[:min(len(ls), 2)]...)
}

// sealedRows is the warning line of a registry version manifest.
func (e *editor) sealedRows() int {
	if e.sealed {
		return len(e.sealedLines())
	}
	return 0
}

// sealedLines is the warning, wrapped to the width (at most 3 lines).
func (e *editor) sealedLines() []string {
	ls := strings.Split(widgets.Wrap("! "+sealedWarning, max(e.ctx.Width, 20)), "\n")
	return ls[:min(len(ls), 3)]
}

// sealedWarning says why a registry version manifest is not edited by hand.
const sealedWarning = "a registry version manifest: its integrity and signature belong to a published release, and a hand edit breaks them; change the pack and run wopkit pack or publish instead"

func (e *editor) inputHeight() int {
	if e.focus == focusEdit || e.focus == focusAddKey || e.focus == focusSearch {
		return 1 + len(e.noteLines())
	}
	return 0
}

// noteLines is the note under the prompt wrapped to the width, at most
// three lines: a refusal is read whole, not cut at the edge.
func (e *editor) noteLines() []string {
	ls := strings.Split(widgets.Wrap(e.inputNote(), max(e.ctx.Width, 20)), "\n")
	return ls[:min(len(ls), 3)]
}

// View draws header, tree and detail side by side, the prompt when one is
// open, and the problem list.
func (e *editor) View() string {
	st := e.ctx.Styles
	w := e.ctx.Width
	h := e.treeHeight()
	leftW := w * 11 / 20
	rightW := w - leftW

	head := e.headLines()
	header := st.Title.Render("wopkit edit") + strings.TrimPrefix(head[0], "wopkit edit")

	tree := widgets.Fit(e.treeView(leftW, h), leftW, h)
	detail := widgets.Fit(e.detailView(rightW-2, h), rightW-2, h)
	body := lipgloss.JoinHorizontal(lipgloss.Top, tree, st.Pane.Render(detail))

	var b strings.Builder
	b.WriteString(widgets.Fit(header, w, 1))
	b.WriteByte('\n')
	for _, l := range head[1:] { // a status too long for the header line
		b.WriteString(widgets.Fit(l, w, 1))
		b.WriteByte('\n')
	}
	for _, l := range e.sealedLines() {
		if !e.sealed {
			break
		}
		b.WriteString(widgets.Fit(st.Error.Render(l), w, 1))
		b.WriteByte('\n')
	}
	b.WriteString(body)
	if n := e.inputHeight(); n > 0 {
		b.WriteByte('\n')
		b.WriteString(widgets.Fit(e.input.View(), w, 1))
		b.WriteByte('\n')
		for i, l := range e.noteLines() {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(widgets.Fit(l, w, 1))
		}
	}
	errs, warns := e.problems.Counts()
	b.WriteByte('\n')
	b.WriteString(widgets.Fit(st.Label.Render("Problems: "+words.Plural(errs, "error")+", "+words.Plural(warns, "warning")), w, 1))
	b.WriteByte('\n')
	if cl := e.casesLines(); len(cl) > 0 && w >= 60 {
		// the cases' result beside the problems list
		pw := w * 11 / 20
		list := e.problems.View(st, pw, problemRows, e.focus == focusProblems)
		side := widgets.Fit(strings.Join(cl, "\n"), w-pw-2, problemRows)
		b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, widgets.Fit(list, pw, problemRows), "  ", side))
		return b.String()
	}
	b.WriteString(e.problems.View(st, w, problemRows, e.focus == focusProblems))
	return b.String() // a narrow screen: the status line says the count
}

// inputNote is the line under the prompt: the first check failure, or what
// enter will do.
func (e *editor) inputNote() string {
	st := e.ctx.Styles
	switch {
	case e.inputErr != "":
		return st.Error.Render("error: " + e.inputErr)
	case len(e.checks) > 0:
		msg := "error: " + e.checks[0].Message
		if e.checks[0].Hint != "" {
			msg += ": " + e.checks[0].Hint
		}
		return st.Error.Render(msg)
	case e.focus == focusEdit:
		return st.OK.Render("ok") + st.Dim.Render(" · enter to set, esc to cancel")
	case e.focus == focusSearch:
		return st.Dim.Render("part of a field name or a pointer such as /agents/0/persona")
	}
	return st.Dim.Render("enter to add, esc to cancel")
}

func (e *editor) treeView(width, height int) string {
	st := e.ctx.Styles
	if e.cursor < e.offset {
		e.offset = e.cursor
	}
	if e.cursor >= e.offset+height {
		e.offset = e.cursor - height + 1
	}
	var b strings.Builder
	for i := e.offset; i < len(e.rows) && i < e.offset+height; i++ {
		r := e.rows[i]
		sel := i == e.cursor && e.focus != focusProblems
		mark := "  "
		if sel {
			mark = "> "
		}
		fold := "  "
		if isContainer(r.node) {
			fold = "+ "
			if e.expanded[r.ptr] {
				fold = "- "
			}
		}
		flag := " "
		switch e.marks[r.ptr] {
		case validate.Error:
			flag = "!"
		case validate.Warning:
			flag = "?"
		}
		line := mark + flag + strings.Repeat("  ", r.depth) + fold + r.label + ": "
		switch {
		case sel:
			line = st.Selected.Render(line + r.preview)
		case flag == "!":
			line = st.Error.Render(line) + st.Dim.Render(r.preview)
		default:
			line = line + st.Dim.Render(r.preview)
		}
		if i > e.offset {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}

// detailView shows the selected field: its pointer, type, the schema's help
// and the problems found at it.
func (e *editor) detailView(width, height int) string {
	st := e.ctx.Styles
	if p, ok := e.problems.Selected(); ok && e.whole && e.focus == focusProblems {
		return wholeProblem(st, p, width)
	}
	if e.expansion {
		return e.expansionView(width)
	}
	r, ok := e.current()
	if !ok {
		return st.Dim.Render("empty document")
	}
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line(st.Label.Render(r.ptr))
	fi, known := e.info[r.ptr]
	typ := r.node.Kind.String()
	if fi.Type != "" && fi.Type != typ {
		typ += " (schema: " + fi.Type + ")"
	}
	req := ""
	if fi.Required {
		req = ", required"
	}
	line("type: " + typ + req)
	switch {
	case !known:
		line(st.Dim.Render("…"))
	case fi.SchemaURL == "":
		line(st.Dim.Render("not described by the schema"))
	default:
		if fi.Title != "" {
			line(widgets.Wrap(fi.Title, width))
		}
		if fi.Description != "" {
			line(st.Dim.Render(widgets.Wrap(fi.Description, width)))
		}
		if len(fi.Enum) > 0 {
			line(widgets.Wrap("one of: "+strings.Join(fi.Enum, ", "), width))
		}
		if fi.PatternHelp != "" {
			line(widgets.Wrap("form: "+fi.PatternHelp, width))
		} else if fi.Pattern != "" {
			line(widgets.Wrap("pattern: "+fi.Pattern, width))
		}
		if fi.Format != "" {
			line("format: " + fi.Format)
		}
	}
	for _, p := range e.problems.Items {
		if p.File == "" && p.Pointer == r.ptr {
			style := st.Warning
			if p.Severity == validate.Error {
				style = st.Error
			}
			line(style.Render(widgets.Wrap(string(p.Severity)+": "+p.Message, width)))
			if p.Hint != "" {
				line(widgets.Wrap("hint: "+p.Hint, width))
			}
		}
	}
	if r.node.Kind == jsondoc.String && len(r.node.Str) > 40 {
		line("")
		line(widgets.Wrap(r.node.Str, width))
	}
	return b.String()
}

// Help lists the keys that work in the current focus.
func (e *editor) Help() []key.Binding {
	k := e.ctx.Keys
	switch e.focus {
	case focusEdit:
		return []key.Binding{k.Accept, k.Cancel, k.Complete}
	case focusAddKey, focusSearch:
		return []key.Binding{k.Accept, k.Cancel}
	case focusProblems:
		return []key.Binding{k.Up, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go to field")), k.Whole, k.Problems}
	}
	out := []key.Binding{k.Up, k.Edit, k.Save, k.Quit}
	if kinds.Expands(e.kind) {
		out = append(out, k.Expansion)
	}
	out = append(out, k.Search, k.Problems, k.Add, k.Remove, k.Undo, k.Redo)
	if e.focusedNode() != "" {
		out = append(out, k.Test)
	}
	return out
}

// expansionView is the detail pane of the expansion key: the chain under
// the cursor (every chain when it is on none), as the document now stands,
// expanded with its default parameters (chainexp.Preview: the host's
// typeIds are not known here, so none is refused).
func (e *editor) expansionView(width int) string {
	st := e.ctx.Styles
	chainID := ""
	if r, ok := e.current(); ok {
		if toks := jsondoc.SplitPointer(r.ptr); len(toks) >= 2 && toks[0] == "chains" {
			chainID = e.doc.Lookup("/chains/" + toks[1]).Get("chainId").Text()
		}
	}
	title := "expansion with the default parameters (x or esc: back)"
	var b strings.Builder
	b.WriteString(st.Label.Render(title) + "\n")
	for _, l := range strings.Split(strings.TrimRight(chainexp.Preview(e.src, chainID), "\n"), "\n") {
		b.WriteString(widgets.Fit(l, width, 1) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
