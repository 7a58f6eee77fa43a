package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestWriteJSONEscapesControls (issue 24, item 7): C1 controls (CSI U+009B,
// OSC U+009D), DEL and the bidi controls (U+202E) leave as \u escapes; the
// JSON reads back to the same value.
func TestWriteJSONEscapesControls(t *testing.T) {
	t.Parallel()
	v := map[string]any{"name": "a\u009b31mb\u009d0;x\u0007c\u007fd\u202ee\u2066f\x1bg<h>&", "n": []string{"é😀"}}
	for _, indent := range []string{"", "  "} {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, v, indent); err != nil {
			t.Fatal(err)
		}
		s := buf.String()
		for _, r := range strings.TrimSuffix(s, "\n") {
			if Unsafe(r) && r != '\n' {
				t.Errorf("raw %U in %q", r, s)
			}
		}
		for _, want := range []string{`\u009b`, `\u009d`, `\u007f`, `\u202e`, `\u2066`, `\u001b`, `<h>&`, "é😀"} {
			if !strings.Contains(s, want) {
				t.Errorf("%q lacks %s", s, want)
			}
		}
		var back map[string]any
		if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back["name"] != v["name"] {
			t.Errorf("reads back as %q (%v), want %q", back["name"], err, v["name"])
		}
	}
}
