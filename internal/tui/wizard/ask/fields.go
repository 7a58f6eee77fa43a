// Package ask is the wizard's kit of questions: an Asker builds each huh
// field bound straight to an answer (Str, List, Num, Follow, the name's
// parts), with its help, choices and checks from the schemas
// (internal/validate) and its label noted for the review; the same field
// is drawn full-screen or asked as a plain line in accessible mode (the
// plain renderings, and the Transcript that echoes answers piped in and
// stops at one refused). It holds no page: the pages, their order and the
// answers are the wizard's (internal/tui/wizard).
package ask

import (
	"errors"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"slices"
	"strconv"
	"strings"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/words"
)

// Asker builds huh fields bound straight to the scaffold's answer values,
// with help, choices and checks from the schemas (internal/validate).
type Asker struct {
	V *validate.Validator
	// Accessible: plain prompts, where the title names the suggestion and
	// an empty line keeps it.
	Accessible bool
	// Live maps each input to its check (see reg); shared by copies.
	Live map[huh.Field]func(string) error
	// Titles maps each text field to its title, which its refusals name
	// it by (see reg); shared by copies.
	Titles map[huh.Field]string
	// Suggest maps each text field to the suggestion it offers, which →
	// takes into the empty field for editing (see wizard.suggestion).
	Suggest map[huh.Field]Shown
	// Plain: no colour (NO_COLOR), so a placeholder is marked a suggestion
	// in words, not only by its grey.
	Plain bool
	// Rows is the height the form leaves its fields (nil: their own).
	Rows func() int
	// Ends maps each choice to the last line of its last option, which is
	// on the screen when the choice is not cut below (see moreBelow);
	// shared by copies (nil in accessible mode).
	Ends map[huh.Field]string
	// Cols is the form's width (nil: accessible mode, where text is printed
	// as it is): what a field shows is wrapped to it (see fit).
	Cols func() int
	// Cross checks the whole answers when the author leaves the field with
	// the key (see wizard.crossCheck); nil in accessible mode.
	Cross func(key, text string) error
	// Labels notes each field's label as it is built (nil: none noted).
	Labels FieldLabels
	// Spec is the spec version a pack manifest's fields are checked under
	// (the pack's; nil: the validator's, v1 when auto).
	Spec func() kinds.Spec
}

// Fit is text a field shows (its description, an option) wrapped at
// spaces to the form's width less inset columns: huh's own wrap breaks at
// hyphens, dots and commas, inside a version, a flag or an address, and it
// then has nothing left to wrap (issue 35, item 7). The form is built
// again when the width changes (wizard.Update).
func (k Asker) Fit(s string, inset int) string {
	if k.Cols == nil {
		return s
	}
	return widgets.Wrap(s, k.Cols()-inset)
}

// FitAbove is a field's description wrapped (see fit) and, when it would
// leave the field less than below rows under it (a choice's options) in
// the rows the form has, cut to what leaves them (at least one line, its
// end marked …): on a short terminal the options stay on the screen.
func (k Asker) FitAbove(s string, below int) string {
	s = k.Fit(s, DescInset)
	if k.Rows == nil || k.Cols == nil {
		return s
	}
	lines := strings.Split(s, "\n")
	room := max(k.Rows()-1-below, 1) // the title's row
	if len(lines) <= room {
		return s
	}
	lines = lines[:room]
	last := lines[room-1]
	if w := k.Cols() - DescInset - 2; ansi.StringWidth(last) > w {
		last = ansi.Truncate(last, w, "")
	}
	lines[room-1] = last + " …"
	return strings.Join(lines, "\n")
}

// DescInset is what a field's frame takes of the form's width (huh's
// border and padding), OptInset that and an option's cursor.
const (
	DescInset = 2
	OptInset  = 4
)

// TextValue is how an input reads and writes its answer: huh's accessor,
// plus the value typed text stands for (an empty line is the suggestion).
type TextValue interface {
	huh.Accessor[string]
	Value(text string) any
	Suggestion() string
}

