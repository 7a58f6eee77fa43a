package editor

import (
	"os"
	"path/filepath"
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

// TestEditorSaveRefusesChangedFile: when another program changed pack.json
// after the editor loaded it, saving refuses (the other change is kept) and
// says so (issue 10 item 9).
func TestEditorSaveRefusesChangedFile(t *testing.T) {
	dir := copyPack(t)
	path := filepath.Join(dir, "pack.json")
	d := newDriver(t, editorOn(t, dir)).Keys("/", "type:version", "enter", "enter", "ctrl+u", "type:9.9.9", "enter")
	theirs := []byte("{\"changed\": \"by another program\"}\n")
	if err := os.WriteFile(path, theirs, 0o644); err != nil {
		t.Fatal(err)
	}
	d.Keys("ctrl+s")
	if got, _ := os.ReadFile(path); string(got) != string(theirs) {
		t.Fatalf("the other program's change was overwritten:\n%s", got)
	}
	if e := d.App.Top().(*editor); !strings.Contains(e.status, "changed since") {
		t.Errorf("status %q does not say the file changed", e.status)
	}
}
