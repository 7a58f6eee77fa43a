package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"charm.land/fang/v2"

	"github.com/openwop/wopkit/internal/termsafe"
)

// TestHelpHasNoTrailingSpaces: fang pads help to the terminal's width; the
// writer main puts under a help request drops the padding (issue 17).
func TestHelpHasNoTrailingSpaces(t *testing.T) {
	t.Parallel()
	trailing := regexp.MustCompile(`(?m) +$`)
	render := func(args []string, wrap func(io.Writer) io.Writer) string {
		var b bytes.Buffer
		root := newRootCmd()
		root.SetOut(wrap(&b))
		root.SetErr(io.Discard)
		root.SetArgs(args)
		if err := fang.Execute(context.Background(), root); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return b.String()
	}
	for _, args := range [][]string{{"--help"}, {"new", "--help"}, {"validate", "-h"}, {"help", "publish"}, {"bump", "--help"}} {
		if !helpAsked(args) {
			t.Errorf("helpAsked(%q) = false", args)
		}
		raw := render(args, func(w io.Writer) io.Writer { return w })
		if !trailing.MatchString(raw) {
			t.Fatalf("%q: fang's help has no padding any more; this test proves nothing", args)
		}
		if got := render(args, func(w io.Writer) io.Writer { return termsafe.NewTrimWriter(w) }); trailing.MatchString(got) || len(got) < 200 {
			t.Errorf("%q: help still has trailing spaces (or is empty):\n%s", args, got)
		}
	}
	for _, args := range [][]string{{"validate", "x"}, {"migrate", "--", "--help"}} {
		if helpAsked(args) {
			t.Errorf("helpAsked(%q) = true: its output would be trimmed", args)
		}
	}
}

// Issue 44 item 9: validate --help wrapped "OW017, which loads / a /
// javascript" over three lines.
func TestValidateHelpKeepsOW017OnOneLine(t *testing.T) {
	t.Parallel()
	out, _, _ := runCmd(t, "validate", "--help")
	if !strings.Contains(out, "OW017, which loads a javascript pack's entry with node") {
		t.Errorf("validate --help:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if w := strings.TrimSpace(l); w == "a" || w == "javascript" {
			t.Errorf("a line holding one word: %q", l)
		}
		if len(l) > 110 && !strings.HasPrefix(strings.TrimSpace(l), "--") {
			t.Errorf("a line of %d characters: %s", len(l), l)
		}
	}
}
