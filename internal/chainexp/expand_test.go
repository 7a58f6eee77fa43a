package chainexp

import (
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsvalue"
)

func parse(t *testing.T, s string) any {
	t.Helper()
	d, err := jsondoc.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return jsvalue.FromNode(d.Root)
}

// TestSubstituteGrammar checks the token grammar and the one pass.
func TestSubstituteGrammar(t *testing.T) {
	t.Parallel()
	params := parse(t, `{"a":"A","n":7,"o":{"k":1},"self":"{{params.a}}","d":"$&$1"}`).(*jsvalue.Object)
	for in, want := range map[string]any{
		"{{params.a}}":                  "A",
		"{{params.n}}":                  7.0,
		"{{params.missing}}":            "",
		"x{{params.missing}}y":          "xy",
		"{{params.a}}{{params.a}}":      "AA",
		"{{{{params.a}}}}":              "{{A}}",
		"{{params.a }}":                 "{{params.a }}",
		"{{params.1a}}":                 "{{params.1a}}",
		"n={{params.n}} o={{params.o}}": "n=7 o=[object Object]",
		"{{params.self}}!":              "{{params.a}}!",
		"{{params.d}}":                  "$&$1",
		"{{params.a}}\n":                "A\n",
		"{{params.":                     "{{params.",
		"{{params.a}":                   "{{params.a}",
		"{{params.constructor}}x":       "x",
	} {
		got := substitute(in, params)
		if got != want {
			t.Errorf("substitute(%q) = %#v, want %#v", in, got, want)
		}
	}
}

// TestSlug checks the child workflow id: "." and every character outside
// [0-9A-Za-z._-] become "_", one per UTF-16 unit.
func TestSlug(t *testing.T) {
	t.Parallel()
	if got := MintChildWorkflowID("tenant a/é", "x.y-z", "1.0.0+b😀"); got != "wfc_tenant_a____x_y-z__1_0_0_b__" {
		t.Errorf("MintChildWorkflowID = %q", got)
	}
}
