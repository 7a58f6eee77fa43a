package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
)

// A problem is named as the author saw the answer: the page that asks it
// (with the entry, "eval task 2") and the field's label ("Rubric
// criteria"), never the answer path (agents.0.eval.tasks.1.criteria) or
// the document's JSON name (defaultThreshold). The labels are those the
// page's own fields note as the page builds them (fieldLabels).

// labeledMsg is a review's plan with the label of each problem.
type labeledMsg struct {
	planMsg
	labels []string
}

// reviewCmd plans the files and names each problem as the pages show it,
// both off the screen's thread: building a page may take time (the sign
// page asks the ssh-agent for its keys).
func (w *wizard) reviewCmd() tea.Cmd {
	plan := planCmd(w.k.V, w.a, w.opts)
	a := w.a.clone() // the answers as planned (planCmd derived the key)
	ctx := *w.ctx
	lw := &wizard{ctx: &ctx, k: w.k, opts: w.opts, built: map[pos]ask.FieldLabels{}}
	lw.k.Rows = nil
	return func() tea.Msg {
		m, _ := plan().(planMsg)
		for i, fe := range m.Problems { // the places a message names, by their labels too
			m.Problems[i].Message = lw.placesInWords(a, fe.Message)
		}
		return labeledMsg{planMsg: m, labels: lw.labels(a, m.Problems)}
	}
}

// labels are the labels of problems about the answers a (see where).
func (w *wizard) labels(a *answers, problems []scaffold.FieldError) []string {
	if w.built == nil { // each page built once for these answers
		w.built = map[pos]ask.FieldLabels{}
		defer func() { w.built = nil }()
	}
	var out []string
	for _, fe := range problems {
		out = append(out, w.where(a, fe))
	}
	return out
}

// where is the label of the answer a problem about the answers a is
// about: "page › Field" (the page alone for a list page, or when no field
// of the page asks the answer); "" when no page asks it.
func (w *wizard) where(cur *answers, fe scaffold.FieldError) string {
	a := cur.clone()
	at := owner(a, fe)
	if at.pg.groups == nil || at.pg.owns == nil {
		return ""
	}
	head := pageLabel(a, at)
	if at.pg.list != nil {
		return head
	}
	if n := at.pg.names[fe.Field]; n != "" {
		return head + " › " + n
	}
	titles := w.titlesOf(a, at)
	keys := make([]string, 0, len(titles))
	for k := range titles {
		keys = append(keys, k)
	}
	if best := ask.BestKey(fieldKey(fe), keys); best != "" && titles[best] != "" {
		return head + " › " + titles[best]
	}
	return head
}

// titlesOf maps the keys of the fields page at asks to their titles: the
// labels the page notes as it builds its fields, built apart (on answers
// a, a copy: building may change them), once per page and entry while
// the wizard labels a review (see labels).
func (w *wizard) titlesOf(a *answers, at pos) map[string]string {
	if l, ok := w.built[at]; ok {
		return l
	}
	s := &wizard{ctx: w.ctx, k: w.k, a: a, opts: w.opts, hidden: map[*huh.Group]func() bool{}}
	s.k.Live, s.k.Suggest, s.k.Accessible = map[huh.Field]func(string) error{}, map[huh.Field]ask.Shown{}, false
	s.k.Labels = ask.FieldLabels{}
	at.pg.groups(s, at)
	if w.built != nil {
		w.built[at] = s.k.Labels
	}
	return s.k.Labels
}

// pageLabel is a page's title, with the entry it asks when there are
// several ("Eval task 2", "Agent 2 · eval task 1").
func pageLabel(a *answers, at pos) string {
	t := at.pg.title
	if at.pg.sub != nil {
		t = fmt.Sprintf("%s %d", t, at.j+1)
	}
	if at.pg.each != "" && listLen(a, at.pg.each) > 1 {
		switch noun := entryNoun(at.pg.each); {
		case at.pg.sub == nil && at.pg.list == nil && (noun == "" || noun == at.pg.title):
			t = fmt.Sprintf("%s %d", t, at.i+1) // the entry's own page
		case noun != "":
			t = fmt.Sprintf("%s %d · %s", noun, at.i+1, t)
		}
	}
	return capitalize(t)
}

// entryNoun names an entry of the lists pages repeat over, where a page
// about a part of it says which entry: the kind table's noun (the wizard
// keeps form templates as "forms").
func entryNoun(each string) string {
	if each == "forms" {
		each = "templates"
	}
	if c, ok := kinds.ContentOf(each); ok && !c.Object {
		return c.Noun
	}
	return ""
}

// clone is a deep copy of the answers (what a page built only to read its
// labels may change stays in the copy).
func (a *answers) clone() *answers {
	b, err := json.Marshal(a)
	if err != nil {
		return a
	}
	c := newAnswers()
	c.Kinds = declared{}
	if json.Unmarshal(b, c) != nil {
		return a
	}
	return c
}

// placesInWords names the places of the document a message points at by
// the labels of the answers they come from ("already used at Node 1 ›
// Node id"); a place no page asks is left as it is.
func (w *wizard) placesInWords(a *answers, msg string) string {
	kind := a.What
	if _, ok := wizardKinds[kind]; !ok {
		kind = scaffold.KindNode // the node, agent and mixed packs share pack.json's answers
	}
	return scaffold.PlacesInMessage(msg, func(pointer string) string {
		if field := scaffold.AnswerOf(kind, pointer); field != "" {
			return w.where(a, scaffold.FieldError{Field: field})
		}
		return ""
	})
}
