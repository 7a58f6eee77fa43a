package termsafe

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text, é 日本 😀", "plain text, é 日本 😀"},
		{"x\x1b[2K\rOK    fake.tgz: all good", `x\x1b[2K\x0dOK    fake.tgz: all good`},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`},
		{"a\nb\tc\x7f", `a\x0ab\x09c\x7f`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`},
		{"bidi \u202eexe.txt\u202c \u2066x\u2069 \u200f", `bidi \u202eexe.txt\u202c \u2066x\u2069 \u200f`},
		{"bad \xff byte", `bad \xff byte`},
		{`back\slash`, `back\slash`},
	} {
		got := String(c.in)
		if got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, r := range got {
			if Unsafe(r) {
				t.Errorf("String(%q) still holds %U", c.in, r)
			}
		}
		if strings.ContainsAny(got, "\x1b\x07\r\n") {
			t.Errorf("String(%q) = %q holds a raw control", c.in, got)
		}
	}
}

func TestLines(t *testing.T) {
	if got, want := Lines("a\x1b[2K\nb\u202e"), "a\\x1b[2K\nb\\u202e"; got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}
