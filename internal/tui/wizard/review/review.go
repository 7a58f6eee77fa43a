// Package review is the wizard's review page as it is drawn: the files a
// run will write, where, the main manifest, and the problems that stop
// them or the placeholders left to replace, each named as the pages ask
// it. What the keys do there, and the plan itself, are the wizard's
// (internal/tui/wizard).
package review

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/keymap"
	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/words"
)

// Planned is what the review shows: the plan (the tool manifest folded
// in) or the problems that stop it, everything that can fail after the
// Review included.
type Planned struct {
	Plan     *scaffold.Plan
	Manifest string   // the main file, for display
	Where    []string // where the files go (see where)
	Problems []scaffold.FieldError
	Err      error
	// compat compares the pack with the version it follows in the
	// registry checkout Options.Registry (semdiff.ReviewNote); "" when
	// there is nothing to say.
	Compat string
}

// Review is the wizard's review page: the files that will be written, the
// main manifest as JSON, and the problems, each leading back to its page.
type Review struct {
	Planned
	// labels name the answer of each problem as the pages show it
	// ("Eval task 1 › Rubric criteria"; see wizard.where).
	Labels []string
	// toReplace are the plan's placeholders (scaffold.Plan.Placeholders),
	// each said once, named as the pages show its answer
	ToReplace []string
	Cursor    int
	Scroll    int
	// replace is the folder holding a pack that r offers to replace ("" when
	// none): the run then replaces files as `new --force` does
	Replace string
	// failDraft: the draft was kept by a failed run shown here; it goes
	// when the author leaves without keeping it (n to "Keep a draft?"), or
	// for a page (where esc asks about a draft again)
	FailDraft bool
}

// Set shows the plan p, the review at its top.
func (r *Review) Set(p Planned) {
	r.Planned = p
	r.Labels, r.Replace = nil, ""
	r.Cursor, r.Scroll = 0, 0
}

// PlaceholderLines says each placeholder once: the answer's label (its
// pointer when no page asks it), then the value and what it is.
func PlaceholderLines(ps []scaffold.FieldError, labels []string) []string {
	var out []string
	for i, p := range ps {
		label := p.Field
		if i < len(labels) && labels[i] != "" {
			label = labels[i]
		}
		if label == "" {
			label = p.Pointer
		}
		line := label + ": " + p.Message
		if !slices.Contains(out, line) {
			out = append(out, line)
		}
	}
	return out
}

// PlaceholderHead introduces the placeholders of a plan.
func PlaceholderHead(n int) string {
	return fmt.Sprintf("%s still a placeholder to replace before publishing (validate --strict refuses %s):",
		words.Count(n, "value is", "values are"), map[bool]string{true: "it", false: "them"}[n == 1])
}

// ProblemLine is a problem as the review and the page it opens say it:
// the answer's label, then what is wrong in those words.
func (r *Review) ProblemLine(i int) string {
	p := r.Problems[i]
	label := ""
	if i < len(r.Labels) {
		label = r.Labels[i]
	}
	switch {
	case label != "":
		return label + ": " + ask.InWords(p.Message, p.Pointer, label)
	case p.Field == "":
		return p.Pointer + ": " + p.Message
	}
	return p.Field + ": " + p.Message
}

func (r *Review) View(ctx *common.Context, width, height int) string {
	st := ctx.Styles
	var b strings.Builder
	switch {
	case r.Err != nil:
		b.WriteString(st.Error.Render(widgets.Wrap("cannot plan the files: "+r.Err.Error(), width)) + "\n")
		return b.String()
	case len(r.Problems) > 0:
		head := fmt.Sprintf("%s stop the files from being written; enter goes to the answer:", words.Count(len(r.Problems), "problem", "problems"))
		if len(r.Problems) == 1 {
			head = "1 problem stops the files from being written; enter goes to the answer:"
		}
		b.WriteString(st.Error.Render(widgets.Wrap(head, width)) + "\n")
		for i, p := range r.Problems {
			line := r.ProblemLine(i)
			if i != r.Cursor {
				b.WriteString("  " + widgets.Fit(line, width-2, 1) + "\n")
				continue
			}
			// the selected problem is shown whole, wrapped, with its hint
			wrapped := strings.Split(widgets.Wrap(line, width-4), "\n")
			for n, l := range wrapped {
				mark := "  "
				if n == 0 {
					mark = "> "
				}
				b.WriteString(mark + st.Selected.Render(l) + "\n")
			}
			if p.Hint != "" {
				b.WriteString(st.Dim.Render(indentText(widgets.Wrap(p.Hint, width-4), "    ")) + "\n")
			}
		}
		if r.Replace != "" {
			b.WriteString(st.Dim.Render(widgets.Wrap("r replaces the pack in "+r.Replace+" (put back as it was if writing fails)", width)) + "\n")
		}
		return b.String()
	case r.Plan == nil:
		return ""
	}
	b.WriteString(r.whereView(width, height))
	b.WriteString(st.OK.Render("no problems") + " · " + st.Dim.Render("enter to write, b to go back") + "\n")
	if n := len(r.ToReplace); n > 0 {
		b.WriteString(st.Warning.Render(widgets.Wrap(PlaceholderHead(n), width)) + "\n")
		for _, l := range r.ToReplace {
			b.WriteString("  " + widgets.Fit(l, width-2, 1) + "\n")
		}
	}
	if r.Compat != "" {
		b.WriteString(st.Dim.Render(widgets.Wrap(r.Compat, width)) + "\n")
	}
	lines := strings.Split(strings.TrimRight(r.Manifest, "\n"), "\n")
	room := max(height-lipglossHeight(b.String())-1, 3)
	r.Scroll = min(r.Scroll, max(len(lines)-room, 0))
	end := min(r.Scroll+room, len(lines))
	more := ""
	if end < len(lines) { // the manifest goes on below: the row under it says so (issue 35, item 7; room leaves it)
		more = "\n" + st.Dim.Render(widgets.MoreBelow+" (pgdn)")
	}
	b.WriteString(st.Dim.Render(strings.Join(lines[r.Scroll:end], "\n")) + more)
	return b.String()
}

// whereView lists where the files go; on a short screen the list of the
// folder's files is cut (its count and folder come first), so that the
// key, the tarball, the status and some of the manifest still show.
func (r *Review) whereView(width, height int) string {
	if len(r.Where) == 0 {
		return ""
	}
	var rest []string
	for _, l := range r.Where[1:] {
		rest = append(rest, strings.Split(widgets.Wrap(l, width), "\n")...)
	}
	files := strings.Split(widgets.Wrap(r.Where[0], width), "\n")
	if room := max(height-len(rest)-4, 1); len(files) > room {
		files = files[:room]
		files[room-1] = ansi.Truncate(files[room-1], width-2, "") + " …"
	}
	return strings.Join(append(files, rest...), "\n") + "\n"
}

func indentText(s, pre string) string { return pre + strings.ReplaceAll(s, "\n", "\n"+pre) }

func lipglossHeight(s string) int { return strings.Count(s, "\n") + 1 }

func (r *Review) Help(k keymap.KeyMap) []key.Binding {
	back := key.NewBinding(key.WithKeys("b", "shift+tab", "ctrl+b"), key.WithHelp("b", "back"))
	if len(r.Problems) > 0 {
		return []key.Binding{k.Up, k.Down, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "fix it")), back, k.Quit}
	}
	return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "write")),
		k.PageDown, k.PageUp, back, k.Quit}
}
