package wizard

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// A page is a value: its title, its fields, when it applies, the answer
// paths it asks (so that a problem leads to exactly one page and field)
// and, for a list page, what its choice does. The wizard is the slice of
// pages in order and one move function; back, forward, "fix it", resume
// and accessible mode all walk the same slice. Each page registers itself
// from its own file.
type page struct {
	id    string
	title string
	order int    // place in the wizard
	doc   string // whose problems it answers: docPack, docTool or docSign
	// each names the list the page is asked once per entry of ("nodes",
	// "agents", "env", "scopes", "actions"; "" once). Consecutive pages of
	// the same list are asked together for each entry.
	each string
	// sub is how many times the page is asked for entry i (an agent's eval
	// tasks); nil is once.
	sub func(a *answers, i int) int
	// when says whether the page is part of this run.
	when func(a *answers, at pos) bool
	// owns lists the answer paths the page asks (a problem belongs to the
	// page whose path is the longest prefix of its field).
	owns func(at pos) []string
	// groups builds the fields (nil: the page is not a form: the review).
	groups func(w *wizard, at pos) []*huh.Group
	// list, for a list page, is the list it edits.
	list *listSpec
	// names are the labels of answers the page asks through several
	// fields (the pack name: scope, organisation and name part).
	names map[string]string
}

// The documents problems are about.
const (
	docPack = "pack"
	docTool = "tool"
	docSign = "sign"
)

// pos is a place in the walk: a page and the entries it is about.
type pos struct {
	pg   *page
	i, j int
}

func (p pos) is(q pos) bool { return p.pg == q.pg && p.i == q.i && p.j == q.j }

// pages are the wizard's pages in order (see register).
var pages []*page

// register adds a page; pages are kept in order.
func register(p *page) {
	pages = append(pages, p)
	slices.SortStableFunc(pages, func(a, b *page) int { return a.order - b.order })
}

func pageByID(id string) *page {
	for _, p := range pages {
		if p.id == id {
			return p
		}
	}
	return nil
}

// lists are the lengths of the lists pages repeat over (a page's each), by
// name; the file of a list's pages registers it (registerList).
var lists = map[string]func(a *answers) int{}

// registerList names a list pages repeat over and says its length.
func registerList(each string, n func(a *answers) int) { lists[each] = n }

// listLen is the length of a list pages repeat over ("" once).
func listLen(a *answers, each string) int {
	if n := lists[each]; n != nil {
		return n(a)
	}
	return 1
}

// walk is the run's pages in order, each entry of a list expanded.
func walk(a *answers) []pos {
	var out []pos
	for k := 0; k < len(pages); {
		m := k + 1
		for m < len(pages) && pages[k].each != "" && pages[m].each == pages[k].each {
			m++
		}
		for i := range listLen(a, pages[k].each) {
			for _, p := range pages[k:m] {
				n := 1
				if p.sub != nil {
					n = p.sub(a, i)
				}
				for j := range n {
					at := pos{pg: p, i: i, j: j}
					if p.when == nil || p.when(a, at) {
						out = append(out, at)
					}
				}
			}
		}
		k = m
	}
	return out
}

// indexOf is where at is in the walk (-1 when it is not).
func indexOf(ws []pos, at pos) int {
	return slices.IndexFunc(ws, at.is)
}

// owner is the page that asks the answer a problem is about: the page of
// the problem's document with the longest path the field starts with, or
// the first page of that document.
func owner(a *answers, fe scaffold.FieldError) pos {
	ws := walk(a)
	doc := docOf(fe)
	best, bestLen, first := -1, -1, -1
	for n, at := range ws {
		if at.pg.doc != doc || at.pg.owns == nil {
			continue
		}
		if first < 0 {
			first = n
		}
		for _, path := range at.pg.owns(at) {
			if (fe.Field == path || strings.HasPrefix(fe.Field, path+".")) && len(path) > bestLen {
				best, bestLen = n, len(path)
			}
		}
	}
	switch {
	case best >= 0:
		return ws[best]
	case first >= 0:
		return ws[first]
	}
	return ws[0]
}

// docOf says which document a problem is about.
func docOf(fe scaffold.FieldError) string {
	switch {
	case fe.File == docSign:
		return docSign
	case fe.File == docTool || strings.HasPrefix(fe.File, "tools/") || strings.HasSuffix(fe.File, ".tool.json"):
		return docTool
	}
	return docPack
}

// paths formats answer paths for owns.
func paths(format ...string) func(at pos) []string {
	return func(at pos) []string {
		out := make([]string, len(format))
		for n, f := range format {
			switch strings.Count(f, "%d") {
			case 0:
				out[n] = f
			case 1:
				out[n] = fmt.Sprintf(f, at.i)
			default:
				out[n] = fmt.Sprintf(f, at.i, at.j)
			}
		}
		return out
	}
}
