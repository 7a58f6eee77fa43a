package wizard

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/words"
)

// asker builds huh fields bound straight to the scaffold's answer values,
// with help, choices and checks from the schemas (internal/validate).
type asker struct {
	v *validate.Validator
	// accessible: plain prompts, where the title names the suggestion and
	// an empty line keeps it.
	accessible bool
	// live maps each input to its check (see reg); shared by copies.
	live map[huh.Field]func(string) error
	// titles maps each text field to its title, which its refusals name
	// it by (see reg); shared by copies.
	titles map[huh.Field]string
	// suggest maps each text field to the suggestion it offers, which →
	// takes into the empty field for editing (see wizard.suggestion).
	suggest map[huh.Field]shown
	// plain: no colour (NO_COLOR), so a placeholder is marked a suggestion
	// in words, not only by its grey.
	plain bool
	// rows is the height the form leaves its fields (nil: their own).
	rows func() int
	// ends maps each choice to the last line of its last option, which is
	// on the screen when the choice is not cut below (see moreBelow);
	// shared by copies (nil in accessible mode).
	ends map[huh.Field]string
	// cols is the form's width (nil: accessible mode, where text is printed
	// as it is): what a field shows is wrapped to it (see fit).
	cols func() int
	// cross checks the whole answers when the author leaves the field with
	// the key (see wizard.crossCheck); nil in accessible mode.
	cross func(key, text string) error
	// labels notes each field's label as it is built (nil: none noted).
	labels fieldLabels
	// spec is the spec version a pack manifest's fields are checked under
	// (the pack's; nil: the validator's, v1 when auto).
	spec func() validate.Spec
}

// packSpec is the spec version the pack of the answers is written for.
func packSpec(a *answers) validate.Spec {
	if a.Pack.Spec == scaffold.SpecV1 {
		return validate.V1
	}
	return validate.V2
}

// fit is text a field shows (its description, an option) wrapped at
// spaces to the form's width less inset columns: huh's own wrap breaks at
// hyphens, dots and commas, inside a version, a flag or an address, and it
// then has nothing left to wrap (issue 35, item 7). The form is built
// again when the width changes (wizard.Update).
func (k asker) fit(s string, inset int) string {
	if k.cols == nil {
		return s
	}
	return widgets.Wrap(s, k.cols()-inset)
}

// fitAbove is a field's description wrapped (see fit) and, when it would
// leave the field less than below rows under it (a choice's options) in
// the rows the form has, cut to what leaves them (at least one line, its
// end marked …): on a short terminal the options stay on the screen.
func (k asker) fitAbove(s string, below int) string {
	s = k.fit(s, descInset)
	if k.rows == nil || k.cols == nil {
		return s
	}
	lines := strings.Split(s, "\n")
	room := max(k.rows()-1-below, 1) // the title's row
	if len(lines) <= room {
		return s
	}
	lines = lines[:room]
	last := lines[room-1]
	if w := k.cols() - descInset - 2; ansi.StringWidth(last) > w {
		last = ansi.Truncate(last, w, "")
	}
	lines[room-1] = last + " …"
	return strings.Join(lines, "\n")
}

// descInset is what a field's frame takes of the form's width (huh's
// border and padding), optInset that and an option's cursor.
const (
	descInset = 2
	optInset  = 4
)

// textValue is how an input reads and writes its answer: huh's accessor,
// plus the value typed text stands for (an empty line is the suggestion).
type textValue interface {
	huh.Accessor[string]
	value(text string) any
	suggestion() string
}

// str binds a string answer; def is the suggestion shown as a placeholder:
// the field is empty while the answer is the suggestion, typing replaces
// it, and an empty field keeps it.
type str struct {
	p   *string
	def string
}

func (s str) Get() string {
	if *s.p == s.def {
		return ""
	}
	return *s.p
}

func (s str) Set(t string) {
	if t == "" {
		t = s.def
	}
	*s.p = t
}

func (s str) value(t string) any {
	if t == "" {
		return s.def
	}
	return t
}

func (s str) suggestion() string { return s.def }

// nameParts is the edit buffer of the pack name while the identity page
// asks it in three fields (scope, organisation, the rest): split from the
// name when the page is built, each field edits its part, and every edit
// is written through to the name at once (scaffold.JoinName). The name is
// the one answer; the parts are what the fields hold as typed, so that a
// part typed with a stray "." and mended gives back the name it was (the
// name split again after each keystroke would move the "." into the next
// part).
type nameParts struct {
	name *string
	p    [3]string
}

