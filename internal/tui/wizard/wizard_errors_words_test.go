package wizard

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// internalWords are what a problem shown to the author must not say
// (issue 25, item 13): a JSON member or a list index in backticks, the
// schema's pattern words, a duplicate said as "X ends like X", a raw JSON
// pointer as the place.
var internalWords = []struct {
	what string
	re   *regexp.Regexp
}{
	{"a JSON member name in backticks", regexp.MustCompile("`[A-Za-z_$][A-Za-z0-9_$]*`")},
	{"a bare index in backticks", regexp.MustCompile("`[0-9]+`")},
	{"the words regular expression", regexp.MustCompile(`(?i)regular expression`)},
	{"the words ends like", regexp.MustCompile(`(?i)ends like`)},
	{"the words must match", regexp.MustCompile(`(?i)must match`)},
	{"a raw JSON pointer", regexp.MustCompile(`(^|[\s(])/[A-Za-z_$][A-Za-z0-9_$]*(/[A-Za-z0-9_$~]+)*([\s:,)]|$)`)},
}

// invalidAnswers are answers tried in every text field: empty (for a
// required field), an id with spaces and capitals, a URL that is not one,
// a version that is not one, a number that is not one.
var invalidAnswers = []string{"", "   ", "Not An Id!", "not a url", "1.2.x", "-", "x y", "@@", strings.Repeat("a", 300)}

// TestWizardErrorsNameNoInternalWords: for every kind the first page
// offers, every text field the wizard builds (those shown only after
// another choice too) is given answers its check
// refuses; each refusal speaks of the field in the author's words, naming
// no JSON member, index, pattern or pointer.
func TestWizardErrorsNameNoInternalWords(t *testing.T) {
	for _, c := range offered() {
		t.Run(c.Value, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := newAnswers()
			a.SignMethod = "skip"
			d, w := wizardOn(t, a, Options{What: c.Value, Dir: filepath.Join(dir, "out"), DraftDir: dir})
			bad := map[string]bool{}
			refused := 0
			seen, tried := map[huh.Field]bool{}, map[string]bool{}
			try := func(f huh.Field, check func(string) error) {
				seen[f], tried[f.GetKey()] = true, true
				for _, s := range invalidAnswers {
					err := check(s)
					if err == nil {
						continue
					}
					refused++
					for _, iw := range internalWords {
						if iw.re.MatchString(err.Error()) {
							bad[fmt.Sprintf("%s › %s, answer %q: %s names %s", w.at.pg.title, f.GetKey(), s, err, iw.what)] = true
						}
					}
				}
			}
			for steps := 0; w.form != nil; steps++ {
				if steps > 600 {
					t.Fatalf("enter does not reach the review (on %s)", w.at.pg.id)
				}
				// every field of the page, those shown only after another
				// choice too (a kill switch's address, a host's own format):
				// their groups are built hidden, with their checks
				for f, check := range w.k.Live {
					if !seen[f] {
						try(f, check)
					}
				}
				d.Keys("enter")
			}
			if refused == 0 {
				t.Fatal("no answer was refused: the fields' checks were not reached")
			}
			// the fields shown only after another choice were given answers
			hiddenToo := map[string][]string{whatTool: {"killSwitch.url", "killSwitch.command"}, scaffold.KindFormContent: {".format.other"}}
			for _, suffix := range hiddenToo[c.Value] {
				if !slices.ContainsFunc(slices.Collect(maps.Keys(tried)), func(k string) bool { return strings.HasSuffix(k, suffix) }) {
					t.Errorf("no field ending %q was given answers", suffix)
				}
			}
			var out []string
			for b := range bad {
				out = append(out, b)
			}
			sort.Strings(out)
			for _, b := range out {
				t.Error(b)
			}
		})
	}
}
