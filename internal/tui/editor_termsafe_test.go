package tui

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// TestTreeRowsInert: keys and the previews of a manifest's strings are shown
// with control characters escaped (issue 10 item 7).
func TestTreeRowsInert(t *testing.T) {
	src := `{"k\u001b]0;pwned\u0007": {"name": "n\u001b[2K\u202e"}, "s": "x\u001b[2Ky\u202e"}`
	doc, err := jsondoc.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range buildRows(doc, nil) {
		for _, s := range []string{r.label, r.preview} {
			if strings.ContainsAny(s, "\x1b\x07\u202e") {
				t.Errorf("row %s shows %q raw", r.ptr, s)
			}
		}
	}
}
