package wizard

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/tui/wizard/ask"
)

// TestAskRunCases (issue 41, item 3): accessible mode asks "Run the tests
// now? [y/N]" after writing a node pack: no by default, yes runs them.
func TestAskRunCases(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want bool
	}{{"y\n", true}, {"\n", false}, {"n\n", false}, {"", false}} {
		var out bytes.Buffer
		tr := &ask.Transcript{Out: &out}
		lines := &ask.Lines{R: strings.NewReader(c.in), T: tr}
		got, err := askRunCases(context.Background(), ask.Asker{V: testValidator, Accessible: true}, lines, tr)
		if err != nil && c.in != "" {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got != c.want {
			t.Errorf("%q: run %v, want %v", c.in, got, c.want)
		}
		if !strings.Contains(out.String(), "Run the tests now?") || !strings.Contains(out.String(), "[y/N]") {
			t.Errorf("%q: the question reads %q", c.in, out.String())
		}
	}
}
