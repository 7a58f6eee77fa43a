package tui

import (
	"errors"
	"slices"
	"strings"

	"charm.land/huh/v2"
	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// asker builds huh fields whose help and checks come from the schemas.
type asker struct {
	v *validate.Validator
	// accessible: an empty line keeps the shown default (huh's plain
	// prompts check the typed line before they fall back to the default).
	accessible bool
	// live maps each input to its check (see reg); shared by copies.
	live map[*huh.Input]func(string) error
}

// title is a field's title; plain prompts do not show the current value,
// so in accessible mode it is named in the title.
func (k asker) title(t string, v *string) string {
	if k.accessible && *v != "" {
		return t + " [" + *v + "]"
	}
	return t
}

// reg sets an input's check and records it, so the wizard can run the
// check of the focused input as it is typed (huh itself checks only when
// the author presses enter).
func (k asker) reg(in *huh.Input, check func(string) error) *huh.Input {
	if k.live != nil {
		k.live[in] = check
	}
	return in.Validate(check)
}

// keep lets an empty answer through in accessible mode, where it means
// "keep the default".
func (k asker) keep(check func(string) error) func(string) error {
	return func(s string) error {
		if k.accessible && s == "" {
			return nil
		}
		return check(s)
	}
}

// help is the schema's description of a field, cut to its first sentences.
func (k asker) help(kind validate.Kind, ptr string) string {
	d := k.v.Field(kind, ptr).Description
	if i := strings.Index(d, ". "); i > 0 && i < 200 {
		d = d[:i+1]
	}
	if r := []rune(d); len(r) > 200 {
		d = string(r[:199]) + "…"
	}
	return d
}

// check validates typed text as the field's value, with the schema's words.
func (k asker) check(kind validate.Kind, ptr string, conv func(string) any) func(string) error {
	optional := !k.v.Field(kind, ptr).Required
	return k.keep(func(s string) error {
		if optional && strings.TrimSpace(s) == "" {
			return nil // an empty optional answer is left out of the file
		}
		var val any = s
		if conv != nil {
			val = conv(s)
		}
		if errs := scaffold.CheckField(k.v, kind, ptr, val); len(errs) > 0 {
			if errs[0].Hint != "" {
				return errors.New(errs[0].Message + ": " + errs[0].Hint)
			}
			return errors.New(errs[0].Message)
		}
		return nil
	})
}

// enum lists the schema's allowed values for a field, or def when it has none.
func (k asker) enum(kind validate.Kind, ptr string, def ...string) []huh.Option[string] {
	vals := k.v.Field(kind, ptr).Enum
	if len(vals) == 0 {
		vals = def
	}
	return huh.NewOptions(vals...)
}

func (k asker) input(title string, v *string, kind validate.Kind, ptr string) *huh.Input {
	in := huh.NewInput().Title(k.title(title, v)).Value(v)
	if ptr != "" {
		in = k.reg(in.Description(k.help(kind, ptr)), k.check(kind, ptr, nil))
	}
	return in
}

// commonLicenses come first in the license list.
var commonLicenses = []string{"Apache-2.0", "MIT", "BSD-3-Clause", "BSD-2-Clause", "MPL-2.0", "GPL-3.0-only", "LGPL-3.0-only", "ISC", "Unlicense"}

// license asks for an SPDX identifier: a searchable list of every SPDX
// license (/ filters), or, in accessible mode, a line with completions.
func (k asker) license(v *string) huh.Field {
	help := k.help(validate.NodePack, "/license")
	if k.accessible {
		return huh.NewInput().Title(k.title("License (SPDX)", v)).Description(help).Value(v).Suggestions(commonLicenses).Key("license")
	}
	ids := append([]string{}, commonLicenses...)
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	for _, id := range spdxlicenses.GetLicenses() {
		if !seen[id] {
			ids = append(ids, id)
		}
	}
	if *v != "" && !seen[*v] && !slices.Contains(ids, *v) {
		ids = append([]string{*v}, ids...)
	}
	return huh.NewSelect[string]().Title("License (SPDX)").Description(help + " Type / to search.").
		Options(huh.NewOptions(ids...)...).Value(v).Height(6).Key("license")
}

// derived is an input the scaffold fills from the id when left empty.
func (k asker) derived(title string, v *string, kind validate.Kind, ptr string) *huh.Input {
	check := k.check(kind, ptr, nil)
	return k.reg(huh.NewInput().Title(k.title(title, v)).Value(v).Description(k.help(kind, ptr)).Placeholder("(from the id)"), func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return check(s)
	})
}

func listConv(s string) any {
	out := []any{}
	for _, x := range splitList(s) {
		out = append(out, x)
	}
	return out
}

func numConv(s string) any { return parseFloat(s, -1) }
