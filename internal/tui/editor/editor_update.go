package editor

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/tui"
)

// Update handles the editor's messages and keys.
func (e *editor) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case validateTickMsg:
		if msg.gen == e.gen {
			return e, e.validateNow()
		}
	case problemsMsg:
		if msg.gen == e.gen {
			e.setProblems(msg.problems)
		}
	case fieldInfoMsg:
		e.info[msg.ptr] = msg.info
		if e.focus == focusEdit && msg.ptr == e.inputPtr {
			e.input.SetSuggestions(msg.info.Enum)
		}
	case fieldCheckMsg:
		if msg.seq == e.checkSeq {
			e.checks = msg.problems
		}
	case savedMsg:
		if msg.err != nil {
			e.status = "save failed: " + msg.err.Error()
			return e, nil
		}
		e.saved = msg.data
		e.status = "saved " + e.path
		if msg.quit {
			return e, tea.Quit
		}
	case casesMsg:
		e.cases = &msg
		e.status = ""
		if n := len(msg.lines); n > 0 {
			e.status = "cases of " + msg.node + ": " + termsafe.String(msg.lines[n-1])
		}
	case tui.QuitMsg:
		return e, tea.Quit
	case externalDoneMsg:
		return e, e.externalDone(msg)
	case tea.MouseClickMsg:
		return e, e.click(msg)
	case tea.MouseWheelMsg:
		if e.focus == focusTree {
			switch msg.Button {
			case tea.MouseWheelUp:
				e.cursor = max(e.cursor-3, 0)
			case tea.MouseWheelDown:
				e.cursor = min(e.cursor+3, max(len(e.rows)-1, 0))
			}
			return e, e.wantInfo()
		}
	case tea.KeyPressMsg:
		switch e.focus {
		case focusEdit, focusAddKey, focusSearch:
			return e, e.updateInput(msg)
		case focusProblems:
			return e, e.updateProblems(msg)
		}
		return e, e.updateTree(msg)
	}
	return e, nil
}

func (e *editor) updateTree(k tea.KeyPressMsg) tea.Cmd {
	keys := e.ctx.Keys
	e.status = ""
	if e.expansion && (key.Matches(k, keys.Expansion) || key.Matches(k, keys.Cancel)) {
		e.expansion = false // the key, or esc, goes back to the field
		return nil
	}
	switch {
	case key.Matches(k, keys.Expansion) && kinds.Expands(e.kind):
		e.expansion = true
		return nil
	case key.Matches(k, keys.Up):
		e.cursor--
	case key.Matches(k, keys.Down):
		e.cursor++
	case key.Matches(k, keys.PageUp):
		e.cursor -= e.treeHeight()
	case key.Matches(k, keys.PageDown):
		e.cursor += e.treeHeight()
	case key.Matches(k, keys.Top):
		e.cursor = 0
	case key.Matches(k, keys.Bottom):
		e.cursor = len(e.rows) - 1
	case key.Matches(k, keys.Expand):
		if r, ok := e.current(); ok && isContainer(r.node) {
			e.expanded[r.ptr] = true
			e.rebuild()
		}
	case key.Matches(k, keys.Collapse):
		e.collapse()
	case key.Matches(k, keys.Edit):
		return e.startEdit()
	case key.Matches(k, keys.External):
		if r, ok := e.current(); ok && r.node.Kind == jsondoc.String {
			return e.editExternal(r.ptr, r.node.Str)
		}
	case key.Matches(k, keys.Add):
		return e.startAdd()
	case key.Matches(k, keys.Remove):
		return e.remove()
	case key.Matches(k, keys.Undo):
		return e.undoLast()
	case key.Matches(k, keys.Redo):
		return e.redoLast()
	case key.Matches(k, keys.Save):
		if e.sealed && !e.saveAnyway && e.dirty() {
			e.saveAnyway = true
			e.status = "not saved: the registry would refuse this version manifest; ctrl+s again saves anyway"
			return nil
		}
		return saveCmd(e.path, e.saved, e.src, false)
	case key.Matches(k, keys.Search):
		e.startInput(focusSearch, "find: ", "", "")
		return nil
	case key.Matches(k, keys.Problems):
		if len(e.problems.Items) > 0 {
			e.focus = focusProblems
		}
	case key.Matches(k, keys.Test):
		return e.runCases()
	case key.Matches(k, keys.Quit):
		if d := e.ConfirmQuit(); d != nil {
			return tui.Push(d)
		}
		return tea.Quit
	}
	e.cursor = min(max(e.cursor, 0), max(len(e.rows)-1, 0))
	return e.wantInfo()
}