// Str binds a string answer; def is the suggestion shown as a placeholder:
// the field is empty while the answer is the suggestion, typing replaces
// it, and an empty field keeps it.
type Str struct {
	P   *string
	Def string
}

func (s Str) Get() string {
	if *s.P == s.Def {
		return ""
	}
	return *s.P
}

func (s Str) Set(t string) {
	if t == "" {
		t = s.Def
	}
	*s.P = t
}

func (s Str) Value(t string) any {
	if t == "" {
		return s.Def
	}
	return t
}

func (s Str) Suggestion() string { return s.Def }

// NameParts is the edit buffer of the pack name while the identity page
// asks it in three fields (scope, organisation, the rest): split from the
// name when the page is built, each field edits its part, and every edit
// is written through to the name at once (scaffold.JoinName). The name is
// the one answer; the parts are what the fields hold as typed, so that a
// part typed with a stray "." and mended gives back the name it was (the
// name split again after each keystroke would move the "." into the next
// part).
type NameParts struct {
	name *string
	p    [3]string
}

func SplitName(name *string) *NameParts {
	n := &NameParts{name: name}
	n.p[0], n.p[1], n.p[2] = scaffold.SplitName(*name)
	return n
}

// Part binds part i, def standing for an empty field.
func (n *NameParts) Part(i int, def string) NamePart { return NamePart{n: n, i: i, def: def} }

// NamePart binds one part of the pack name to a field.
type NamePart struct {
	n   *NameParts
	i   int
	def string
}

func (p NamePart) Get() string {
	if v := p.n.p[p.i]; v != p.def {
		return v
	}
	return ""
}

func (p NamePart) Set(t string) {
	p.n.p[p.i] = p.Value(t).(string)
	*p.n.name = scaffold.JoinName(p.n.p[0], p.n.p[1], p.n.p[2])
}

func (p NamePart) Value(t string) any {
	if t == "" {
		return p.def
	}
	return t
}

func (p NamePart) Suggestion() string { return p.def }

// With is the name with this part typed as t (what a check of the field
// reads before the answer is set).
func (p NamePart) With(t string) string {
	q := p.n.p
	q[p.i] = p.Value(t).(string)
	return scaffold.JoinName(q[0], q[1], q[2])
}

// Follow binds a string answer whose suggestion is computed from the
// answers each time it is asked (def), so that it follows an answer given
// before it, on the same page or another: an empty field keeps the
// suggestion of the moment. With blank set the answer is then left ""
// (the scaffold derives it, and goes on deriving it when that other answer
// changes); otherwise it takes the suggestion's text.
type Follow struct {
	P     *string
	Def   func() string
	Blank bool
}

func (f Follow) Get() string {
	if *f.P == f.Def() || f.Blank && *f.P == "" {
		return ""
	}
	return *f.P
}

func (f Follow) Set(t string) {
	switch {
	case t != "" && t != f.Def():
		*f.P = t
	case f.Blank:
		*f.P = ""
	default:
		*f.P = f.Def()
	}
}

func (f Follow) Value(t string) any {
	if t == "" {
		return f.Def()
	}
	return t
}

func (f Follow) Suggestion() string { return f.Def() }

// YesNo binds a yes/no answer through its getter and setter (a flag whose
// default the scaffold derives from other answers).
type YesNo struct {
	Read  func() bool
	Write func(bool)
}

func (f YesNo) Get() bool  { return f.Read() }
func (f YesNo) Set(v bool) { f.Write(v) }

// List binds a list answer typed as comma-separated text.
type List struct {
	P   *[]string
	Def []string
}

func (l List) Get() string {
	if slices.Equal(*l.P, l.Def) {
		return ""
	}
	return strings.Join(*l.P, ", ")
}

func (l List) Set(t string) {
	if strings.TrimSpace(t) == "" {
		*l.P = append([]string{}, l.Def...)
		return
	}
	*l.P = SplitList(t)
}

