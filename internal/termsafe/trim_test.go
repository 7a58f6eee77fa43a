package termsafe

import (
	"bytes"
	"testing"
)

func TestTrimWriter(t *testing.T) {
	for _, c := range []struct {
		chunks []string
		want   string
	}{
		{[]string{"usage   \n  flags  \n"}, "usage\n  flags\n"},
		{[]string{"a  ", "  b\n"}, "a    b\n"},             // spaces inside a line are kept across writes
		{[]string{"a \x1b[0m  \n"}, "a\x1b[0m\n"},          // a reset among trailing spaces is kept
		{[]string{"a  \x1b[1m", "b  \n"}, "a  \x1b[1mb\n"}, // a style before text keeps the spaces
		{[]string{"end   "}, "end"},                        // spaces at the very end are trailing
		{[]string{"x\r\n  \r\n"}, "x\r\n\r\n"},
	} {
		var b bytes.Buffer
		w := NewTrimWriter(&b)
		for _, s := range c.chunks {
			if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
				t.Fatalf("Write(%q) = %d, %v", s, n, err)
			}
		}
		if b.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.chunks, b.String(), c.want)
		}
	}
}
