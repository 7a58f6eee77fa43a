package ask

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/widgets"
)

// Pick is the wizard's multi-select field (huh's MultiSelect drew its
// options in a viewport sized once: none, or one at a time with empty rows
// below, and the cursor's option once left). Focused, it lists every
// option, or as many as the form's height leaves room for, scrolled with
// the cursor and saying how many more there are; not focused, it shows
// what is ticked ("none" when nothing is).
//
// Its options are computed from the current answers each time it is drawn
// (options), so a list that depends on another answer (the properties an
// artifact may require, the scopes an action may use) follows it; when
// the field is focused, ticked values no longer offered are unticked, and
// the field says so.
//
// x ticks or unticks the option under the cursor. Space does not: the
// author of a comma-separated answer just before (an artifact's
// properties) types spaces, and a space that ticked an option unseen was
// the surprise issue 17 reported; space, and any other letter, say which
// key ticks instead.
type Pick struct {
	key, title, desc string
	options          func() []string
	value            *[]string
	empty            string     // said when there is nothing to choose from
	rows             func() int // the lines the form leaves the field (nil: its height)
	validate         func([]string) error
	dropped          []string // unticked because no longer offered
	note             string   // what a key that does nothing here does instead
	cursor, top      int
	focused          bool
	width, height    int
	theme            huh.Theme
	dark             bool
	pos              huh.FieldPosition
	err              error
}

// NewPick is a multi-select of options() bound to v; the ticked values
// options() does not offer are dropped at once (and said).
func NewPick(key, title, desc string, options func() []string, v *[]string) *Pick {
	p := &Pick{key: key, title: title, desc: desc, options: options, value: v, validate: func([]string) error { return nil }}
	p.prune()
	return p
}

// prune unticks the values no longer offered, noting them.
func (p *Pick) prune() {
	kept, dropped := scaffold.Ticked(*p.value, p.options())
	if len(dropped) > 0 {
		*p.value = kept
		p.dropped = append(p.dropped, dropped...)
	}
}

func (p *Pick) ticked(o string) bool { return slices.Contains(*p.value, o) }

// toggle ticks or unticks an option; the answer keeps the options' order.
func (p *Pick) toggle(o string) {
	on := !p.ticked(o)
	var out []string
	for _, x := range p.options() {
		if x == o && on || x != o && p.ticked(x) {
			out = append(out, x)
		}
	}
	*p.value = append([]string{}, out...)
	p.err = p.validate(*p.value)
}

// Init implements huh.Field.
func (p *Pick) Init() tea.Cmd { return nil }

// Update moves the cursor and ticks options.
func (p *Pick) Update(msg tea.Msg) (huh.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		p.dark = msg.IsDark()
	case tea.KeyPressMsg:
		if !p.focused {
			return p, nil
		}
		opts := p.options()
		p.note = ""
		switch s := msg.String(); s {
		case "up", "k":
			p.cursor = max(p.cursor-1, 0)
		case "down", "j":
			p.cursor = min(p.cursor+1, max(len(opts)-1, 0))
		case "home", "g":
			p.cursor = 0
		case "end", "G":
			p.cursor = max(len(opts)-1, 0)
		case "x":
			if p.cursor < len(opts) {
				p.toggle(opts[p.cursor])
			}
		case "enter", "tab":
			if p.err = p.validate(*p.value); p.err != nil {
				return p, nil
			}
			return p, huh.NextField
		case "shift+tab":
			return p, huh.PrevField
		default:
			if msg.Text != "" {
				p.note = "a list to tick: x ticks or unticks the option under the cursor, ↑/↓ move"
			}
		}
	}
	return p, nil
}

func (p *Pick) styles() *huh.FieldStyles {
	t := p.theme
	if t == nil {
		t = CharmTheme
	}
	if p.focused {
		return &t.Theme(p.dark).Focused
	}
	return &t.Theme(p.dark).Blurred
}

