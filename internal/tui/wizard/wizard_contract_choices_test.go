package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"charm.land/huh/v2"
)

// The wizard's contract, continued (issue 35, item 1): what a choice hides
// leaves no trace. For every choice of every page of every kind (found by
// walking the pages, not listed here), and every option o of it: the files
// the review plans after choosing o are the same whether or not the author
// first chose the other options and answered what they ask (a distinct
// answer in each text field they show, the next option in each choice they
// show). A member that belongs only to another option is thus absent from
// the files written for o (the connection pack's OAuth endpoints for an API
// key, an MCP server for a provider reached by OpenAPI, a golden task's
// expected answer for a rubric task, a kill switch's address for a shell
// command).

// choiceAt is a choice field where the walk found it.
type choiceAt struct {
	at  pos
	key string
}

func (c choiceAt) id() string { return fmt.Sprintf("%s/%d/%d/%s", c.at.pg.id, c.at.i, c.at.j, c.key) }

// tokenOf is the contract's answer number of a field, the same in every
// run (candidates makes the answer from it).
func tokenOf(id string) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % 100000)
}

// isChoice reports whether f is a one-of choice (huh's Select, or its
// plain prompt in accessible mode).
func isChoice(f huh.Field) bool {
	switch f.(type) {
	case *huh.Select[string], *ask.PlainChoice:
		return true
	}
	return false
}

// choiceWalk presses enter from the current field to the review. It types
// into each text field answer names, once (typed), its contract answer
// (the first of its candidates the field takes), presses down once in each
// choice flip names (its next option), and notes each choice it passes
// (found). It returns the ids of the fields it visited.
func choiceWalk(t *testing.T, d *driver, w *wizard, typed map[string]bool, answer, flip func(id string) bool, found func(choiceAt)) {
	t.Helper()
	for steps := 0; w.form != nil; steps++ {
		if steps > 600 {
			t.Fatalf("the walk does not reach the review (on %s/%d):\n%s", w.at.pg.id, w.at.i, d.View())
		}
		f := w.form.GetFocusedField()
		c := choiceAt{at: w.at, key: f.GetKey()}
		id := c.id()
		sh, isText := w.k.Suggest[f]
		switch {
		case isChoice(f) && w.at.pg.list == nil && w.at.pg.doc != docSign && w.at.pg.id != "what":
			if found != nil {
				found(c)
			}
			if flip != nil && flip(id) {
				d.Keys("down")
			}
		case isText && answer != nil && answer(id) && !typed[id] && unwritten[f.GetKey()] == "" && !(isNamed(f.GetKey()) && sh.Offered() != ""):
			typed[id] = true
			taken := false
			for _, cand := range candidates(sh.Suggestion(), tokenOf(id), nil) {
				if check := w.k.Live[f]; check != nil && check(cand) != nil {
					continue
				}
				form := w.form
				d.Keys("ctrl+u", "type:"+cand, "enter")
				if taken = w.form != form || w.form == nil || w.form.GetFocusedField() != f; taken {
					break
				}
			}
			if !taken { // none is taken: the suggestion is kept
				d.Keys("ctrl+u")
			}
			continue
		}
		d.Keys("enter")
	}
}

// asks is what choosing the focused choice's current value asks: the
// pages of the walk, and the fields of its own page from it on.
func asks(t *testing.T, d *driver, w *wizard) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, at := range walk(w.a) {
		out[fmt.Sprintf("%s/%d/%d", at.pg.id, at.i, at.j)] = true
	}
	here := w.at
	for i := 0; i < 100 && w.form != nil && w.at.is(here); i++ {
		out[choiceAt{at: here, key: w.form.GetFocusedField().GetKey()}.id()] = true
		d.Keys("enter")
	}
	return out
}

// pageOfID is the page part of a field id (its page, entry and sub-entry).
func pageOfID(id string) string {
	parts := strings.SplitN(id, "/", 4)
	return strings.Join(parts[:3], "/")
}

// toChoice opens the page of c and focuses its field.
func toChoice(t *testing.T, d *driver, w *wizard, c choiceAt) {
	t.Helper()
	d.Run(w.move(c.at))
	focusKeyOf(t, d, w, c.key)
}

// optionsOf lists the focused choice's option values, from the one
// chosen: down moves through them and wraps round to it.
func optionsOf(t *testing.T, d *driver, w *wizard) []string {
	t.Helper()
	f := w.form.GetFocusedField()
	var out []string
	for range 200 {
		v, _ := f.GetValue().(string)
		if slices.Contains(out, v) {
			break
		}
		out = append(out, v)
		d.Keys("down")
	}
	return out
}

// choose moves the focused choice to the option o.
func choose(t *testing.T, d *driver, w *wizard, o string) {
	t.Helper()
	f := w.form.GetFocusedField()
	for i := 0; i < 200 && f.GetValue() != o; i++ {
		d.Keys("down")
	}
	if f.GetValue() != o {
		t.Fatalf("%s: option %q cannot be chosen:\n%s", f.GetKey(), o, d.View())
	}
}

// planned is the review's files, by path.
func plannedFiles(w *wizard) map[string]string {
	if w.rev.Plan == nil {
		return nil
	}
	out := map[string]string{}
	for _, f := range w.rev.Plan.Files {
		out[f.Path] = string(f.Data)
	}
	return out
}

// firstDiff names the first file that differs between two plans, with its
// first differing line.
func firstDiff(want, got map[string]string) string {
	var paths []string
	for p := range want {
		paths = append(paths, p)
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		if want[p] == got[p] {
			continue
		}
		wl, gl := strings.Split(want[p], "\n"), strings.Split(got[p], "\n")
		for i := range max(len(wl), len(gl)) {
			var a, b string
			if i < len(wl) {
				a = wl[i]
			}
			if i < len(gl) {
				b = gl[i]
			}
			if a != b {
				return fmt.Sprintf("%s line %d: %q, not %q", p, i+1, b, a)
			}
		}
	}
	return ""
}

