package lsp

import (
	"fmt"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
)

// The quick fixes still computed here from the document (the others are
// carried by the problem, validate.Problem.Fix: see applyFix).

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