func (l List) Value(t string) any {
	items := l.Def
	if strings.TrimSpace(t) != "" {
		items = SplitList(t)
	}
	out := []any{}
	for _, x := range items {
		out = append(out, x)
	}
	return out
}

func (l List) Suggestion() string { return strings.Join(l.Def, ", ") }

// Num binds a number answer; text that is not a number is kept as typed
// (and refused by the check) without changing the answer.
type Num struct {
	p   *float64
	def float64
	raw *string
}

func NewNum(p *float64, def float64) Num { return Num{p: p, def: def, raw: new(string)} }

// Default is the number an empty field stands for.
func (n Num) Default() float64 { return n.def }

func (n Num) Get() string {
	if *n.raw != "" {
		return *n.raw
	}
	if *n.p == n.def {
		return ""
	}
	return strconv.FormatFloat(*n.p, 'f', -1, 64)
}

func (n Num) Set(t string) {
	*n.raw = ""
	switch f, err := strconv.ParseFloat(strings.TrimSpace(t), 64); {
	case strings.TrimSpace(t) == "":
		*n.p = n.def
	case err != nil:
		*n.raw = t
	default:
		*n.p = f
	}
}

func (n Num) Value(t string) any {
	if strings.TrimSpace(t) == "" {
		return n.def
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(t), 64); err == nil {
		return f
	}
	return t
}

func (n Num) Suggestion() string { return strconv.FormatFloat(n.def, 'f', -1, 64) }

