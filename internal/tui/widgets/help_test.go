package widgets

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/openwop/wopkit/internal/tui/styles"
)

func TestFit(t *testing.T) {
	tests := []struct {
		in   string
		w, h int
		want string
	}{
		{"ab", 4, 2, "ab  \n    "},
		{"abcdef", 4, 1, "abc…"},
		{"a\nb\nc", 1, 2, "a\nb"},
		{"é—x", 3, 1, "é—x"},
	}
	for _, tt := range tests {
		if got := Fit(tt.in, tt.w, tt.h); got != tt.want {
			t.Errorf("Fit(%q, %d, %d) = %q, want %q", tt.in, tt.w, tt.h, got, tt.want)
		}
	}
}

func TestHelpLineFits(t *testing.T) {
	st := styles.New(true)
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	hidden := key.NewBinding(key.WithKeys("x"))
	for _, w := range []int{10, 40, 80} {
		got := HelpLine(st, w, b("q", "quit"), hidden, b("ctrl+s", "save"), b("enter", "edit the selected value"))
		if lipgloss.Width(got) > w {
			t.Errorf("width %d: help line is %d wide: %q", w, lipgloss.Width(got), got)
		}
		if !strings.HasPrefix(got, "q quit") && w >= 10 {
			t.Errorf("width %d: %q does not start with the first binding", w, got)
		}
	}
}

// TestWrapAtSpaces (issue 35, item 7): text wraps at spaces, never inside a
// token (a version, a flag, a path), a wrapped line keeps its indent, and
// no line is wider than asked; the words read back as they were.
func TestWrapAtSpaces(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    string
		width int
		whole []string // tokens that must stay on one line
	}{
		{"The pack's version, as MAJOR.MINOR.PATCH (for example 1.0.0). Raise it for every release.", 58, []string{"1.0.0).", "MAJOR.MINOR.PATCH"}},
		{"sign with a key: pass --key FILE and --key-id ID, or use ssh-agent:SHA256:abc", 30, []string{"--key-id", "ssh-agent:SHA256:abc"}},
		{"The licence the pack is published under, as an SPDX id such as Apache-2.0 or MIT. Type / to search, esc to stop searching.", 56, []string{"Apache-2.0"}},
		{"  an indented line that is long enough to wrap over more than one line of text", 30, nil},
		{"packed community.acme.my-pack-0.1.0.tgz (sha256-VerkaVQqkTF3DcDGgF9+FGw6Vd4Di5wFJf4BXZlgBmY=)", 58, []string{"(sha256-VerkaVQqkTF3DcDGgF9+FGw6Vd4Di5wFJf4BXZlgBmY=)"}},
	} {
		got := Wrap(c.in, c.width)
		lines := strings.Split(got, "\n")
		for _, l := range lines {
			if lipgloss.Width(l) > c.width {
				t.Errorf("%q at %d: a line is %d wide: %q", c.in, c.width, lipgloss.Width(l), l)
			}
		}
		for _, tok := range c.whole {
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, tok) }) {
				t.Errorf("%q at %d: %q is cut:\n%s", c.in, c.width, tok, got)
			}
		}
		if pre := c.in[:len(c.in)-len(strings.TrimLeft(c.in, " "))]; pre != "" {
			for _, l := range lines {
				if !strings.HasPrefix(l, pre) {
					t.Errorf("a wrapped line lost its indent %q: %q", pre, l)
				}
			}
		}
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(c.in), " ") {
			t.Errorf("the words changed:\n%q\n%q", c.in, got)
		}
	}
	// a word wider than the line is cut, nothing lost
	if got := Wrap("abcdefghij", 4); got != "abcd\nefgh\nij" {
		t.Errorf("a long word: %q", got)
	}
	// a path wider than the line is cut after a slash
	if got := Wrap("/tmp/lane-1/work/config/keys/acme.key", 20); got != "/tmp/lane-1/work/\nconfig/keys/acme.key" {
		t.Errorf("a long path: %q", got)
	}
}

// TestHelpLineKeepsQuit (issue 35, item 7): at 40 columns the key help
// drops the keys in the middle, not how to quit.
func TestHelpLineKeepsQuit(t *testing.T) {
	t.Parallel()
	st := styles.New(true)
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	got := HelpLine(st, 40, b("enter", "next"), b("↑/↓", "choose"), b("⇧tab/^b", "back"), b("esc", "quit"))
	if !strings.HasSuffix(got, "esc quit") || !strings.HasPrefix(got, "enter next") || lipgloss.Width(got) > 40 {
		t.Errorf("help line at 40: %q", got)
	}
}

// TestHelpLineKeepsQuitInTheMiddle: how to quit stays when it is not the
// last key (the editor's help names it fourth).
func TestHelpLineKeepsQuitInTheMiddle(t *testing.T) {
	t.Parallel()
	st := styles.New(true)
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	got := HelpLine(st, 40, b("↑↓", "move"), b("enter", "edit"), b("^s", "save"), b("q", "quit"), b("/", "search"), b("p", "problems"), b("u", "undo"))
	if !strings.Contains(got, "q quit") || !strings.HasPrefix(got, "↑↓ move") || lipgloss.Width(got) > 40 {
		t.Errorf("help line at 40: %q", got)
	}
}
