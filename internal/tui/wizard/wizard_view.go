package wizard

import (
	"os"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/toward"
)

// View draws the header, then the form, the review, or the summary.
func (w *wizard) View() string {
	st := w.ctx.Styles
	title := w.at.pg.title
	if w.finished {
		title = "summary"
	}
	header := st.Title.Render("wopkit new") + " · " + title
	if w.a.isPack() && w.at.pg.id != "what" {
		header += " · " + w.a.name()
	}
	body := ""
	switch {
	case w.busy != "":
		body = w.busy
	case w.finished:
		body = w.summaryView()
	case w.form == nil:
		body = w.rev.View(w.ctx, w.ctx.Width, w.ctx.Height-3)
	default:
		body = w.form.View()
		if w.moreBelow(body) { // in the row the form leaves below it
			body = strings.TrimRight(body, "\n") + "\n" + st.Dim.Render(widgets.MoreBelow)
		}
		if notes := w.notes(); notes != "" {
			body = notes + "\n" + body
		}
		if w.fixNote != "" {
			body = st.Error.Render(w.fixView()) + "\n" + body
		}
	}
	return widgets.Fit(header, w.ctx.Width, 1) + "\n\n" + body
}

// notes are what is said above the form: the answers' warning at the
// field left, then the focused field's refusal (its check, or the whole
// answers' as it is left: the form's own footer is below the rows the
// page gives it), the live check and a notice. The form is given the rows
// they leave (formSize), so that they do not push the focused field off a
// small screen.
func (w *wizard) notes() string {
	st := w.ctx.Styles
	var out []string
	if w.warn != "" {
		out = append(out, st.Warning.Render(widgets.Wrap("⚠ "+w.warn+"; the review lists it (shift+tab goes back to it)", w.ctx.Width-2)))
	}
	refused := ""
	if w.form != nil {
		if f := w.form.GetFocusedField(); f != nil && f.Error() != nil && f.Error().Error() != w.live {
			refused = f.Error().Error()
		}
	}
	for _, note := range []string{refused, w.live, w.notice} {
		if note != "" {
			out = append(out, st.Error.Render(widgets.Wrap("✗ "+note, w.ctx.Width-2)))
		}
	}
	return strings.Join(out, "\n")
}

// moreBelow reports whether the current page's fields go on below the
// rows the form shows (view): its group's last line is not on the screen.
// A view shorter than its rows is all there is (no group is looked at).
func (w *wizard) moreBelow(view string) bool {
	rows := w.formSize().Height
	vl := trimmedLines(view)
	if len(vl) < rows {
		return false
	}
	f := w.form.GetFocusedField()
	if f == nil {
		return false
	}
	if end := w.k.Ends[f]; end != "" && !slices.ContainsFunc(vl, func(l string) bool { return strings.HasSuffix(l, end) }) {
		return true // a choice whose options are cut
	}
	// the group's content is drawn once per field focused (and form size):
	// drawing it again on every key doubled a keystroke's time on the
	// license list
	at := moreAt{form: w.form, field: f, size: w.formSized}
	if w.more.at == at {
		return w.more.below
	}
	w.more.at, w.more.below = at, false
	fv := f.View()
	for _, g := range w.groups {
		if hide := w.hidden[g]; hide != nil && hide() {
			continue
		}
		c := g.Content()
		if !strings.Contains(c, fv) { // not the group on the screen
			continue
		}
		cl := trimmedLines(c)
		w.more.below = len(cl) > rows && vl[len(vl)-1] != cl[len(cl)-1]
		break
	}
	return w.more.below
}

// moreAt is what moreBelow's answer about the group holds for: the form,
// its focused field and the size it was given.
type moreAt struct {
	form  *huh.Form
	field huh.Field
	size  tea.WindowSizeMsg
}

// trimmedLines are s's lines without their trailing blanks, the blank
// lines at its end left out.
func trimmedLines(s string) []string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	for len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

