package tui

import (
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/validate"
)

// What the pages of the declarative kinds (prompt, card, ...) share: the
// list of entries of an entry (a prompt's variables, a card's inputs),
// checks through the scaffold's field pointers, and a number whose
// negative value leaves it out.

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
