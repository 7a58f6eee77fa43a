package wizard

import (
	"slices"
	"strings"
	"sync"

	"charm.land/huh/v2"
	"github.com/github/go-spdx/v2/spdxexp/spdxlicenses"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// otherLicense is the license list's way to type another identifier.
const otherLicense = "another SPDX identifier…"

// license asks for an SPDX identifier: the scaffold's usual licenses (/
// searches them), or another identifier typed with completion from every
// SPDX id (ctrl+e completes); in accessible mode, a line with completions.
// A list of all ~700 ids would be drawn whole on every key.
func (w *wizard) license(v *string) (huh.Field, *huh.Group) {
	k := w.k
	help := k.Help(kinds.NodePack, "/license")
	typed := func(key, title string) *huh.Input {
		return k.Text(key, title, ask.Str{P: v, Def: *v}, kinds.NodePack, "/license").Suggestions(spdxIDs())
	}
	if k.Accessible {
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
	list := k.Choose(ask.Choice{Key: "license", Title: "License (SPDX)", Desc: strings.TrimSpace(help + " Type / to search, esc to stop searching."),
		Opts: opts, Acc: huh.NewPointerAccessor(&picked)})
	other := w.hideWhen(w.k.Group(typed("license.other", "SPDX identifier").Description(k.Fit("ctrl+e completes the suggestion shown", ask.DescInset))),
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
