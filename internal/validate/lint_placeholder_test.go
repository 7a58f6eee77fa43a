package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"strings"
	"testing"
)

// TestPlaceholderRule: PH001 warns, with Options.Placeholders (validate
// --strict), at each value a scaffold writes to be replaced, and at no
// real one; without the option it is silent.
func TestPlaceholderRule(t *testing.T) {
	t.Parallel()
	doc := []byte(`{"manifest_version": "0.4",
 "tool": {"id": "acme", "version": "0.1.0", "name": "Acme", "summary": "Does one useful thing for an agent.",
  "homepage": "https://example.com/tools/acme", "license": "MIT"},
 "runtime": {"kind": "mcp-stdio", "install": {"method": "pip", "package": "acme"}, "entrypoint": {"command": ["acme"]}},
 "env": [{"name": "ACME_TOKEN", "prompt": "The value of ACME_TOKEN: where to find it and what the tool does with it", "secret": true, "required": true},
  {"name": "ACME_URL", "prompt": "Where Acme runs, from your Acme settings page", "required": false}],
 "actions": [{"name": "hello", "summary": "Says hello.", "side_effects": "none"}],
 "smoke": {"kind": "shell", "command": ["acme", "--version"]},
 "kill_switch": {"kind": "manual", "instructions": "remove it"}}`)
	rules := func(o Options) []string {
		v, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range v.Bytes("acme.tool.json", doc, kinds.ToolManifest).Problems() {
			if p.Rule == PlaceholderRule {
				if p.Severity != Warning {
					t.Errorf("%s is %s", p.Pointer, p.Severity)
				}
				out = append(out, p.Pointer)
			}
		}
		return out
	}
	if got := strings.Join(rules(Options{Placeholders: true}), " "); got != "/tool/summary /tool/homepage /env/0/prompt" {
		t.Errorf("PH001 at %q", got)
	}
	if got := rules(Options{Strict: true}); len(got) > 0 {
		t.Errorf("PH001 without Options.Placeholders: %v", got)
	}
}
