package scaffold

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/placeholder"
	"github.com/openwop/wopkit/internal/validate"
)

// TestDefaultsListTheirPlaceholders (issue 35, item 5): every kind's
// default answers plan files whose placeholders the plan lists (what the
// review warns of), each at a string of the files that holds it; the
// validator's PH001 finds them there (with Options.Placeholders), and the
// plan is not refused for them.
func TestDefaultsListTheirPlaceholders(t *testing.T) {
	t.Parallel()
	v, err := validate.New(validate.Options{Strict: true, Placeholders: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, k := range Kinds() {
		if k.Plan == nil {
			continue
		}
		p, err := k.Plan(k.New(), v)
		if err != nil {
			t.Errorf("%s: the defaults are refused: %v", k.Name, err)
			continue
		}
		if len(p.Placeholders) == 0 {
			t.Errorf("%s: the defaults list no placeholder", k.Name)
		}
		for _, fe := range p.Placeholders {
			n++
			f := p.File(fe.File)
			if f == nil {
				t.Errorf("%s: a placeholder in %q, which the plan does not write", k.Name, fe.File)
				continue
			}
			doc, err := jsondoc.Parse(f.Data)
			if err != nil {
				t.Fatal(err)
			}
			node, toks := doc.Lookup(fe.Pointer), jsondoc.SplitPointer(fe.Pointer)
			if node == nil || node.Kind != jsondoc.String {
				t.Errorf("%s: no string at %s of %s", k.Name, fe.Pointer, fe.File)
				continue
			}
			if _, ok := placeholder.Find(toks, node.Str); !ok {
				t.Errorf("%s: %q at %s is not in the list", k.Name, node.Str, fe.Pointer)
			}
		}
	}
	if n == 0 {
		t.Fatal("no placeholder at all")
	}
	// the texts the scaffolds write are the list's
	if !strings.HasPrefix((PackAnswers{}).Defaults().Description, placeholder.DescriptionLead) ||
		EnvPrompt("X") != placeholder.EnvPrompt("X") || (ToolAnswers{}).Defaults().Tool.Summary != placeholder.ToolSummary {
		t.Error("a scaffold text is not the list's")
	}
}