// SplitList splits comma-separated text into trimmed, non-empty items.
func SplitList(s string) []string {
	out := []string{}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Title is a field's title; plain prompts do not show placeholders, so in
// accessible mode the suggestion is named in the title.
func (k Asker) Title(t string, tv TextValue) string {
	if k.Accessible {
		cur := tv.Get()
		if cur == "" {
			cur = offerOf(tv)
		}
		if cur != "" {
			return t + " [" + cur + "]"
		}
	}
	return t
}

// Reg sets an input's check and records it, so the wizard can run the
// check of the focused input as it is typed (huh itself checks only when
// the author presses enter).
func (k Asker) Reg(in *huh.Input, check func(string) error) *huh.Input {
	check = byTitle(k.Titles[in], check)
	if k.Live != nil {
		k.Live[in] = check
	}
	key := in.GetKey()
	return in.Validate(func(s string) error {
		if err := check(s); err != nil {
			return err
		}
		return k.Crossed(key, s)
	})
}

// Crossed is the whole-answers check of the field with the key as the
// author leaves it (nil when there is none).
func (k Asker) Crossed(key, text string) error {
	if k.Cross == nil || key == "" {
		return nil
	}
	return k.Cross(key, text)
}

// Text is an input bound to tv, its help from the schema at ptr (none when
// ptr is empty) and checked there with the value the text stands for.
func (k Asker) Text(key, title string, tv TextValue, kind kinds.Kind, ptr string) *huh.Input {
	k.Labels.Note(key, title)
	sh := NewShown(tv)
	in := huh.NewInput().Title(k.Title(title, tv)).Accessor(sh).Key(key)
	if k.Titles != nil {
		k.Titles[in] = title
	}
	if s := offerOf(tv); s != "" {
		in = in.Placeholder(k.Mark(s))
	}
	k.Offer(in, sh)
	if ptr == "" {
		return in.Validate(func(s string) error { return k.Crossed(key, s) })
	}
	return k.Reg(in.Description(k.Fit(k.Help(kind, ptr), DescInset)), Titled(title, ptr, k.Check(kind, ptr, tv.Value)))
}

// byTitle is check with its refusals naming the field by its title where
// they name it by a JSON member (`agentId`) or a list's index (`0`, the
// first item); codes and pointers are not in a field's refusal.
func byTitle(title string, check func(string) error) func(string) error {
	if title == "" {
		return check
	}
	return func(s string) error {
		err := check(s)
		if err == nil {
			return nil
		}
		return errors.New(words.Titled(err.Error(), title))
	}
}

// Titled is check with its refusals naming the field by its title on
// screen ("Version"), not by the document's JSON name (`version`).
func Titled(title, ptr string, check func(string) error) func(string) error {
	return func(s string) error {
		if err := check(s); err != nil {
			return errors.New(InWords(err.Error(), ptr, " › "+title))
		}
		return nil
	}
}

// Following is text bound to f whose placeholder follows the answer on
// watches as it is typed (accessible mode names the suggestion in the
// title, built when its group is asked).
func (k Asker) Following(key, title string, f Follow, watches any, kind kinds.Kind, ptr string) *huh.Input {
	return k.Text(key, title, f, kind, ptr).PlaceholderFunc(func() string { return k.Mark(f.Def()) }, watches)
}

// Long is text whose suggestion may run over several lines (a card's
// template): a multi-line field that shows the suggestion whole, desc its
// help (the schema's at ptr when empty). Accessible mode asks a line, the
// suggestion named in the question.
func (k Asker) Long(key, title, desc string, tv TextValue, kind kinds.Kind, ptr string) huh.Field {
	if desc == "" && ptr != "" {
		desc = k.Help(kind, ptr)
	}
	if k.Accessible {
		return k.Text(key, title, tv, kind, ptr).Description(k.Fit(desc, DescInset))
	}
	k.Labels.Note(key, title)
	s, sh := tv.Suggestion(), NewShown(tv)
	desc = strings.TrimSuffix("alt+enter (or ctrl+j) starts a new line, enter goes on; "+desc, "; ")
	desc = k.Fit(desc, DescInset)
	lines := max(3, strings.Count(s, "\n")+2)
	if k.Rows != nil { // the rows the page leaves it below its title and help (issue 35, item 8: 3 rows on an empty screen)
		lines = max(lines, min(maxTextRows, k.Rows()-2-strings.Count(desc, "\n")))
	}
	f := huh.NewText().Title(title).Description(desc).Accessor(sh).Key(key).
		Lines(lines).Placeholder(k.Mark(s))
	k.Offer(f, sh)
	if ptr == "" {
		return f
	}
	check := byTitle(title, k.Check(kind, ptr, tv.Value))
	if k.Live != nil {
		k.Live[f] = check
	}
	return f.Validate(check)
}

// maxTextRows bounds the rows a multi-line field grows to.
const maxTextRows = 12

// Mark is how a suggestion is shown in an empty field: under NO_COLOR,
// where a placeholder's grey is lost, it says it is a suggestion.
func (k Asker) Mark(s string) string {
	if k.Plain && s != "" {
		return "(suggested) " + s
	}
	return s
}

// Offer records the suggestion a field offers (see suggest).
func (k Asker) Offer(f huh.Field, sh Shown) {
	if k.Suggest != nil {
		k.Suggest[f] = sh
	}
}

// Shown binds a text field through tv and keeps the text the field shows
// (huh sets it on every key): the answer alone cannot tell an empty field
// from one holding the suggestion's text.
type Shown struct {
	TextValue
	text *string
}

func NewShown(tv TextValue) Shown {
	sh := Shown{TextValue: tv, text: new(string)}
	*sh.text = tv.Get()
	return sh
}

func (s Shown) Set(t string) {
	*s.text = t
	s.TextValue.Set(t)
}

// Text is what the field shows.
func (s Shown) Text() string { return *s.text }

// Offered is the suggestion while the field is empty ("" otherwise).
func (s Shown) Offered() string {
	if *s.text != "" {
		return ""
	}
	return s.Suggestion()
}

// Optional is text that may be left empty (the scaffold then derives it),
// checked by the schema only when given.
func (k Asker) Optional(key, title string, v *string, kind kinds.Kind, ptr string) *huh.Input {
	in := k.Text(key, title, Str{P: v}, "", "")
	if ptr == "" {
		return in
	}
	check := k.Check(kind, ptr, func(s string) any { return s })
	return k.Reg(in, func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return check(s)
	}).Description(k.Fit(k.Help(kind, ptr), DescInset))
}

