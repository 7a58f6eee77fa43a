package ask

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"charm.land/huh/v2"
)

// Group is huh.NewGroup, the pages' way to put fields together: in
// accessible mode each text input is asked by its plain prompt
// (plainInput), which says its help and names the suggestion of the moment.
// Each field is given the form's theme first: huh.NewGroup draws its
// fields to measure them, and a field with no theme builds huh's whole
// Charm theme again for every line it draws (a sixth of the wizard's CPU).
func (k Asker) Group(fields ...huh.Field) *huh.Group {
	for i, f := range fields {
		f.WithTheme(k.Theme()) // the field itself kept: a wrapper's promoted WithTheme returns what it wraps
		if in, ok := f.(*huh.Input); ok && k.Accessible {
			fields[i] = &plainInput{Input: in, title: k.Titles[in], sh: k.Suggest[in]}
		}
	}
	return huh.NewGroup(fields...)
}

// Theme is the huh theme the asker's forms are drawn in: the plain one under
// NO_COLOR and in accessible mode, else Charm's (each built once).
func (k Asker) Theme() huh.Theme {
	if k.Plain || k.Accessible {
		return PlainTheme
	}
	return CharmTheme
}

// plainInput is a text input's plain prompt (accessible mode): its help on
// a line of its own, then its title with the suggestion as it is when the
// question is asked (one that follows an answer given just before names
// that answer's), an empty line keeping it. A suggestion of several lines
// is shown above the question, as it is, not inside the brackets.
type plainInput struct {
	*huh.Input
	title string // the field's title ("" when the asker did not note it)
	sh    Shown  // its answer and suggestion (nil textValue: not noted)
}

func (p *plainInput) RunAccessible(w io.Writer, r io.Reader) error {
	if help := inputHelp(p.Input); help != "" {
		fmt.Fprintln(w, "  "+help)
	}
	if p.title != "" && p.sh.TextValue != nil {
		cur := p.sh.Get()
		if cur == "" {
			cur = offerOf(p.sh.TextValue)
		}
		switch {
		case strings.Contains(cur, "\n"):
			fmt.Fprintln(w, "  suggested (an empty line keeps it):")
			for _, l := range strings.Split(strings.TrimRight(cur, "\n"), "\n") {
				fmt.Fprintln(w, strings.TrimRight("    "+l, " "))
			}
			p.Input.Title(p.title + " [the suggestion above]")
		case cur != "":
			p.Input.Title(p.title + " [" + cur + "]")
		default:
			p.Input.Title(p.title)
		}
	}
	return p.Input.RunAccessible(w, r)
}

// offerOf is the suggestion a field offers in words: a value that stands
// for "left out" says so with an Offer method (the wizard's leftOut).
func offerOf(tv TextValue) string {
	if o, ok := tv.(interface{ Offer() string }); ok {
		return o.Offer()
	}
	return tv.Suggestion()
}

// inputHelp is an input's description: huh keeps it unexported and its
// plain prompt does not say it, so it is read here (a test fails when huh
// moves it: TestAccessibleSaysHelp).
func inputHelp(in *huh.Input) string {
	v := reflect.ValueOf(in).Elem().FieldByName("description")
	if !v.IsValid() || v.Kind() != reflect.Struct {
		return ""
	}
	if s := v.FieldByName("val"); s.IsValid() && s.Kind() == reflect.String {
		return strings.Join(strings.Fields(s.String()), " ") // as one line: the full screen wraps it to its width
	}
	return ""
}
