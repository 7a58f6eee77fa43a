package styles

import (
	"strings"
	"testing"
)

func TestNoColor(t *testing.T) {
	tests := []struct {
		noColor, term string
		want          bool
	}{
		{"", "xterm-256color", false},
		{"1", "xterm-256color", true},
		{"", "dumb", true},
	}
	for _, tt := range tests {
		t.Setenv("NO_COLOR", tt.noColor)
		t.Setenv("TERM", tt.term)
		if got := NoColor(); got != tt.want {
			t.Errorf("NO_COLOR=%q TERM=%q: NoColor() = %v", tt.noColor, tt.term, got)
		}
	}
}

func TestPlainRendersNoColour(t *testing.T) {
	s := New(true)
	for name, st := range map[string]interface{ Render(...string) string }{
		"error": s.Error, "warning": s.Warning, "ok": s.OK, "dim": s.Dim, "key": s.Key, "help": s.Help,
	} {
		if out := st.Render("x"); strings.Contains(out, "\x1b[3") || strings.Contains(out, "38;") {
			t.Errorf("%s style colours its text: %q", name, out)
		}
	}
	if c := New(false); c.Plain {
		t.Error("colour styles marked plain")
	}
}