// Multi asks for several of the values options() offers, computed from
// the current answers each time (see pick): a list to tick, or, in
// accessible mode (where an empty line cannot keep a ticked list), a line
// of comma-separated values checked against the offered ones. empty says
// why nothing is offered, when nothing is.
func (k Asker) Multi(key, title, desc string, options func() []string, v *[]string, empty string) huh.Field {
	if !k.Accessible {
		k.Labels.Note(key, title)
		p := NewPick(key, title, desc, options, v)
		p.empty, p.rows = empty, k.Rows
		return p
	}
	allowed := options() // accessible mode builds a group when it asks it: the answers before are in
	kept, dropped := scaffold.Ticked(*v, allowed)
	*v = kept
	note := ""
	if len(dropped) > 0 {
		note = "unticked " + strings.Join(dropped, ", ") + ": no longer offered"
	}
	// the input only carries the question (its key, its label): plainTicks asks it
	f := k.Text(key, title, List{P: v, Def: slices.Clone(*v)}, "", "")
	return &plainTicks{Field: f, title: title, desc: desc, note: note, empty: empty, p: v, opts: allowed}
}

// Fixed are options that do not depend on the answers.
func Fixed(opts []string) func() []string { return func() []string { return opts } }

// Help is the author-facing help for a field: the same words `wopkit lsp`
// shows on hover (validate's catalogue, or the schema's description
// without the spec's own words).
func (k Asker) Help(kind kinds.Kind, ptr string) string {
	return k.V.Help(kind, ptr)
}

// Check validates the value typed text stands for at the field's place,
// with the schema's words; an empty optional answer is left out.
func (k Asker) Check(kind kinds.Kind, ptr string, conv func(string) any) func(string) error {
	spec := kinds.SpecAuto
	if k.Spec != nil && kinds.IsPack(kind) {
		spec = k.Spec()
	}
	optional := !k.V.FieldFor(spec, kind, ptr).Required
	return func(s string) error {
		val := conv(s)
		if optional && isEmpty(val) {
			return nil
		}
		return firstError(scaffold.CheckFieldFor(k.V, spec, kind, ptr, val))
	}
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v) == ""
	case []any:
		return len(v) == 0
	}
	return false
}

func firstError(errs scaffold.FieldErrors) error {
	if len(errs) == 0 {
		return nil
	}
	if errs[0].Hint != "" {
		return errors.New(errs[0].Message + ": " + errs[0].Hint)
	}
	return errors.New(errs[0].Message)
}

// Enum lists the schema's allowed values for a field.
func (k Asker) Enum(kind kinds.Kind, ptr string) []huh.Option[string] {
	return huh.NewOptions(k.V.Field(kind, ptr).Enum...)
}

// Choices are options with their explanations.
func Choices(cs []scaffold.Choice) []huh.Option[string] {
	out := make([]huh.Option[string], len(cs))
	for i, c := range cs {
		label := c.Value + ": " + c.About
		if c.Value == "" {
			label = c.About
		}
		out[i] = huh.NewOption(label, c.Value)
	}
	return out
}

// Derived is an input the scaffold fills from the id when left empty.
func (k Asker) Derived(key, title string, v *string, kind kinds.Kind, ptr string) *huh.Input {
	return k.Optional(key, title, v, kind, ptr).Placeholder("(from the id)")
}

// InWords is a problem's message with the document's name of the answer
// (`defaultThreshold`) said as its label ("Confidence threshold").
func InWords(msg, pointer, label string) string {
	if label == "" || pointer == "" {
		return msg
	}
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) == 0 {
		return msg
	}
	i := strings.LastIndex(label, " › ")
	if i < 0 { // the page alone: no field to name
		return msg
	}
	field := label[i+len(" › "):]
	return strings.ReplaceAll(msg, "`"+toks[len(toks)-1]+"`", field)
}