func isContainer(n *jsondoc.Node) bool {
	return n != nil && (n.Kind == jsondoc.Object || n.Kind == jsondoc.Array)
}

// collapse closes the current container, or moves to the parent row.
func (e *editor) collapse() {
	r, ok := e.current()
	if !ok {
		return
	}
	if isContainer(r.node) && e.expanded[r.ptr] {
		delete(e.expanded, r.ptr)
		e.rebuild()
		return
	}
	if p, _ := parent(r.ptr); p != "" {
		e.moveTo(p)
	}
}

func (e *editor) updateProblems(k tea.KeyPressMsg) tea.Cmd {
	keys := e.ctx.Keys
	switch {
	case key.Matches(k, keys.Up):
		e.problems.Move(-1)
	case key.Matches(k, keys.Down):
		e.problems.Move(1)
	case key.Matches(k, keys.Whole):
		e.whole = !e.whole
	case key.Matches(k, keys.Problems), key.Matches(k, keys.Cancel):
		e.focus, e.whole = focusTree, false
	case key.Matches(k, keys.Accept):
		if p, ok := e.problems.Selected(); ok && p.File == "" {
			e.moveTo(p.Pointer)
			e.focus, e.whole = focusTree, false
			return e.wantInfo()
		}
	}
	return nil
}

func (e *editor) undoLast() tea.Cmd {
	if len(e.undo) == 0 {
		e.status = "nothing to undo"
		return nil
	}
	u := e.undo[len(e.undo)-1]
	doc, err := jsondoc.Parse(u.src)
	if err != nil {
		return nil
	}
	cur, _ := e.current()
	e.undo = e.undo[:len(e.undo)-1]
	e.redo = append(e.redo, undoStep{src: e.src, cursor: cur.ptr})
	e.status = "undone (U redoes)"
	return e.setDoc(u.src, doc, u.cursor)
}

// redoLast makes again the change undo took back last.
func (e *editor) redoLast() tea.Cmd {
	if len(e.redo) == 0 {
		e.status = "nothing to redo"
		return nil
	}
	r := e.redo[len(e.redo)-1]
	doc, err := jsondoc.Parse(r.src)
	if err != nil {
		return nil
	}
	cur, _ := e.current()
	e.redo = e.redo[:len(e.redo)-1]
	e.undo = append(e.undo, undoStep{src: e.src, cursor: cur.ptr})
	e.status = "redone"
	return e.setDoc(r.src, doc, r.cursor)
}

// remove deletes the member or item under the cursor.
func (e *editor) remove() tea.Cmd {
	r, ok := e.current()
	if !ok {
		return nil
	}
	out, err := patch.Remove(e.src, r.ptr)
	if err != nil {
		e.status = "cannot remove " + r.ptr + ": " + err.Error()
		return nil
	}
	next := r.ptr
	if e.cursor+1 >= len(e.rows) || e.rows[e.cursor+1].depth < r.depth {
		next, _ = parent(r.ptr)
		if e.cursor > 0 {
			next = e.rows[e.cursor-1].ptr
		}
	}
	e.status = "removed " + r.ptr
	return e.apply(out, next)
}

// click selects the tree row or problem under the mouse (the mouse is
// optional: every action has a key). A click on the selected row opens it.
func (e *editor) click(m tea.MouseClickMsg) tea.Cmd {
	if m.Button != tea.MouseLeft || e.focus == focusEdit || e.focus == focusAddKey || e.focus == focusSearch {
		return nil
	}
	treeTop, h := 1, e.treeHeight()
	probTop := treeTop + h + 1
	switch {
	case m.Y >= treeTop && m.Y < treeTop+h && m.X < e.ctx.Width*11/20:
		i := e.offset + m.Y - treeTop
		if i >= len(e.rows) {
			return nil
		}
		e.focus = focusTree
		if i == e.cursor {
			return e.startEdit()
		}
		e.cursor = i
		return e.wantInfo()
	case m.Y >= probTop && m.Y < probTop+problemRows:
		i := e.problems.Offset() + m.Y - probTop
		if i < len(e.problems.Items) {
			e.problems.Cursor = i
			if p := e.problems.Items[i]; p.File == "" {
				e.moveTo(p.Pointer)
				e.focus = focusTree
				return e.wantInfo()
			}
		}
	}
	return nil
}
