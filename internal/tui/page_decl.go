package tui

import (
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// What the pages of the declarative kinds (prompt, card, ...) share: the
// list of entries of an entry (a prompt's variables, a card's inputs),
// checks through the scaffold's field pointers, and a number whose
// negative value leaves it out.

// declOrder is the place of the pages of the prompt, card, form-content
// and artifact-type kinds: after the chain pages, before the sign page.
// Pages of one order keep the order their file registers them in, and
// two of these kinds are never in one run.
const declOrder = 78

// entryList is a list page over the entries of entry at.i of a list: of
// is that entry, n, label, add and remove its list; page is the id of the
// page that asks one of them.
func entryList[P any](noun, plural, page string, min int, of func(a *answers, i int) *P, n func(p *P) int,
	label func(p *P, k int) string, add func(p *P), remove func(p *P, k int)) *listSpec {
	return &listSpec{noun: noun, plural: plural, min: min,
		count:  func(a *answers, at pos) int { return n(of(a, at.i)) },
		label:  func(a *answers, at pos, k int) string { return label(of(a, at.i), k) },
		add:    func(a *answers, at pos) { add(of(a, at.i)) },
		remove: func(a *answers, at pos, k int) { remove(of(a, at.i), k) },
		entry: func(at pos, k int) func(pos) bool {
			return func(p pos) bool { return p.pg.id == page && p.i == at.i && p.j == k }
		}}
}

// pointed is an input for the answer field key, checked in the schema of
// kind at the pointer the scaffold gives the field ("" : no check).
func pointed(k asker, kind validate.Kind, pointer func(string) string) func(key, title string, tv textValue) *huh.Input {
	return func(key, title string, tv textValue) *huh.Input {
		ptr := pointer(key)
		if ptr == "" {
			return k.text(key, title, tv, "", "")
		}
		return k.text(key, title, tv, kind, ptr)
	}
}

// omittable is a number input where a negative number leaves the answer
// out of the document (a temperature); otherwise it is checked at ptr.
func omittable(k asker, key, title string, p *float64, kind validate.Kind, ptr string) *huh.Input {
	tv := newNum(p, *p)
	check := k.check(kind, ptr, tv.value)
	return k.reg(k.text(key, title, tv, "", ""), func(s string) error {
		if f, ok := tv.value(s).(float64); ok && f < 0 {
			return nil
		}
		return check(s)
	}).Description(strings.TrimSpace(k.help(kind, ptr) + " A negative number leaves it out."))
}

// withCurrent is a list of choices with the current answer added when it
// is not one of them (a value typed on the command line).
func withCurrent(choices []string, cur string) []string {
	for _, c := range choices {
		if c == cur {
			return choices
		}
	}
	if cur == "" {
		return choices
	}
	return append(choices, cur)
}

// adopters take the answers of a declarative kind given on the command
// line (--set kind=K, --values): each kind's file registers how its
// answers become the wizard's (see adopt).
var adopters = map[string]func(a *answers, given any) bool{}

// adopt registers how the wizard starts from answers of kind: at stores
// them in the wizard's answers, id is their identity, which the identity
// page asks as the pack's.
func adopt[A any](kind string, at func(a *answers) *A, id func(*A) *scaffold.Identity) {
	adopters[kind] = func(a *answers, given any) bool {
		g, ok := given.(*A)
		if !ok {
			return false
		}
		*at(a) = *g
		a.What = kind
		i, p := id(g), &a.Pack
		p.Name, p.Version, p.Description, p.Author, p.License = i.Name, i.Version, i.Description, i.Author, i.License
		p.Homepage, p.Repository, p.Keywords, p.Spec, p.Engines = i.Homepage, i.Repository, i.Keywords, i.Spec, i.Engines
		return true
	}
}

// Asks reports whether the wizard asks for a pack of kind (`new pack --set
// kind=K` on a terminal opens it on that kind); the node pack is asked too.
func Asks(kind string) bool { return kind == scaffold.KindNode || adopters[kind] != nil }
