package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/werr"
)

// scripted answers accessible mode's questions as they are asked: the
// line for a question is the first of replies whose key the text asked
// since the last answer contains (an empty line when none does), and the
// input ends at the first question after the target's answers are used.
type scripted struct {
	out     *bytes.Buffer
	seen    int
	target  string
	replies map[string][]string
	used    bool // the target was asked and every reply given
	line    []byte
}

func (s *scripted) Read(p []byte) (int, error) {
	if len(s.line) == 0 {
		asked := s.out.String()[s.seen:]
		s.seen = s.out.Len()
		if s.used {
			return 0, io.EOF
		}
		answer := ""
		for q, rs := range s.replies {
			if strings.Contains(asked, q) && len(rs) > 0 {
				answer, s.replies[q] = rs[0], rs[1:]
				break
			}
		}
		s.used = strings.Contains(s.out.String(), s.target)
		for _, rs := range s.replies {
			s.used = s.used && len(rs) == 0
		}
		s.line = []byte(answer + "\n")
	}
	p[0], s.line = s.line[0], s.line[1:]
	return 1, nil
}

// askUntil runs `wopkit new --accessible` for what ("" asks the first
// page), answering the question titled target with lines (others with an
// empty line, and more keys of replies with theirs), and ends the input
// at the first question after them. It returns the answers, what was
// shown, and the run's error.
func askUntil(t *testing.T, what string, terminal bool, target string, replies map[string][]string) (*answers, string, error) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	old := ask.IsTerminal
	ask.IsTerminal = func(io.Reader) bool { return terminal }
	t.Cleanup(func() { ask.IsTerminal = old })
	var out bytes.Buffer
	in := &scripted{out: &out, target: target, replies: replies}
	a := newAnswers()
	opts := Options{What: what, DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	err := runAccessible(context.Background(), ask.Asker{V: testValidator}, a, session{Options: opts})
	if !strings.Contains(out.String(), target) {
		t.Fatalf("the question %q was not asked:\n%s", target, out.String())
	}
	return a, out.String(), err
}

// choiceCases are a choice on three pages of three kinds: the first page
// (what to create), a tool's install method, a connection's sign-in kind.
var choiceCases = []struct {
	what, title string
	get         func(a *answers) string
	dflt        string // the default option's line and prompt
	number      string // a number and the value it names
	numberValue string
	name        string // an option's name, in another case
	nameValue   string
	prefix      string // the start of one option's text or name
	prefixValue string
	ambiguous   string // the start of two options' names
	both        []string
}{
	{"", "What do you want to create?", func(a *answers) string { return a.What },
		"1. mixed: A pack with a node, an agent (with an eval suite) and a tool manifest (default)\n", "3", whatAgent,
		"TOOL", whatTool, "a standalone e", whatSoloEval, "solo", []string{"solo-agent", "solo-eval"}},
	{whatTool, "Install method", func(a *answers) string { return a.Tool.Install.Method },
		"1. pip (default)\n", "4", "container", "Npm", "npm", "preinst", "preinstalled", "p", []string{"pip", "preinstalled"}},
	{scaffold.KindConnection, "How connectors sign in", func(a *answers) string { return a.connectionPack().Provider.Auth.Kind },
		"1. oauth2 (default)\n", "2", "api_key", "BEARER", "bearer", "api", "api_key", "b", []string{"bearer", "basic"}},
}

