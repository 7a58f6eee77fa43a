package ask

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"charm.land/huh/v2"
)

// Choice is a question with one answer among options, as the wizard asks
// it: a huh Select on the full screen; in accessible mode the same Select
// whose plain prompt lists the options numbered with the default marked,
// and takes the default (an empty line), a number, or an option's name.
type Choice struct {
	Key, Title, Desc string
	Opts             []huh.Option[string]
	Acc              huh.Accessor[string] // the answer (huh.NewPointerAccessor for a plain value)
	Check            func(string) error   // nil: every option is taken
}

// Choose builds the field that asks c (see choice).
func (k Asker) Choose(c Choice) huh.Field {
	k.Labels.Note(c.Key, c.Title)
	s := huh.NewSelect[string]().Title(c.Title)
	s.WithTheme(k.Theme()) // before Options, which measures the options in the theme (see group)
	opts, rows := c.Opts, 0
	if k.Cols != nil { // the options wrapped at spaces (see fit)
		opts = make([]huh.Option[string], len(c.Opts))
		for i, o := range c.Opts {
			o.Key = k.Fit(o.Key, OptInset)
			opts[i] = o
			rows += strings.Count(o.Key, "\n") + 1
		}
	}
	if c.Desc != "" {
		s = s.Description(k.FitAbove(c.Desc, min(rows, 4))) // room for some options at least
	}
	s = s.Options(opts...).Accessor(c.Acc).Key(c.Key)
	if k.Ends != nil && len(opts) > 0 {
		last := opts[len(opts)-1].Key
		k.Ends[s] = strings.TrimSpace(last[strings.LastIndexByte(last, '\n')+1:])
	}
	if c.Check != nil {
		s = s.Validate(c.Check)
	}
	if !k.Accessible {
		return s
	}
	return &PlainChoice{Field: s, c: c}
}

// Yes builds a yes/no question bound to acc: huh's Confirm, whose plain
// prompt in accessible mode shows the default ([Y/n], [y/N]) and says
// what it takes when it refuses an answer.
func (k Asker) Yes(key, title string, acc huh.Accessor[bool]) huh.Field {
	k.Labels.Note(key, title)
	f := huh.NewConfirm().Title(title).Accessor(acc).Key(key)
	if !k.Accessible {
		return f
	}
	return &plainYes{Field: f, title: title, acc: acc}
}

// PlainChoice is a choice's plain prompt (accessible mode).
type PlainChoice struct {
	huh.Field
	c Choice
}

// RunAccessible lists the options numbered, the default marked, and reads
// an answer: an empty line (the default), a number, or an option's name
// (its value or its text, any case; an unambiguous start is enough). An
// answer it cannot take is refused with what it takes, and asked again
// (the transcript stops a piped run there). At the end of the input the
// default is kept.
func (p *PlainChoice) RunAccessible(w io.Writer, r io.Reader) error {
	opts := p.c.Opts
	def := 0
	for i, o := range opts {
		if o.Value == p.c.Acc.Get() {
			def = i
			break
		}
	}
	fmt.Fprintln(w, p.c.Title)
	if p.c.Desc != "" {
		fmt.Fprintln(w, "  "+p.c.Desc)
	}
	for i, o := range opts {
		mark := ""
		if i == def {
			mark = " (default)"
		}
		fmt.Fprintf(w, "%d. %s%s\n", i+1, o.Key, mark)
	}
	prompt := fmt.Sprintf("Enter a number 1-%d or a name [default %d: %s]: ", len(opts), def+1, optionName(opts[def]))
	if len(opts) == 1 {
		prompt = fmt.Sprintf("Enter 1 or its name [default 1: %s]: ", optionName(opts[0]))
	}
	lines := bufio.NewScanner(r)
	for {
		fmt.Fprint(w, prompt)
		if !lines.Scan() {
			fmt.Fprintln(w)
			p.c.Acc.Set(opts[def].Value)
			return nil
		}
		i, err := pickOption(opts, def, lines.Text())
		if err == nil && p.c.Check != nil {
			err = p.c.Check(opts[i].Value)
		}
		if err != nil {
			fmt.Fprintln(w, err.Error())
			continue
		}
		p.c.Acc.Set(opts[i].Value)
		return nil
	}
}

// optionName is how an answer names an option: its value when its text
// starts with it ("vendor: published by …", "v2 Ed25519 (…)"), else its
// text ("A pack of nodes").
func optionName(o huh.Option[string]) string {
	k, v := strings.ToLower(o.Key), strings.ToLower(o.Value)
	if v != "" && (k == v || strings.HasPrefix(k, v+":") || strings.HasPrefix(k, v+" ")) {
		return o.Value
	}
	return o.Key
}

