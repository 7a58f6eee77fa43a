package wizard

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// TestKindPagesBindMappedAnswers: every field the pages of each
// declarative kind the wizard asks bind (its identity page aside) is an
// answer of that kind its pointer map knows, and a problem there leads
// back to the page that asks it.
func TestKindPagesBindMappedAnswers(t *testing.T) {
	if len(wizardKinds) < 6 {
		t.Fatalf("the wizard asks %d declarative kinds", len(wizardKinds))
	}
	for name, k := range wizardKinds {
		t.Run(name, func(t *testing.T) {
			if k.Pointers == nil {
				t.Fatalf("%s has no pointer map", name)
			}
			a := newAnswers()
			_, w := wizardOn(t, a, Options{What: name, DraftDir: t.TempDir()})
			n := 0
			for _, at := range walk(a) {
				if at.pg.list != nil || at.pg.owns == nil || at.pg.doc != docPack || at.pg.id == pageIdentity {
					continue
				}
				for key := range w.titlesOf(a.clone(), at) {
					n++
					// "….other" types the answer a list above it does not offer
					// (a form field's host format, as "license.other" on the
					// identity page): it binds that answer.
					key = strings.TrimSuffix(key, ".other")
					if !k.Pointers.Covers(key) {
						t.Errorf("%s binds %s, which the %s answers' pointer map does not know", at.pg.id, key, name)
					}
					if ptr := k.Pointers.Pointer(key); ptr != "" && k.Pointers.Field(ptr) != key {
						t.Errorf("%s: %s is at %s, which is %s", at.pg.id, key, ptr, k.Pointers.Field(ptr))
					}
					if got := owner(a, scaffold.FieldError{Field: key, File: "pack.json"}); !got.is(at) {
						t.Errorf("a problem with %s leads to %s/%d/%d, not %s/%d/%d", key, got.pg.id, got.i, got.j, at.pg.id, at.i, at.j)
					}
				}
			}
			if n < 5 {
				t.Fatalf("only %d fields bound", n)
			}
		})
	}
}