// View draws the title, the description, then the options (focused) or
// what is ticked, then what was unticked and the note.
func (p *Pick) View() string {
	st := p.styles()
	inner := max(p.width-st.Base.GetHorizontalFrameSize(), 10)
	if p.width <= 0 {
		inner = 76
	}
	head := []string{st.Title.Render(widgets.Wrap(p.title, inner))}
	if p.err != nil {
		head[0] += st.ErrorIndicator.String()
	}
	if p.desc != "" {
		head = append(head, st.Description.Render(widgets.Wrap(p.desc, inner)))
	}
	var foot []string
	if len(p.dropped) > 0 {
		foot = append(foot, st.Description.Render(widgets.Wrap("unticked "+strings.Join(p.dropped, ", ")+": no longer offered", inner)))
	}
	if p.err != nil {
		foot = append(foot, st.ErrorMessage.Render(widgets.Wrap(p.err.Error(), inner)))
	}
	if p.note != "" && p.focused {
		foot = append(foot, st.Description.Render(widgets.Wrap(p.note, inner)))
	}
	opts := p.options()
	var body []string
	switch {
	case len(opts) == 0:
		body = []string{st.UnselectedOption.Render(widgets.Wrap("nothing to choose from: "+p.empty, inner))}
	case !p.focused:
		body = []string{st.SelectedOption.Render(widgets.Wrap("ticked: "+p.tickedText(), inner))}
	default:
		others := 0
		for _, l := range append(append([]string{}, head...), foot...) {
			others += lipgloss.Height(l)
		}
		body = p.optionLines(st, opts, p.room(others))
	}
	lines := append(append(head, body...), foot...)
	return st.Base.Width(p.width).Render(strings.Join(lines, "\n"))
}

func (p *Pick) tickedText() string {
	if len(*p.value) == 0 {
		return "none"
	}
	return strings.Join(*p.value, ", ")
}

// room is how many lines the options may take below the others.
func (p *Pick) room(others int) int {
	h := p.height
	if p.rows != nil {
		h = p.rows()
	}
	if h <= 0 {
		return 1 << 20
	}
	return max(h-others, 1)
}

// optionLines are the options that fit in room lines, the cursor's among
// them, with a line saying how many more there are above and below.
func (p *Pick) optionLines(st *huh.FieldStyles, opts []string, room int) []string {
	p.cursor = min(p.cursor, len(opts)-1)
	n := len(opts)
	if n > room {
		n = max(room-1, 1) // a line says what is hidden
	}
	p.top = min(max(p.top, p.cursor-n+1), p.cursor)
	p.top = max(min(p.top, len(opts)-n), 0)
	var out []string
	for i := p.top; i < p.top+n; i++ {
		sel := strings.Repeat(" ", lipgloss.Width(st.MultiSelectSelector.String()))
		if i == p.cursor {
			sel = st.MultiSelectSelector.String()
		}
		if p.ticked(opts[i]) {
			out = append(out, sel+st.SelectedPrefix.String()+st.SelectedOption.Render(opts[i]))
		} else {
			out = append(out, sel+st.UnselectedPrefix.String()+st.UnselectedOption.Render(opts[i]))
		}
	}
	if n < len(opts) {
		var more []string
		if p.top > 0 {
			more = append(more, "↑ "+strconv.Itoa(p.top)+" more")
		}
		if below := len(opts) - p.top - n; below > 0 {
			more = append(more, "↓ "+strconv.Itoa(below)+" more")
		}
		out = append(out, st.Description.Render("  "+strings.Join(more, "  ")))
	}
	return out
}

// Focus drops the ticked values no longer offered.
func (p *Pick) Focus() tea.Cmd {
	p.focused = true
	p.prune()
	return nil
}

// Blur implements huh.Field.
func (p *Pick) Blur() tea.Cmd {
	p.focused, p.note = false, ""
	return nil
}

// Error implements huh.Field.
func (p *Pick) Error() error { return p.err }

// Run implements huh.Field.
func (p *Pick) Run() error { return huh.Run(p) }

// RunAccessible is not used: accessible mode asks a line of values (see
// Asker.Multi).
func (p *Pick) RunAccessible(io.Writer, io.Reader) error { return nil }

// Skip implements huh.Field.
func (p *Pick) Skip() bool { return false }

// Zoom implements huh.Field.
func (p *Pick) Zoom() bool { return false }

// KeyBinds implements huh.Field (the wizard draws its own help).
func (p *Pick) KeyBinds() []key.Binding { return nil }

// WithTheme implements huh.Field.
func (p *Pick) WithTheme(t huh.Theme) huh.Field {
	if p.theme == nil {
		p.theme = t
	}
	return p
}

// WithKeyMap implements huh.Field (the keys are the wizard's).
func (p *Pick) WithKeyMap(*huh.KeyMap) huh.Field { return p }

// WithWidth implements huh.Field.
func (p *Pick) WithWidth(w int) huh.Field { p.width = w; return p }

// WithHeight implements huh.Field.
func (p *Pick) WithHeight(h int) huh.Field { p.height = h; return p }

// WithPosition implements huh.Field.
func (p *Pick) WithPosition(pos huh.FieldPosition) huh.Field { p.pos = pos; return p }

// GetKey implements huh.Field.
func (p *Pick) GetKey() string { return p.key }

// GetValue implements huh.Field.
func (p *Pick) GetValue() any { return *p.value }
