package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
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
