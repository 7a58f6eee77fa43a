package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 17, item 13: the editor used to edit a registry version manifest
// as any other file. It now says, all the time, that a hand edit breaks
// the release's integrity, and the first save only says so again.
func TestEditorWarnsOnVersionManifest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "1.0.0.json")
	src := `{
  "name": "community.acme.sealed",
  "version": "1.0.0",
  "engines": {"openwop": ">=2.0.0 <3.0.0"},
  "integrity": "sha512-AAAA"
}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, editorOn(t, path))
	if v := flat(d.View()); !strings.Contains(v, "registry version manifest") || !strings.Contains(v, "hand edit breaks them") {
		t.Fatalf("no warning on a version manifest:\n%s", d.View())
	}
	d.Keys("/", "type:version", "enter", "enter", "ctrl+u", "type:1.0.1", "enter", "ctrl+s")
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Fatalf("the first ctrl+s saved a version manifest:\n%s", b)
	}
	if !strings.Contains(flat(d.View()), "ctrl+s again saves anyway") {
		t.Errorf("the first save does not say why nothing was saved:\n%s", d.View())
	}
	d.Keys("ctrl+s")
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"1.0.1"`) {
		t.Fatalf("ctrl+s again did not save:\n%s", b)
	}

	// A pack.json is saved at the first ctrl+s, with no such line.
	pack := copyPack(t)
	d = newDriver(t, editorOn(t, pack))
	if strings.Contains(d.View(), "version manifest") {
		t.Errorf("a pack.json is warned about:\n%s", d.View())
	}
}
