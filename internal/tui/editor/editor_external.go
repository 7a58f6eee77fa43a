package editor

import (
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/proc"
)

// externalDoneMsg carries a value edited in $EDITOR back to the editor.
type externalDoneMsg struct {
	ptr  string
	text string
	err  error
}

// editorCommand is the author's editor: $VISUAL, else $EDITOR.
func editorCommand() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return f
		}
	}
	return nil
}

// editExternal opens a string value in $EDITOR (multi-line values such as
// an inline system prompt cannot be typed in the one-line prompt) and sets
// it when the editor exits.
func (e *editor) editExternal(ptr, value string) tea.Cmd {
	argv := editorCommand()
	if argv == nil {
		e.status = "set $EDITOR to edit a multi-line value"
		return nil
	}
	f, cleanup, err := atomicfile.TempFile("wopkit-value-*.txt")
	if err != nil {
		e.status = "cannot open an editor: " + err.Error()
		return nil
	}
	name := f.Name()
	_, werr := f.WriteString(value)
	if cerr := f.Close(); werr != nil || cerr != nil {
		cleanup()
		e.status = "cannot open an editor"
		return nil
	}
	c := proc.Editor(argv, name) // started in the temporary folder, not the current one
	return tea.ExecProcess(c, func(err error) tea.Msg {
		defer cleanup()
		if err != nil {
			return externalDoneMsg{ptr: ptr, err: err}
		}
		b, err := os.ReadFile(name)
		return externalDoneMsg{ptr: ptr, text: string(b), err: err}
	})
}

// externalDone applies the value edited in $EDITOR, unless it is unchanged.
func (e *editor) externalDone(m externalDoneMsg) tea.Cmd {
	if m.err != nil {
		e.status = "editor failed: " + m.err.Error()
		return nil
	}
	n := e.doc.Lookup(m.ptr)
	if n == nil {
		return nil
	}
	text := m.text
	if !strings.HasSuffix(n.Str, "\n") { // editors add a final newline
		text = strings.TrimSuffix(text, "\n")
	}
	if text == n.Str {
		e.status = "unchanged"
		return nil
	}
	return e.set(m.ptr, text)
}
