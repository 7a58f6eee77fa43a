package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"charm.land/huh/v2"
	"github.com/openwop/wopkit/internal/words"
)

// listSpec is a list of answers edited on a list page: add an entry, edit
// one (its pages), remove one, or go on.
type listSpec struct {
	noun   string // one entry, e.g. "environment variable"
	plural string
	min    int // the fewest entries the document takes
	count  func(a *answers, at pos) int
	label  func(a *answers, at pos, k int) string
	add    func(a *answers, at pos)
	remove func(a *answers, at pos, k int)
	// entry reports whether a walk position asks entry k of the list.
	entry func(at pos, k int) func(pos) bool
}

// The list page's choices.
const (
	listDone   = "done"
	listAdd    = "add"
	listEdit   = "edit:"
	listRemove = "remove:"
	listUndo   = "undo"
)

// removed is the last entry removed on a list page, with the answers as
// they were before, so that the page offers to put it back.
type removed struct {
	page   string // the list page's id
	name   string
	before []byte // the answers before, as a draft keeps them
}

// listGroups is the list page: the entries, and what to do next.
func listGroups(w *wizard, at pos) []*huh.Group {
	l := at.pg.list
	n := l.count(w.a, at)
	names := make([]string, n)
	for k := range n {
		names[k] = l.label(w.a, at, k)
	}
	title := fmt.Sprintf("%s: none", capitalize(l.plural))
	if n > 0 {
		title = fmt.Sprintf("%s: %s", capitalize(words.Count(n, l.noun, l.plural)), strings.Join(names, ", "))
	}
	opts := []huh.Option[string]{huh.NewOption("continue", listDone)}
	if u := w.undo; u != nil && u.page == at.pg.id {
		title += " (removed " + u.name + ")"
		opts = append(opts, huh.NewOption("undo: put "+u.name+" back", listUndo))
	}
	opts = append(opts, huh.NewOption("add a new "+l.noun, listAdd))
	for k, name := range names {
		opts = append(opts, huh.NewOption("edit "+name, listEdit+strconv.Itoa(k)))
	}
	if n > l.min {
		for k, name := range names {
			opts = append(opts, huh.NewOption("remove "+name, listRemove+strconv.Itoa(k)))
		}
	}
	w.choice = listDone
	return []*huh.Group{w.k.Group(w.k.Choose(ask.Choice{Key: at.pg.id, Title: title,
		Opts: opts, Acc: huh.NewPointerAccessor(&w.choice)}))}
}

// listNext applies the list page's choice and says where it leads; ok is
// false for "continue".
func (w *wizard) listNext(at pos) (pos, bool) {
	l := at.pg.list
	c := w.choice
	u := w.undo
	w.undo = nil // offered once: any other choice keeps the removal
	switch {
	case c == listUndo && u != nil:
		var before answers
		if err := json.Unmarshal(u.before, &before); err == nil {
			*w.a = before
		}
		return at, true
	case c == listAdd:
		l.add(w.a, at)
		return w.entryPos(at, l.count(w.a, at)-1)
	case strings.HasPrefix(c, listEdit):
		k, _ := strconv.Atoi(strings.TrimPrefix(c, listEdit))
		return w.entryPos(at, k)
	case strings.HasPrefix(c, listRemove):
		k, _ := strconv.Atoi(strings.TrimPrefix(c, listRemove))
		if l.count(w.a, at) > l.min {
			name := l.label(w.a, at, k)
			before, err := json.Marshal(w.a)
			l.remove(w.a, at, k)
			if err == nil {
				w.undo = &removed{page: at.pg.id, name: name, before: before}
			}
		}
		return at, true
	}
	return pos{}, false
}

// entryPos is the first page of entry k of the list page at's list.
func (w *wizard) entryPos(at pos, k int) (pos, bool) {
	ws := walk(w.a)
	if n := indexOfFunc(ws, at.pg.list.entry(at, k)); n >= 0 {
		return ws[n], true
	}
	return at, true
}

func indexOfFunc(ws []pos, f func(pos) bool) int {
	for n, p := range ws {
		if f(p) {
			return n
		}
	}
	return -1
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// removeAt removes element k of a list.
func removeAt[T any](xs []T, k int) []T {
	if k < 0 || k >= len(xs) {
		return xs
	}
	return append(xs[:k:k], xs[k+1:]...)
}