func splitName(name *string) *nameParts {
	n := &nameParts{name: name}
	n.p[0], n.p[1], n.p[2] = scaffold.SplitName(*name)
	return n
}

// part binds part i, def standing for an empty field.
func (n *nameParts) part(i int, def string) namePart { return namePart{n: n, i: i, def: def} }

// namePart binds one part of the pack name to a field.
type namePart struct {
	n   *nameParts
	i   int
	def string
}

func (p namePart) Get() string {
	if v := p.n.p[p.i]; v != p.def {
		return v
	}
	return ""
}

func (p namePart) Set(t string) {
	p.n.p[p.i] = p.value(t).(string)
	*p.n.name = scaffold.JoinName(p.n.p[0], p.n.p[1], p.n.p[2])
}

func (p namePart) value(t string) any {
	if t == "" {
		return p.def
	}
	return t
}

func (p namePart) suggestion() string { return p.def }

// with is the name with this part typed as t (what a check of the field
// reads before the answer is set).
func (p namePart) with(t string) string {
	q := p.n.p
	q[p.i] = p.value(t).(string)
	return scaffold.JoinName(q[0], q[1], q[2])
}

// follow binds a string answer whose suggestion is computed from the
// answers each time it is asked (def), so that it follows an answer given
// before it, on the same page or another: an empty field keeps the
// suggestion of the moment. With blank set the answer is then left ""
// (the scaffold derives it, and goes on deriving it when that other answer
// changes); otherwise it takes the suggestion's text.
type follow struct {
	p     *string
	def   func() string
	blank bool
}

func (f follow) Get() string {
	if *f.p == f.def() || f.blank && *f.p == "" {
		return ""
	}
	return *f.p
}

func (f follow) Set(t string) {
	switch {
	case t != "" && t != f.def():
		*f.p = t
	case f.blank:
		*f.p = ""
	default:
		*f.p = f.def()
	}
}

func (f follow) value(t string) any {
	if t == "" {
		return f.def()
	}
	return t
}

func (f follow) suggestion() string { return f.def() }

// yesNo binds a yes/no answer through its getter and setter (a flag whose
// default the scaffold derives from other answers).
type yesNo struct {
	get func() bool
	set func(bool)
}

func (f yesNo) Get() bool  { return f.get() }
func (f yesNo) Set(v bool) { f.set(v) }

// list binds a list answer typed as comma-separated text.
type list struct {
	p   *[]string
	def []string
}

func (l list) Get() string {
	if slices.Equal(*l.p, l.def) {
		return ""
	}
	return strings.Join(*l.p, ", ")
}

func (l list) Set(t string) {
	if strings.TrimSpace(t) == "" {
		*l.p = append([]string{}, l.def...)
		return
	}
	*l.p = splitList(t)
}

func (l list) value(t string) any {
	items := l.def
	if strings.TrimSpace(t) != "" {
		items = splitList(t)
	}
	out := []any{}
	for _, x := range items {
		out = append(out, x)
	}
	return out
}

func (l list) suggestion() string { return strings.Join(l.def, ", ") }

// num binds a number answer; text that is not a number is kept as typed
// (and refused by the check) without changing the answer.
type num struct {
	p   *float64
	def float64
	raw *string
}

func newNum(p *float64, def float64) num { return num{p: p, def: def, raw: new(string)} }

func (n num) Get() string {
	if *n.raw != "" {
		return *n.raw
	}
	if *n.p == n.def {
		return ""
	}
	return strconv.FormatFloat(*n.p, 'f', -1, 64)
}

