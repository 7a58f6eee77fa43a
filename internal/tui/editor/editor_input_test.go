package editor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 44, item 6: a value typed into a field whose schema type is
// number, integer or boolean is written as that type when it parses as one
// (0.8 over a wrong "high" saves the number 0.8, not the string "0.8");
// text that does not parse stays a string, for the check to refuse.
func TestEditorWritesTheSchemasTypes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ptr, typed string
		want       any
	}{
		{"/confidence/defaultThreshold", "0.8", 0.8},
		{"/memoryShape/scratchpad", "true", true},
		{"/confidence/defaultThreshold", "very", "very"},
		{"/persona", "42", "42"}, // a string field keeps a number typed as text
	}
	for _, c := range cases {
		t.Run(c.ptr+"="+c.typed, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "helper.agent.json")
			src := `{"agentId": "vendor.acme.hello.helper", "persona": "Helper", "modelClass": "general",
  "confidence": {"defaultThreshold": "high"}, "memoryShape": {"scratchpad": "yes"}}
`
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			d := newDriver(t, editorOn(t, path)).Keys("/", "type:"+c.ptr, "enter", "enter", "ctrl+u", "type:"+c.typed, "enter", "ctrl+s")
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatalf("%v:\n%s", err, b)
			}
			var got any = doc
			for _, k := range splitPtr(c.ptr) {
				got = got.(map[string]any)[k]
			}
			if got != c.want {
				t.Errorf("%s typed %q saved %#v, want %#v:\n%s\n%s", c.ptr, c.typed, got, c.want, b, d.View())
			}
		})
	}
}

// splitPtr is a JSON pointer's tokens (no escapes in these tests).
func splitPtr(p string) []string {
	return strings.Split(p[1:], "/")
}
