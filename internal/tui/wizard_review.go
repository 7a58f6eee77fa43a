package tui

import (
	"fmt"
	"regexp"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/keymap"
	"github.com/openwop/wopkit/internal/tui/widgets"
)

// review is the wizard's review page: the files that will be written, the
// main manifest as JSON, and the problems, each leading back to its step.
type review struct {
	planned
	cursor int
	scroll int
}

func (r *review) set(p planMsg) {
	r.planned = planned(p)
	r.cursor, r.scroll = 0, 0
}

var evalField = regexp.MustCompile(`^agents\.\d+\.eval`)

var entryIndex = regexp.MustCompile(`^(?:nodes|agents)\.(\d+)`)

// locate names the wizard step that asks the answer a problem is about, and
// the node or agent it concerns.
func locate(fe scaffold.FieldError) (step, int) {
	i := 0
	if m := entryIndex.FindStringSubmatch(fe.Field); m != nil {
		fmt.Sscan(m[1], &i)
	}
	return stepOf(fe), i
}

// stepOf names the wizard step that asks the answer a problem is about.
func stepOf(fe scaffold.FieldError) step {
	f := fe.Field
	switch {
	case fe.File == "tool" || strings.HasPrefix(fe.File, "tools/") || strings.HasSuffix(fe.File, ".tool.json"):
		return stepTool
	case evalField.MatchString(f) || strings.HasPrefix(fe.File, "evals/"):
		return stepEval
	case strings.HasPrefix(f, "agents"):
		return stepAgent
	case strings.HasPrefix(f, "nodes"):
		return stepNode
	case strings.HasPrefix(f, "runtime"):
		return stepRuntime
	}
	return stepIdentity
}

func (w *wizard) updateReview(k tea.KeyPressMsg) tea.Cmd {
	keys := w.ctx.Keys
	r := &w.rev
	switch {
	case key.Matches(k, keys.Up):
		r.cursor = max(r.cursor-1, 0)
	case key.Matches(k, keys.Down):
		r.cursor = min(r.cursor+1, max(len(r.problems)-1, 0))
	case key.Matches(k, keys.PageDown):
		r.scroll += 5
	case key.Matches(k, keys.PageUp):
		r.scroll = max(r.scroll-5, 0)
	case k.String() == "b" || k.String() == "shift+tab" || k.String() == "ctrl+b":
		if len(w.prev) > 0 {
			w.jumpTo = stepReview
			return w.back()
		}
	case key.Matches(k, keys.Accept):
		switch {
		case len(r.problems) > 0:
			w.jumpTo = stepReview
			s, i := locate(r.problems[r.cursor])
			w.step, w.idx = s, i
			if (s == stepNode && i >= len(w.a.Nodes)) || ((s == stepAgent || s == stepEval) && i >= len(w.a.Agents)) {
				w.idx = 0
			}
			w.form = w.formFor(s)
			return w.startAt(r.problems[r.cursor])
		case r.plan != nil:
			return w.goTo(w.next(stepReview))
		}
	case key.Matches(k, keys.Quit):
		return push(w.ConfirmQuit())
	}
	return nil
}

func (r *review) view(ctx *common.Context, width, height int) string {
	st := ctx.Styles
	var b strings.Builder
	switch {
	case r.err != nil:
		b.WriteString(st.Error.Render(widgets.Wrap("cannot plan the files: "+r.err.Error(), width)) + "\n")
		return b.String()
	case len(r.problems) > 0:
		b.WriteString(st.Error.Render(fmt.Sprintf("%d problems stop the files from being written; enter goes to the answer:", len(r.problems))) + "\n")
		for i, p := range r.problems {
			mark := "  "
			line := p.Field + ": " + p.Message
			if p.Field == "" {
				line = p.Pointer + ": " + p.Message
			}
			if i == r.cursor {
				mark = "> "
				line = st.Selected.Render(line)
			}
			b.WriteString(mark + line + "\n")
			if i == r.cursor && p.Hint != "" {
				b.WriteString("    " + st.Dim.Render(p.Hint) + "\n")
			}
		}
		return b.String()
	case r.plan == nil:
		return ""
	}
	files := fmt.Sprintf("%d files will be written: %s", len(r.plan.Files), strings.Join(r.plan.Paths(), ", "))
	b.WriteString(widgets.Wrap(files, width) + "\n")
	b.WriteString(st.OK.Render("no problems") + " · " + st.Dim.Render("enter to write, b to go back") + "\n")
	lines := strings.Split(strings.TrimRight(r.manifest, "\n"), "\n")
	room := max(height-lipglossHeight(b.String())-1, 3)
	r.scroll = min(r.scroll, max(len(lines)-room, 0))
	end := min(r.scroll+room, len(lines))
	b.WriteString(st.Dim.Render(strings.Join(lines[r.scroll:end], "\n")))
	return b.String()
}

func lipglossHeight(s string) int { return strings.Count(s, "\n") + 1 }

func (r *review) help(k keymap.KeyMap) []key.Binding {
	if len(r.problems) > 0 {
		return []key.Binding{k.Up, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "fix it")),
			key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "back")), k.Quit}
	}
	return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "write")),
		k.PageDown, k.PageUp, key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "back")), k.Quit}
}
