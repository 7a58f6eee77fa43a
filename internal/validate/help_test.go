package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// schemaFields lists the pointers of every field the schema of kind k
// declares under spec (list items as index 0), down to a few levels.
func schemaFields(v *Validator, spec kinds.Spec, k kinds.Kind) []string {
	seen := map[string]bool{}
	var walk func(p string, depth int)
	walk = func(p string, depth int) {
		if depth > 6 || seen[p] {
			return
		}
		fi := v.FieldFor(spec, k, p)
		if fi.SchemaURL == "" {
			return
		}
		seen[p] = true
		sch := v.set.at(v.set.deref(fi.SchemaURL))
		if pr, ok := sch["properties"].(map[string]any); ok {
			for name := range pr {
				walk(p+"/"+name, depth+1)
			}
		}
		if fi.Type == "array" || sch["items"] != nil {
			walk(p+"/0", depth+1)
		}
	}
	walk("", 0)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

var helpKinds = []kinds.Kind{kinds.NodePack, kinds.Agent, kinds.EvalSuite, kinds.ToolManifest, kinds.WorkflowChainPack, kinds.ConnectionPack, kinds.PromptPack, kinds.CardPack,

	// TestHelpIsForAuthors: no help text, catalogued or taken from a schema,
	// carries what the issue found in the wizard: requirement keywords, RFC
	// numbers, code marks, or the reasons a schema author gives for a bound.
	kinds.FormContentPack, kinds.ArtifactTypePack}

func TestHelpIsForAuthors(t *testing.T) {
	t.Parallel()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`\b(MUST|SHOULD|MAY|NOT)\b|RFC|§|` + "`" + `|rather than|Adding a kind|single edit|Bounded at|grammar`)
	n := 0
	for _, spec := range []kinds.Spec{kinds.V1, kinds.V2} {
		for _, k := range helpKinds {
			for _, p := range schemaFields(v, spec, k) {
				h := v.HelpFor(spec, k, p)
				if h == "" {
					continue
				}
				n++
				if m := bad.FindString(h); m != "" {
					t.Errorf("%s %s %s: help has %q: %s", spec, k, p, m, h)
				}
				if utf8.RuneCountInString(h) > 220 {
					t.Errorf("%s %s %s: help is %d characters long: %s", spec, k, p, utf8.RuneCountInString(h), h)
				}
			}
		}
	}
	if n < 300 {
		t.Fatalf("only %d fields have help: the schema walk is broken", n)
	}
}

// TestHelpCatalogueNamesRealFields: every field the catalogue explains is
// one the kind's v2 schema (or, failing that, v1 schema) declares, so a
// renamed member cannot leave its help behind unnoticed.
func TestHelpCatalogueNamesRealFields(t *testing.T) {
	t.Parallel()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	catalogueHelp(kinds.NodePack, "/name") // load
	if len(helpData) < 9 {
		t.Fatalf("the catalogue has %d kinds", len(helpData))
	}
	for kind, m := range helpData {
		for ptr, text := range m {
			concrete := strings.ReplaceAll(ptr, "*", "0")
			if v.FieldFor(kinds.V2, kinds.Kind(kind), concrete).SchemaURL == "" && v.FieldFor(kinds.V1, kinds.Kind(kind), concrete).SchemaURL == "" {
				t.Errorf("catalogue: %s %s is not a field of the kind's schema", kind, ptr)
			}
			if got := v.HelpFor(kinds.V2, kinds.Kind(kind), concrete); got != text && (!strings.Contains(text, "{format}") || strings.Contains(got, "{format}")) {
				t.Errorf("catalogue: %s %s: Help gives %q, want the catalogue's %q", kind, ptr, got, text)
			}
		}
	}
}

// TestAuthorText: the schema sentences the issue quoted are left out, the
// author's sentences kept, code marks dropped, a long sentence cut at a word.
func TestAuthorText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Prompt roles. Adding a kind here is the single edit needed to extend the family.", "Prompt roles."},
		{"Field labels. Bounded at 1000 rather than 200 because forms carry long help.", "Field labels."},
		{"The host MUST NOT log it. Whether the value is secret.", "Whether the value is secret."},
		{"Template id per RFC 0107 grammar. Unique in the pack.", "Unique in the pack."},
		{"Stable connector id, e.g. `salesforce`.", "Stable connector id, e.g. salesforce."},
	} {
		if got := AuthorText(c.in); got != c.want {
			t.Errorf("AuthorText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("word ", 80)
	got := AuthorText(long)
	if !strings.HasSuffix(got, "word…") || utf8.RuneCountInString(got) > 200 {
		t.Errorf("a long sentence is cut at a word with an ellipsis, got %q", got)
	}
}
