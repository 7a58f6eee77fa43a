package lsp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
)

// The quick fixes still computed here from the document (the others are
// carried by the problem, validate.Problem.Fix: see applyFix).

// setValue is the action "title" that sets the value at pointer.
func setValue(w *view, pointer string, value any, title string) *codeAction {
	b, err := jsonedit.Set(w.doc.text, pointer, value)
	if err != nil {
		return nil
	}
	return &codeAction{Title: title, Edit: editOf(w, b)}
}

// admitMajor2 writes an engines.openwop range with the ceiling <3.0.0 the
// v2 registry needs (PK001), keeping the range's floor when it has one.
func admitMajor2(w *view, pointer string) *codeAction {
	n := w.jd.Lookup(pointer)
	if pointer != "/engines/openwop" || n == nil || n.Kind != jsondoc.String {
		return nil
	}
	floor := "1.0.0"
	if v := lowestVersion(n.Str); v != "" {
		if major, err := strconv.Atoi(v[:strings.IndexByte(v, '.')]); err == nil && major < 3 && strings.HasPrefix(strings.TrimSpace(n.Str), ">=") {
			floor = v
		}
	}
	r := ">=" + floor + " <3.0.0"
	return setValue(w, pointer, r, fmt.Sprintf("Write %q", r))
}

// renamePeer renames a peerDependencies key to the family validate guesses
// for it (PK002's hint: validate.GuessPeerFamily), with its
// peerDependenciesMeta entry, and the alias's facets there when the family
// has no entry yet.
func renamePeer(w *view, pointer string) *codeAction {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) != 2 || toks[0] != "peerDependencies" {
		return nil
	}
	key := toks[1]
	fam := validate.GuessPeerFamily(key)
	if fam == "" || fam == key || w.jd.Lookup(jsondoc.Child("/peerDependencies", fam)) != nil {
		return nil
	}
	text, err := jsonedit.Rename(w.doc.text, pointer, fam)
	if err != nil {
		return nil
	}
	meta := w.jd.Lookup("/peerDependenciesMeta")
	switch {
	case meta.Get(key) != nil && meta.Get(fam) == nil:
		text, err = jsonedit.Rename(text, jsondoc.Child("/peerDependenciesMeta", key), fam)
	case meta.Get(fam) == nil:
		if row, ok := validate.PeerAlias(key); ok && len(row.Facets) > 0 {
			if meta == nil {
				text, err = jsonedit.SetAfter(text, "/peerDependenciesMeta", "peerDependencies", map[string]any{fam: map[string]any{"facets": row.Facets}})
			} else if meta.Kind == jsondoc.Object {
				text, err = jsonedit.Set(text, jsondoc.Child("/peerDependenciesMeta", fam), map[string]any{"facets": row.Facets})
			}
		}
	}
	if err != nil {
		return nil
	}
	return &codeAction{Title: fmt.Sprintf("Rename the peer dependency %q to the family %q", key, fam), Edit: editOf(w, text)}
}