// contractSample says which choices and options this run tries. Walking
// every option of every choice of every kind costs about 105 s of CPU (56 s
// on the two-core machine), which the README's `go test ./...` cannot
// afford (go test ./internal/tui/... <= 60 s, beside the terminal test). So by
// default each run tries about one choice in three (and the first), and of
// each the options that hide nothing plus one option that hides something,
// picked by a seed it logs
// (WOPKIT_CONTRACT_SEED repeats a run), so that successive runs cover the
// rest; WOPKIT_CONTRACT=full tries them all, as .ci/run does on every
// submission.
type contractSample struct {
	full bool
	seed uint64
}

func sampleFromEnv(t *testing.T) contractSample {
	if os.Getenv("WOPKIT_CONTRACT") == "full" {
		t.Log("WOPKIT_CONTRACT=full: every choice and option")
		return contractSample{full: true}
	}
	seed := uint64(0)
	if v := os.Getenv("WOPKIT_CONTRACT_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("WOPKIT_CONTRACT_SEED=%q: not a number", v)
		}
		seed = n
	} else {
		seed = uint64(os.Getpid())
	}
	t.Logf("a sample of the choices (WOPKIT_CONTRACT_SEED=%d repeats it; WOPKIT_CONTRACT=full tries all)", seed)
	return contractSample{seed: seed}
}

func (s contractSample) pick(id string, n int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", s.seed, id, n)
	return h.Sum64()
}

// choice says whether the choice at index n of the queue is tried.
func (s contractSample) choice(n int, id string) bool {
	return s.full || n == 0 || s.pick(id, 0)%3 == 0
}

// option says whether option k of the hiding options of a choice is tried.
func (s contractSample) option(id string, k, of int) bool {
	return s.full || of <= 1 || int(s.pick(id, 1)%uint64(of)) == k
}

func TestWizardContractChoices(t *testing.T) {
	sample := sampleFromEnv(t)
	for _, c := range offered() {
		t.Run(c.Value, func(t *testing.T) {
			t.Parallel()
			fresh := func() (*driver, *wizard) {
				dir := t.TempDir()
				a := newAnswers()
				a.SignMethod = "skip"
				return wizardOn(t, a, Options{What: c.Value, Dir: filepath.Join(dir, "out"), DraftDir: dir})
			}
			var queue []choiceAt
			known := map[string]bool{}
			found := func(ch choiceAt) {
				if !known[ch.id()] {
					known[ch.id()] = true
					queue = append(queue, ch)
				}
			}
			d, w := fresh()
			choiceWalk(t, d, w, nil, nil, nil, found)
			hiding := 0
			tried := 0
			for n := 0; n < len(queue) && n < 300; n++ {
				ch := queue[n]
				if !sample.choice(n, ch.id()) {
					continue
				}
				tried++
				d, w := fresh()
				toChoice(t, d, w, ch)
				opts := optionsOf(t, d, w)
				seen := make([]map[string]bool, len(opts)) // what each option asks
				for k, o := range opts {
					toChoice(t, d, w, ch)
					choose(t, d, w, o)
					seen[k] = asks(t, d, w)
				}
				// on the choice's page, the fields after it are answered
				// (what an option needs, such as an address)
				here := func(id string) bool { return pageOfID(id) == pageOfID(ch.id()) }
				othersOf := make([][]int, len(opts)) // the options that ask something o does not
				var hidingOpts []int
				for k := range opts {
					for m := range opts {
						for id := range seen[m] {
							if m != k && !seen[k][id] {
								othersOf[k] = append(othersOf[k], m)
								break
							}
						}
					}
					if len(othersOf[k]) > 0 {
						hidingOpts = append(hidingOpts, k)
					}
				}
				for j, k := range hidingOpts {
					if !sample.option(ch.id(), j, len(hidingOpts)) {
						continue
					}
					o, others := opts[k], othersOf[k]
					hiding++
					d, w := fresh()
					toChoice(t, d, w, ch)
					choose(t, d, w, o)
					d.Keys("enter")
					choiceWalk(t, d, w, map[string]bool{}, here, nil, found)
					want := plannedFiles(w)
					if want == nil {
						t.Errorf("%s = %q: the review refuses the contract's answers: %v", ch.id(), o, w.rev.Problems)
						continue
					}
					hidden := func(id string) bool {
						return !seen[k][id] && (pageOfID(id) == pageOfID(ch.id()) || !seen[k][pageOfID(id)])
					}
					d, w = fresh()
					typed := map[string]bool{}
					for _, m := range others {
						toChoice(t, d, w, ch)
						choose(t, d, w, opts[m])
						d.Keys("enter")
						choiceWalk(t, d, w, typed, hidden, hidden, found)
					}
					toChoice(t, d, w, ch)
					choose(t, d, w, o)
					d.Keys("enter")
					choiceWalk(t, d, w, typed, here, nil, nil)
					var asked []string
					for _, m := range others {
						asked = append(asked, opts[m])
					}
					if w.rev.Plan == nil {
						t.Errorf("%s = %q after answering what %s ask: the review refuses: %v", ch.id(), o, strings.Join(asked, ", "), w.rev.Problems)
					} else if diff := firstDiff(want, plannedFiles(w)); diff != "" {
						t.Errorf("%s = %q after answering what %s ask: %s", ch.id(), o, strings.Join(asked, ", "), diff)
					}
				}
			}
			t.Logf("%d choices (%d tried), %d options that hide something tried", len(queue), tried, hiding)
		})
	}
}