func (w *wizard) summaryView() string {
	lines := w.done
	if len(w.caseLines) > 0 {
		lines = append(append(append([]string{}, w.caseLines...), ""), w.done...)
	}
	out := w.wrapLines(lines)
	if room := w.ctx.Height - 4; room > 0 && strings.Count(out, "\n") > room {
		// A short screen: the list of the files written (kept whole in the
		// summary printed when the screen closes) gives way to the rest.
		short := append([]string{}, lines...)
		for i, l := range short {
			if head, _, ok := strings.Cut(l, ": "); ok && strings.HasPrefix(l, "wrote ") {
				short[i] = head + " (listed when you leave)"
				break
			}
		}
		out = w.wrapLines(short)
		if strings.Count(out, "\n") > room { // the commands toward the pull request too (see towardPR)
			if i := slices.Index(short, toward.Head); i > 0 {
				out = w.wrapLines(append(short[:i:i], toward.Head[:len(toward.Head)-1]+" (listed when you leave)"))
			}
		}
	}
	if w.cases != "" { // after the next commands; the help line offers it too
		out += "\n" + widgets.Wrap("Press t to run the new pack's stored cases in the sandbox (each node's outputs, or why it failed).", w.ctx.Width-2) + "\n"
	}
	return out
}

// wrapLines wraps the summary's lines to the screen; an indented line's
// wrapped rest keeps its indent.
func (w *wizard) wrapLines(lines []string) string {
	out := ""
	for _, l := range lines {
		body := strings.TrimLeft(l, " ")
		pre := l[:len(l)-len(body)]
		out += pre + strings.ReplaceAll(widgets.Wrap(body, w.ctx.Width-2-len(pre)), "\n", "\n"+pre) + "\n"
	}
	return out
}

// Help lists every key that works on the current page.
func (w *wizard) Help() []key.Binding {
	k := w.ctx.Keys
	switch {
	case w.finished:
		if w.cases != "" {
			return []key.Binding{key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "run the cases")), k.Quit}
		}
		return []key.Binding{k.Quit}
	case w.form == nil:
		return w.rev.Help(k)
	}
	b := func(keys, help string) key.Binding {
		return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, help))
	}
	out := []key.Binding{b("enter", "next")}
	switch f := w.form.GetFocusedField().(type) {
	case *huh.Input:
		out = append(out, w.editKey(f))
		if f.GetKey() == "license.other" {
			out = append(out, b("^e", "complete"))
		}
	case *huh.Text:
		out = append(out, w.editKey(f)) // its description names alt+enter, the new line
		if os.Getenv("EDITOR") != "" || os.Getenv("VISUAL") != "" {
			out = append(out, b("^e", "editor"))
		}
	case *huh.Select[string]:
		out = append(out, b("↑/↓", "choose"))
		if f.GetKey() == "license" {
			if w.filtering {
				return []key.Binding{b("enter", "pick"), b("esc", "stop searching")}
			}
			out = append(out, b("/", "search"))
		}
	case *ask.Pick:
		out = append(out, b("↑/↓", "move"), b("x", "tick"))
	case *huh.Confirm:
		out = append(out, b("←/→", "yes or no"))
	}
	long := append(out, b("⇧tab", "back"), b("^b", "prev page"), b("esc", "quit"))
	if helpWidth(long) <= w.ctx.Width {
		return long
	}
	// narrow (60 columns): both ways back share one entry, so that every key is still named
	back := []key.Binding{key.NewBinding(key.WithKeys("shift+tab", "ctrl+b"), key.WithHelp("⇧tab/^b", "back")), b("esc", "quit")}
	if narrow := append(append([]key.Binding{}, out...), back...); helpWidth(narrow) <= w.ctx.Width {
		return narrow
	}
	// narrower still: each key with its shortest word
	for i, k := range out {
		if h := k.Help(); strings.HasPrefix(h.Desc, "edit ") {
			out[i] = key.NewBinding(key.WithKeys(k.Keys()...), key.WithHelp(h.Key, "edit"))
		}
	}
	return append(out, back...)
}

// editKey is the key that edits a text field: → takes the suggestion into
// an empty field, ctrl+u clears one that is not.
func (w *wizard) editKey(f huh.Field) key.Binding {
	if w.suggestion(f) != "" {
		return key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "edit suggestion"))
	}
	return key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("^u", "clear"))
}

// helpWidth is the width widgets.HelpLine gives bindings ("key desc", two
// spaces apart).
func helpWidth(bs []key.Binding) int {
	n := 0
	for _, b := range bs {
		h := b.Help()
		n += lipgloss.Width(h.Key+" "+h.Desc) + 2
	}
	return n - 2
}