// pickOption is the option an answer names: "" the default (def, -1 for
// none), a number from 1, or the name, value or text of one option (any
// case), whole or its start when only one option starts so.
func pickOption(opts []huh.Option[string], def int, answer string) (int, error) {
	a := strings.ToLower(strings.TrimSpace(answer))
	if a == "" {
		return def, nil
	}
	takes := func() string {
		names := make([]string, len(opts))
		for i, o := range opts {
			names[i] = optionName(o)
		}
		if def < 0 { // a list to tick: no default option
			return fmt.Sprintf("enter a number from 1 to %d, or one of: %s", len(opts), strings.Join(names, ", "))
		}
		return fmt.Sprintf("enter a number from 1 to %d, or one of: %s (an empty line keeps %s)",
			len(opts), strings.Join(names, ", "), optionName(opts[def]))
	}
	if n, err := strconv.Atoi(a); err == nil {
		if n >= 1 && n <= len(opts) {
			return n - 1, nil
		}
		return 0, fmt.Errorf("there is no choice %d: %s", n, takes())
	}
	match := func(same func(s string) bool) []int {
		var at []int
		for i, o := range opts {
			about := strings.TrimPrefix(o.Key, optionName(o)+": ") // its text after its name
			for _, s := range []string{o.Key, o.Value, optionName(o), about} {
				if same(strings.ToLower(s)) {
					at = append(at, i)
					break
				}
			}
		}
		return at
	}
	if at := match(func(s string) bool { return s == a }); len(at) == 1 {
		return at[0], nil
	}
	at := match(func(s string) bool { return strings.HasPrefix(s, a) })
	switch len(at) {
	case 1:
		return at[0], nil
	case 0:
		return 0, fmt.Errorf("%q is not one of the choices: %s", answer, takes())
	}
	var could []string
	for _, i := range at {
		could = append(could, fmt.Sprintf("%d (%s)", i+1, optionName(opts[i])))
	}
	return 0, fmt.Errorf("%q could be %s: enter its number or more of its name", answer, strings.Join(could, " or "))
}

// plainYes is a yes/no question's plain prompt (accessible mode).
type plainYes struct {
	huh.Field
	title string
	acc   huh.Accessor[bool]
}

// RunAccessible shows the default ([Y/n] or [y/N]) and reads yes, no, y
// or n (any case), an empty line keeping the default; it refuses anything
// else saying what it takes, and asks again (the transcript stops a piped
// run there). At the end of the input the default is kept.
func (p *plainYes) RunAccessible(w io.Writer, r io.Reader) error {
	def, hint, word := p.acc.Get(), "[y/N]", "no"
	if def {
		hint, word = "[Y/n]", "yes"
	}
	lines := bufio.NewScanner(r)
	for {
		fmt.Fprintf(w, "%s %s ", p.title, hint)
		if !lines.Scan() {
			fmt.Fprintln(w)
			p.acc.Set(def)
			return nil
		}
		switch strings.ToLower(strings.TrimSpace(lines.Text())) {
		case "":
			p.acc.Set(def)
			return nil
		case "y", "yes":
			p.acc.Set(true)
			return nil
		case "n", "no":
			p.acc.Set(false)
			return nil
		}
		fmt.Fprintf(w, "%q is neither yes nor no: enter yes or no (y or n), or an empty line for %s\n", lines.Text(), word)
	}
}

// tickNames is the options a line of a list to tick names, in the
// options' order: comma-separated, each as a choice is named (a number
// from 1, a name in any case, or the start of one: pickOption).
func tickNames(opts []string, line string) ([]string, error) {
	choices := huh.NewOptions(opts...)
	on := make([]bool, len(opts))
	for _, x := range SplitList(line) {
		i, err := pickOption(choices, -1, x)
		if err != nil {
			return nil, err
		}
		on[i] = true
	}
	var out []string
	for i, o := range opts {
		if on[i] {
			out = append(out, o)
		}
	}
	return out, nil
}

// plainTicks is a list to tick's plain prompt (accessible mode).
type plainTicks struct {
	huh.Field
	title string
	desc  string // its help
	note  string // options ticked before that are no longer offered
	empty string // why nothing is offered, when nothing is
	p     *[]string
	opts  []string
}

// RunAccessible lists the options numbered, those ticked marked, and reads
// a line naming the options to tick (tickNames): an empty line keeps what
// is ticked, "-" unticks them all. A line it cannot take is refused with
// what it takes, and asked again (the transcript stops a piped run there).
// At the end of the input what is ticked is kept.
func (p *plainTicks) RunAccessible(w io.Writer, r io.Reader) error {
	fmt.Fprintln(w, p.title)
	if p.desc != "" {
		fmt.Fprintln(w, "  "+p.desc)
	}
	if p.note != "" {
		fmt.Fprintln(w, p.note)
	}
	if len(p.opts) == 0 {
		fmt.Fprintf(w, "nothing to choose from: %s\n", p.empty)
		return nil
	}
	for i, o := range p.opts {
		mark := ""
		if slices.Contains(*p.p, o) {
			mark = " (ticked)"
		}
		fmt.Fprintf(w, "%d. %s%s\n", i+1, o, mark)
	}
	kept := "none"
	if len(*p.p) > 0 {
		kept = strings.Join(*p.p, ", ")
	}
	lines := bufio.NewScanner(r)
	for {
		fmt.Fprintf(w, "Enter numbers or names, comma-separated (- for none) [keep: %s]: ", kept)
		if !lines.Scan() {
			fmt.Fprintln(w)
			return nil
		}
		switch line := strings.TrimSpace(lines.Text()); line {
		case "":
			return nil
		case "-":
			*p.p = []string{}
			return nil
		default:
			v, err := tickNames(p.opts, line)
			if err != nil {
				fmt.Fprintln(w, err.Error())
				continue
			}
			*p.p = v
			return nil
		}
	}
}