func (n num) Set(t string) {
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

func (n num) value(t string) any {
	if strings.TrimSpace(t) == "" {
		return n.def
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(t), 64); err == nil {
		return f
	}
	return t
}

func (n num) suggestion() string { return strconv.FormatFloat(n.def, 'f', -1, 64) }

// splitList splits comma-separated text into trimmed, non-empty items.
func splitList(s string) []string {
	out := []string{}
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// title is a field's title; plain prompts do not show placeholders, so in
// accessible mode the suggestion is named in the title.
func (k asker) title(t string, tv textValue) string {
	if k.accessible {
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

// reg sets an input's check and records it, so the wizard can run the
// check of the focused input as it is typed (huh itself checks only when
// the author presses enter).
func (k asker) reg(in *huh.Input, check func(string) error) *huh.Input {
	check = byTitle(k.titles[in], check)
	if k.live != nil {
		k.live[in] = check
	}
	key := in.GetKey()
	return in.Validate(func(s string) error {
		if err := check(s); err != nil {
			return err
		}
		return k.crossed(key, s)
	})
}

// crossed is the whole-answers check of the field with the key as the
// author leaves it (nil when there is none).
func (k asker) crossed(key, text string) error {
	if k.cross == nil || key == "" {
		return nil
	}
	return k.cross(key, text)
}

// text is an input bound to tv, its help from the schema at ptr (none when
// ptr is empty) and checked there with the value the text stands for.
func (k asker) text(key, title string, tv textValue, kind validate.Kind, ptr string) *huh.Input {
	k.labels.note(key, title)
	sh := newShown(tv)
	in := huh.NewInput().Title(k.title(title, tv)).Accessor(sh).Key(key)
	if k.titles != nil {
		k.titles[in] = title
	}
	if s := offerOf(tv); s != "" {
		in = in.Placeholder(k.mark(s))
	}
	k.offer(in, sh)
	if ptr == "" {
		return in.Validate(func(s string) error { return k.crossed(key, s) })
	}
	return k.reg(in.Description(k.fit(k.help(kind, ptr), descInset)), titled(title, ptr, k.check(kind, ptr, tv.value)))
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

// titled is check with its refusals naming the field by its title on
// screen ("Version"), not by the document's JSON name (`version`).
func titled(title, ptr string, check func(string) error) func(string) error {
	return func(s string) error {
		if err := check(s); err != nil {
			return errors.New(inWords(err.Error(), ptr, " › "+title))
		}
		return nil
	}
}

// following is text bound to f whose placeholder follows the answer on
// watches as it is typed (accessible mode names the suggestion in the
// title, built when its group is asked).
func (k asker) following(key, title string, f follow, watches any, kind validate.Kind, ptr string) *huh.Input {
	return k.text(key, title, f, kind, ptr).PlaceholderFunc(func() string { return k.mark(f.def()) }, watches)
}

// long is text whose suggestion may run over several lines (a card's
// template): a multi-line field that shows the suggestion whole, desc its
// help (the schema's at ptr when empty). Accessible mode asks a line, the
// suggestion named in the question.
func (k asker) long(key, title, desc string, tv textValue, kind validate.Kind, ptr string) huh.Field {
	if desc == "" && ptr != "" {
		desc = k.help(kind, ptr)
	}
	if k.accessible {
		return k.text(key, title, tv, kind, ptr).Description(k.fit(desc, descInset))
	}
	k.labels.note(key, title)
	s, sh := tv.suggestion(), newShown(tv)
	desc = strings.TrimSuffix("alt+enter (or ctrl+j) starts a new line, enter goes on; "+desc, "; ")
	desc = k.fit(desc, descInset)
	lines := max(3, strings.Count(s, "\n")+2)
	if k.rows != nil { // the rows the page leaves it below its title and help (issue 35, item 8: 3 rows on an empty screen)
		lines = max(lines, min(maxTextRows, k.rows()-2-strings.Count(desc, "\n")))
	}
	f := huh.NewText().Title(title).Description(desc).Accessor(sh).Key(key).
		Lines(lines).Placeholder(k.mark(s))
	k.offer(f, sh)
	if ptr == "" {
		return f
	}
	check := byTitle(title, k.check(kind, ptr, tv.value))
	if k.live != nil {
		k.live[f] = check
	}
	return f.Validate(check)
}

// maxTextRows bounds the rows a multi-line field grows to.
const maxTextRows = 12

// mark is how a suggestion is shown in an empty field: under NO_COLOR,
// where a placeholder's grey is lost, it says it is a suggestion.
func (k asker) mark(s string) string {
	if k.plain && s != "" {
		return "(suggested) " + s
	}
	return s
}

// offer records the suggestion a field offers (see suggest).
func (k asker) offer(f huh.Field, sh shown) {
	if k.suggest != nil {
		k.suggest[f] = sh
	}
}

// shown binds a text field through tv and keeps the text the field shows
// (huh sets it on every key): the answer alone cannot tell an empty field
// from one holding the suggestion's text.
type shown struct {
	textValue
	text *string
}

func newShown(tv textValue) shown {
	sh := shown{textValue: tv, text: new(string)}
	*sh.text = tv.Get()
	return sh
}

func (s shown) Set(t string) {
	*s.text = t
	s.textValue.Set(t)
}

// offered is the suggestion while the field is empty ("" otherwise).
func (s shown) offered() string {
	if *s.text != "" {
		return ""
	}
	return s.suggestion()
}

// optional is text that may be left empty (the scaffold then derives it),
// checked by the schema only when given.
func (k asker) optional(key, title string, v *string, kind validate.Kind, ptr string) *huh.Input {
	in := k.text(key, title, str{p: v}, "", "")
	if ptr == "" {
		return in
	}
	check := k.check(kind, ptr, func(s string) any { return s })
	return k.reg(in, func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return check(s)
	}).Description(k.fit(k.help(kind, ptr), descInset))
}

// multi asks for several of the values options() offers, computed from
// the current answers each time (see pick): a list to tick, or, in
// accessible mode (where an empty line cannot keep a ticked list), a line
// of comma-separated values checked against the offered ones. empty says
// why nothing is offered, when nothing is.
func (k asker) multi(key, title, desc string, options func() []string, v *[]string, empty string) huh.Field {
	if !k.accessible {
		k.labels.note(key, title)
		p := newPick(key, title, desc, options, v)
		p.empty, p.rows = empty, k.rows
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
	f := k.text(key, title, list{p: v, def: slices.Clone(*v)}, "", "")
	return &plainTicks{Field: f, title: title, desc: desc, note: note, empty: empty, p: v, opts: allowed}
}

// fixed are options that do not depend on the answers.
func fixed(opts []string) func() []string { return func() []string { return opts } }

// help is the author-facing help for a field: the same words `wopkit lsp`
// shows on hover (validate's catalogue, or the schema's description
// without the spec's own words).
func (k asker) help(kind validate.Kind, ptr string) string {
	return k.v.Help(kind, ptr)
}

// check validates the value typed text stands for at the field's place,
// with the schema's words; an empty optional answer is left out.
func (k asker) check(kind validate.Kind, ptr string, conv func(string) any) func(string) error {
	spec := validate.SpecAuto
	if k.spec != nil && validate.IsPackKind(kind) {
		spec = k.spec()
	}
	optional := !k.v.FieldFor(spec, kind, ptr).Required
	return func(s string) error {
		val := conv(s)
		if optional && isEmpty(val) {
			return nil
		}
		return firstError(scaffold.CheckFieldFor(k.v, spec, kind, ptr, val))
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

// enum lists the schema's allowed values for a field.
func (k asker) enum(kind validate.Kind, ptr string) []huh.Option[string] {
	return huh.NewOptions(k.v.Field(kind, ptr).Enum...)
}

// choices are options with their explanations.
func choices(cs []scaffold.Choice) []huh.Option[string] {
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

// otherLicense is the license list's way to type another identifier.
const otherLicense = "another SPDX identifier…"

// license asks for an SPDX identifier: the scaffold's usual licenses (/
// searches them), or another identifier typed with completion from every
// SPDX id (ctrl+e completes); in accessible mode, a line with completions.
// A list of all ~700 ids would be drawn whole on every key.
func (w *wizard) license(v *string) (huh.Field, *huh.Group) {
	k := w.k
	help := k.help(validate.NodePack, "/license")
	typed := func(key, title string) *huh.Input {
		return k.text(key, title, str{p: v, def: *v}, validate.NodePack, "/license").Suggestions(spdxIDs())
	}
	if k.accessible {
		return typed("license", "License (SPDX)"), nil
	}
	picked := *v
	if !slices.Contains(scaffold.Licenses, picked) {
		picked = otherLicense
	}
	w.onSync(func() {
		if picked != otherLicense {
			*v = picked
		}
	})
	opts := append(huh.NewOptions(scaffold.Licenses...), huh.NewOption(otherLicense, otherLicense))
	list := k.choose(choice{key: "license", title: "License (SPDX)", desc: strings.TrimSpace(help + " Type / to search, esc to stop searching."),
		opts: opts, acc: huh.NewPointerAccessor(&picked)})
	other := w.hideWhen(w.k.group(typed("license.other", "SPDX identifier").Description(k.fit("ctrl+e completes the suggestion shown", descInset))),
		func() bool { return picked != otherLicense })
	return list, other
}

// spdxIDs are the scaffold's usual licenses, then every other SPDX
// identifier: built once.
var spdxIDs = sync.OnceValue(func() []string {
	ids := append([]string{}, scaffold.Licenses...)
	for _, id := range spdxlicenses.GetLicenses() {
		if !slices.Contains(scaffold.Licenses, id) {
			ids = append(ids, id)
		}
	}
	return ids
})

// derived is an input the scaffold fills from the id when left empty.
func (k asker) derived(key, title string, v *string, kind validate.Kind, ptr string) *huh.Input {
	return k.optional(key, title, v, kind, ptr).Placeholder("(from the id)")
}
