package ask

import (
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/kinds"
)

// What the pages of the declarative kinds (prompt, card, …) ask through:
// inputs checked at the scaffold's field pointers, a number whose negative
// value leaves it out, choices that keep a value given on the command line.

// Pointed is an input for the answer field key, checked in the schema of
// kind at the pointer the scaffold gives the field ("" : no check).
func Pointed(k Asker, kind kinds.Kind, pointer func(string) string) func(key, title string, tv TextValue) *huh.Input {
	return func(key, title string, tv TextValue) *huh.Input {
		ptr := pointer(key)
		if ptr == "" {
			return k.Text(key, title, tv, "", "")
		}
		return k.Text(key, title, tv, kind, ptr)
	}
}

// Omittable is a number input where a negative number leaves the answer
// out of the document (a temperature); otherwise it is checked at ptr.
func Omittable(k Asker, key, title string, p *float64, kind kinds.Kind, ptr string) *huh.Input {
	tv := NewNum(p, *p)
	check := k.Check(kind, ptr, tv.Value)
	return k.Reg(k.Text(key, title, LeftOut{tv}, "", ""), func(s string) error {
		if f, ok := tv.Value(s).(float64); ok && f < 0 {
			return nil
		}
		return check(s)
	}).Description(k.Fit(strings.TrimSpace(k.Help(kind, ptr)+" A negative number leaves it out."), DescInset))
}

// LeftOut is a number answer whose negative suggestion stands for "leave
// it out": offered in those words, not as the number.
type LeftOut struct{ Num }

// Offer is the suggestion in words (see offerOf).
func (l LeftOut) Offer() string {
	if l.Default() < 0 {
		return "none: left out"
	}
	return l.Suggestion()
}

// WithCurrent is a list of choices with the current answer added when it
// is not one of them (a value typed on the command line).
func WithCurrent(choices []string, cur string) []string {
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
