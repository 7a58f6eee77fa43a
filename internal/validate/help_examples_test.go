package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// exampleWords find the examples a help text gives ("e.g. X", "such as X",
// "for example X").
var exampleWords = regexp.MustCompile(`(?:e\.g\.|such as|for example) ([^\s,;()]+)`)

// TestHelpExamplesPass: every example the help catalogue gives for a field
// with a pattern or a URL format passes that field's check; and a help
// that speaks of a form ("git URL", "dots between parts") says one the
// check accepts (issue 25: the tool id's help said dots, the check
// refuses them; the repository's said a git URL, git@… is refused).
func TestHelpExamplesPass(t *testing.T) {
	t.Parallel()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	catalogueHelp(kinds.NodePack, "/name") // loads the catalogue
	if help := v.Help(kinds.ToolManifest, "/tool/id"); !strings.Contains(help, patternWords[v.Field(kinds.ToolManifest, "/tool/id").Pattern]) {
		t.Errorf("the tool id's help does not say the check's form: %q", help)
	}
	n := 0
	for kind, m := range helpData {
		for pat := range m {
			ptr := strings.ReplaceAll(pat, "*", "0")
			fi := v.Field(kinds.Kind(kind), ptr)
			text := v.Help(kinds.Kind(kind), ptr)
			for _, ex := range exampleWords.FindAllStringSubmatch(text, -1) {
				x := strings.TrimRight(ex[1], ".")
				switch {
				case fi.Pattern != "":
					if !regexp.MustCompile(fi.Pattern).MatchString(x) {
						t.Errorf("%s %s: the help's example %q does not match the field's pattern %s (help: %q)", kind, pat, x, fi.Pattern, text)
					}
					n++
				case fi.Format == "uri":
					if u, err := url.Parse(x); err != nil || !u.IsAbs() {
						t.Errorf("%s %s: the help's example %q is not an absolute URL (help: %q)", kind, pat, x, text)
					}
					n++
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no example checked: the catalogue or the fields moved")
	}
}