// TestAccessibleChoiceDefaultNumberName (issue 25, item 13): an accessible
// choice lists its options numbered with the default marked, names the
// default in its prompt, and takes an empty line (the default), a number,
// an option's name in any case, or the start of one option's name or text.
func TestAccessibleChoiceDefaultNumberName(t *testing.T) {
	for _, c := range choiceCases {
		t.Run(c.title, func(t *testing.T) {
			a, out, _ := askUntil(t, c.what, false, c.title, map[string][]string{c.title: {""}})
			if !strings.Contains(out, c.dflt) {
				t.Errorf("the default is not marked (%q):\n%s", c.dflt, out)
			}
			name := strings.SplitN(strings.TrimPrefix(c.dflt, "1. "), ":", 2)[0]
			name = strings.TrimSuffix(strings.TrimSuffix(name, "\n"), " (default)")
			if !strings.Contains(out, "or a name [default 1: "+name+"]: ") {
				t.Errorf("the prompt does not name the default (1: %s):\n%s", name, out)
			}
			if got := c.get(a); got != c.get(newAnswersFor(c.what)) {
				t.Errorf("an empty line: %q, not the default %q", got, c.get(newAnswersFor(c.what)))
			}
			for _, try := range []struct{ answer, want string }{{c.number, c.numberValue}, {c.name, c.nameValue}, {c.prefix, c.prefixValue}} {
				a, out, _ := askUntil(t, c.what, false, c.title, map[string][]string{c.title: {try.answer}})
				if got := c.get(a); got != try.want {
					t.Errorf("the answer %q gave %q, not %q:\n%s", try.answer, got, try.want, out)
				}
			}
		})
	}
}

// newAnswersFor are the answers a run for what starts from.
func newAnswersFor(what string) *answers {
	a := newAnswers()
	if what != "" {
		a.What = what
	}
	return a
}

// TestAccessibleChoiceRefusesAmbiguous: an answer that starts two options'
// names is refused with words naming both; from a pipe the run stops there
// (the next line answers the next question), on a terminal it is asked
// again and the next line taken. An unknown answer lists every name.
func TestAccessibleChoiceRefusesAmbiguous(t *testing.T) {
	for _, c := range choiceCases {
		t.Run(c.title, func(t *testing.T) {
			_, out, err := askUntil(t, c.what, false, c.title, map[string][]string{c.title: {c.ambiguous}})
			var e *werr.Error
			if !errors.As(err, &e) || e.Code != "prompt_answer_refused" {
				t.Fatalf("an ambiguous answer from a pipe: %v\n%s", err, out)
			}
			for _, n := range c.both {
				if !strings.Contains(e.Msg, n) {
					t.Errorf("the refusal does not name %s: %s", n, e.Msg)
				}
			}
			a, out, err := askUntil(t, c.what, true, c.title, map[string][]string{c.title: {c.ambiguous}, "could be": {c.number}})
			if got := c.get(a); got != c.numberValue || !strings.Contains(out, "could be") {
				t.Errorf("on a terminal, not asked again (%v): %q, want %q\n%s", err, got, c.numberValue, out)
			}
			_, out, err = askUntil(t, c.what, false, c.title, map[string][]string{c.title: {"zzz"}})
			if !errors.As(err, &e) || !strings.Contains(e.Msg, strings.Join(c.both, ", ")) && !strings.Contains(e.Msg, c.both[0]) {
				t.Errorf("an unknown answer is not refused with the names: %v\n%s", err, out)
			}
		})
	}
}

// TestAccessibleYesNo: a yes/no question shows its default, takes yes, no,
// y or n in any case, and refuses another answer saying what it takes.
func TestAccessibleYesNo(t *testing.T) {
	const q = "Handoff task and return schemas?"
	for answer, want := range map[string]bool{"YES": true, "y": true, "No": false, "": true} {
		a, out, _ := askUntil(t, whatSoloAgent, false, q, map[string][]string{q: {answer}})
		if !strings.Contains(out, q+" [Y/n] ") {
			t.Errorf("the default is not shown:\n%s", out)
		}
		if got := a.Pack.Agents[0].Handoff; got != want {
			t.Errorf("%q gave %v", answer, got)
		}
	}
	_, out, err := askUntil(t, whatSoloAgent, false, q, map[string][]string{q: {"maybe"}})
	var e *werr.Error
	if !errors.As(err, &e) || e.Code != "prompt_answer_refused" || !strings.Contains(e.Msg, "yes or no") {
		t.Errorf("a refused yes/no does not say what it takes: %v\n%s", err, out)
	}
}
